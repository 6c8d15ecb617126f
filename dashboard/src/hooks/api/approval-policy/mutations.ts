// Replacing the approval policy (admins, step-up): the answer is the policy now in force, cached as is.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { isControlChange } from "../payout-limits/types";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { ApprovalPolicyInput } from "./types";

export function useReplaceApprovalPolicy() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (body: ApprovalPolicyInput) => call(api.PUT("/v1/approval-policy", { body })),
    // A weakening while maker-checker is on answers 202 with a pending control change: nothing changed yet.
    onSuccess: (answer) => {
      if (isControlChange(answer)) {
        return queryClient.invalidateQueries({ queryKey: queryKeys.controlChanges.all(environment) });
      }
      queryClient.setQueryData(queryKeys.approvalPolicy(environment), answer);
      return undefined;
    },
  });
}
