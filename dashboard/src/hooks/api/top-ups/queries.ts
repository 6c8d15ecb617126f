// Top-ups, newest first, filtered by status and funding account, a page at a time.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import type { TopUpFilters } from "./types";

export function useTopUps(filters: TopUpFilters, cursor: string | null, pageSize = 20) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.topUps.list(environment, filters, cursor),
    queryFn: () =>
      call(
        api.GET("/v1/top-ups", {
          params: {
            query: {
              limit: pageSize,
              ...(filters.status === null ? {} : { status: filters.status }),
              ...(filters.fundingAccountId === null ? {} : { funding_account_id: filters.fundingAccountId }),
              ...(cursor === null ? {} : { cursor }),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
