// The environment's approval policy: its rules and maker-checker (Approvals reads it to tell whose turn it is).
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";

export function useApprovalPolicy() {
  const { environment } = useSession();
  return useQuery({ queryKey: queryKeys.approvalPolicy(environment), queryFn: () => call(api.GET("/v1/approval-policy")) });
}
