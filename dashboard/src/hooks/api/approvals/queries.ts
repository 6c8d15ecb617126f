// The approval inbox's read: the pending payouts, 50 at a time. The approval policy that says whose turn it is
// (its rules and maker-checker) is hooks/api/approval-policy's.
import { useInfiniteQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
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
