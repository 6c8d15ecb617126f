// The destination policy and the bank details waiting for approval (issue 29).
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";

export function useDestinationPolicy() {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.destinationPolicy(environment),
    queryFn: () => call(api.GET("/v1/destination-policy")),
  });
}

export function useBankAccountApprovals() {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.bankAccountApprovals(environment),
    queryFn: () => call(api.GET("/v1/bank-account-approvals")),
  });
}
