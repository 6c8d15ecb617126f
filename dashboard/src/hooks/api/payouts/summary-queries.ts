// Payout figures the frame and Home show (the payout lists and pages have their own hooks): the pending
// count of the navigation's badge, Home's failed and returned payouts of the week, the volume chart's answer.
// All under `queryKeys.payouts.all`, so any change to payouts refreshes them too.
import { useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { dayStartInZone } from "../../../lib/time";
import { useTimeZone } from "../../../lib/time-zone";
import { queryKeys } from "../query-keys";

/** Pending payouts, for the badge: one page of up to 200 (200+ beyond). */
export function usePendingCount() {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.payouts.pendingCount(environment),
    queryFn: async () => {
      const page = await call(api.GET("/v1/payouts", { params: { query: { status: "pending_approval", limit: 200 } } }));
      return { count: page.payouts.length, more: page.next_cursor !== null };
    },
    refetchInterval: 30_000,
  });
}

export const VOLUME_DAYS = 30;

/** The last 30 days' volume in the dashboard's time zone (one cache entry, shared by Home's parts). */
export function usePayoutVolume() {
  const { environment } = useSession();
  const { zone, ready } = useTimeZone();
  return useQuery({
    // Asked once the zone is known, not once in the browser's zone and again in the Business's.
    enabled: ready,
    queryKey: queryKeys.payouts.volume(environment, VOLUME_DAYS, zone),
    queryFn: () => call(api.GET("/v1/payouts/volume", { params: { query: { days: VOLUME_DAYS, time_zone: zone } } })),
  });
}

/**
 * Failed and returned payouts updated since the start of `firstDay` in `zone` (up to 50 of each), most
 * recently updated first; asked once both are known.
 */
export function usePayoutProblems(zone: string | undefined, firstDay: string | undefined) {
  const { environment } = useSession();
  return useQuery({
    enabled: zone !== undefined && firstDay !== undefined,
    queryKey: queryKeys.payouts.problems(environment, zone ?? "", firstDay ?? ""),
    queryFn: async () => {
      const start = dayStartInZone(firstDay ?? "", zone ?? "UTC");
      const updatedFrom = start === null ? undefined : new Date(start).toISOString();
      const [failed, returned] = await Promise.all(
        (["failed", "returned"] as const).map((status) =>
          call(
            api.GET("/v1/payouts", {
              params: { query: { status, limit: 50, ...(updatedFrom === undefined ? {} : { updated_from: updatedFrom }) } },
            }),
          ),
        ),
      );
      return [...(failed?.payouts ?? []), ...(returned?.payouts ?? [])].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
    },
  });
}
