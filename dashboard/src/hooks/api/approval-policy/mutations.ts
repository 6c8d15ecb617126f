// Replacing the approval policy (admins, step-up): the answer is the policy now in force, cached as is.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { ApprovalPolicyInput } from "./types";

export function useReplaceApprovalPolicy() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (body: ApprovalPolicyInput) => call(api.PUT("/v1/approval-policy", { body })),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.approvalPolicy(environment), answer),
  });
}
