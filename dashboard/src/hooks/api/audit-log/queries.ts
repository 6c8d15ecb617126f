// The audit log of the environment shown, one cursor page at a time; the previous page stays shown while the
// next is read.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, call, type Operations } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { type KeyFilters, queryKeys } from "../query-keys";

/** The API's filters of the list (without the page's size and cursor). */
export type AuditQuery = Omit<NonNullable<Operations["listAuditRecords"]["parameters"]["query"]>, "limit" | "cursor">;

/**
 * `filters` as the person chose them and `zone` they are read in make the cache key; `query` is what they
 * mean to the API (times as instants).
 */
export function useAuditRecords(page: {
  filters: KeyFilters;
  zone: string;
  cursor: string | null;
  query: AuditQuery;
  pageSize: number;
}) {
  const { environment } = useSession();
  const { cursor } = page;
  return useQuery({
    queryKey: queryKeys.auditLog.list(environment, page.filters, page.zone, cursor),
    queryFn: () =>
      call(
        api.GET("/v1/audit-records", {
          params: { query: { limit: page.pageSize, ...(cursor === null ? {} : { cursor }), ...page.query } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
