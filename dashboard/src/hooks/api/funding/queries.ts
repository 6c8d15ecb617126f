// The environment's funding accounts (with their balances) and one account's ledger transfers, a page at a time.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";

export function useFundingAccounts() {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.funding.list(environment),
    queryFn: () => call(api.GET("/v1/funding-accounts", { params: { query: { limit: 200 } } })),
  });
}

/** Newest first; the previous page stays shown while the next is read. */
export function useFundingTransfers(accountId: string, cursor: string | null, pageSize = 10) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.funding.transfers(environment, accountId, cursor),
    queryFn: () =>
      call(
        api.GET("/v1/funding-accounts/{id}/transfers", {
          params: { path: { id: accountId }, query: { limit: pageSize, ...(cursor === null ? {} : { cursor }) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
