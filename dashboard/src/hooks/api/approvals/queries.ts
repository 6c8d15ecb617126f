// The approval inbox's reads: the pending payouts, 50 at a time, and the approval policy that says whose turn
// it is (its rules and maker-checker).
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session";
import { queryKeys } from "../query-keys";

const PAGE = 50;

export function usePendingApprovals() {
  const { environment } = useSession();
  return useInfiniteQuery({
    queryKey: queryKeys.payouts.pending(environment),
    queryFn: ({ pageParam }) =>
      call(
        api.GET("/v1/payouts", {
          params: { query: { status: "pending_approval", limit: PAGE, ...(pageParam === null ? {} : { cursor: pageParam }) } },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
}

export function useApprovalPolicy() {
  const { environment } = useSession();
  return useQuery({ queryKey: queryKeys.approvalPolicy(environment), queryFn: () => call(api.GET("/v1/approval-policy")) });
}
