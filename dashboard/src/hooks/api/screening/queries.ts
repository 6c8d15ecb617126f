// Sanctions screening hits (issue 29), a page at a time, newest first; the previous page stays shown while the
// next is read. Filters: the hit's status (`open` is the review queue) and one Beneficiary.
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import type { ScreeningHitFilters } from "./types";

export function useScreeningHits(filters: ScreeningHitFilters, cursor: string | null, pageSize = 25) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.screening.list(environment, { ...filters, pageSize }, cursor),
    queryFn: () =>
      call(
        api.GET("/v1/screening-hits", {
          params: {
            query: {
              limit: pageSize,
              ...(filters.status === null ? {} : { status: filters.status }),
              ...(filters.beneficiaryId === null ? {} : { beneficiary_id: filters.beneficiaryId }),
              ...(cursor === null ? {} : { cursor }),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/**
 * The current display names of the Beneficiaries the hits are about (each read once, under the same key as the
 * Beneficiary's page, so a decision's invalidation of the Beneficiaries refreshes them too). Missing while loading.
 */
export function useBeneficiaryNames(ids: readonly string[]): ReadonlyMap<string, string> {
  const { environment } = useSession();
  const answers = useQueries({
    queries: ids.map((id) => ({
      queryKey: queryKeys.beneficiaries.detail(environment, id),
      queryFn: () => call(api.GET("/v1/beneficiaries/{id}", { params: { path: { id } } })),
    })),
  });
  const names = new Map<string, string>();
  answers.forEach((answer, index) => {
    const id = ids[index];
    if (id !== undefined && answer.data !== undefined) names.set(id, answer.data.display_name);
  });
  return names;
}
