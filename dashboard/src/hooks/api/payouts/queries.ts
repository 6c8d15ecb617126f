// Reading payouts: the list (filters, cursor pages), one payout with its Decisions and replacements, and its
// recorded events and webhook deliveries. Every key is under `queryKeys.payouts.all`, so any write to payouts
// refreshes them.
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import type { PayoutListFilters } from "./types";

const PAGE = 25;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One page of the Payouts list; the previous page stays shown while the next one loads. Without filters and
 * cursor this is `GET /v1/payouts?limit=25`, the request a first visit starts early (pages.ts): keep it so.
 */
export function usePayouts(filters: PayoutListFilters, cursor: string | null) {
  const { environment } = useSession();
  const { status, beneficiaryId, uploadId, externalRef, payee = "", more } = filters;
  return useQuery({
    queryKey: queryKeys.payouts.list(environment, filters, cursor),
    queryFn: () =>
      call(
        api.GET("/v1/payouts", {
          params: {
            query: {
              limit: PAGE,
              ...(status === null ? {} : { status }),
              ...(UUID.test(beneficiaryId) ? { beneficiary_id: beneficiaryId } : {}),
              ...(uploadId === "" ? {} : { upload_id: uploadId }),
              ...(externalRef === "" ? {} : { external_ref: externalRef }),
              ...(payee.trim() === "" ? {} : { payee: payee.trim() }),
              ...more,
              ...(cursor === null ? {} : { cursor }),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/**
 * One payout (none asked while `payoutId` is null). `pollWhileApproved`: read again every 2 s while it is
 * `approved`, so the payout's page shows the rail taking it without a reload.
 */
export function usePayout(payoutId: string | null, { pollWhileApproved = false }: { pollWhileApproved?: boolean } = {}) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.payouts.detail(environment, payoutId ?? ""),
    queryFn: () => call(api.GET("/v1/payouts/{payoutId}", { params: { path: { payoutId: payoutId ?? "" } } })),
    enabled: payoutId !== null,
    refetchInterval: (query) => (pollWhileApproved && query.state.data?.status === "approved" ? 2_000 : false),
  });
}

export function usePayoutDecisions(payoutId: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.payouts.decisions(environment, payoutId),
    queryFn: () => call(api.GET("/v1/payouts/{payoutId}/decisions", { params: { path: { payoutId } } })),
  });
}

/**
 * The payouts that replace a failed one, newest first. The payout resource has no "replaced by" field: they
 * are what the list returns for `replaces_payout_id`. Only one can be live at a time and a new one is allowed
 * only once the previous one ended, so the live replacement is always the newest and on this first page.
 */
export function usePayoutReplacements(payoutId: string, { enabled }: { enabled: boolean }) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.payouts.replacements(environment, payoutId),
    queryFn: () => call(api.GET("/v1/payouts", { params: { query: { replaces_payout_id: payoutId, limit: 200 } } })),
    enabled,
  });
}

/** A payout's recorded events (what webhooks send), newest first, 50 at a time. */
export function usePayoutEvents(payoutId: string) {
  const { environment } = useSession();
  return useInfiniteQuery({
    queryKey: queryKeys.payouts.events(environment, payoutId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      call(
        api.GET("/v1/events", {
          params: { query: { subject_id: payoutId, limit: 50, ...(pageParam === null ? {} : { cursor: pageParam }) } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** The webhook deliveries of a payout's events, each with its attempts. */
export function usePayoutDeliveries(payoutId: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.payouts.deliveries(environment, payoutId),
    queryFn: () => call(api.GET("/v1/webhook-deliveries", { params: { query: { subject_id: payoutId, limit: 50 } } })),
  });
}

/**
 * The payouts matching the list's filters as a CSV file (GET /v1/payouts/export, streamed by the service and
 * received here as a Blob): the same query as the list, without its page.
 */
export function usePayoutExport() {
  return useMutation({
    mutationFn: async (filters: PayoutListFilters): Promise<Blob> => {
      const { status, beneficiaryId, uploadId, externalRef, more } = filters;
      const query = {
        ...(status === null ? {} : { status }),
        ...(UUID.test(beneficiaryId) ? { beneficiary_id: beneficiaryId } : {}),
        ...(uploadId === "" ? {} : { upload_id: uploadId }),
        ...(externalRef === "" ? {} : { external_ref: externalRef }),
        ...more,
      };
      return (await call(api.GET("/v1/payouts/export", { params: { query }, parseAs: "blob" }))) as unknown as Blob;
    },
  });
}
