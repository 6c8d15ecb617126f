// The environment's webhook endpoint and its delivery log (a filtered, cursor-paged list, and Home's
// "failing" summary).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ApiError, api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { isFailing } from "../../../lib/webhooks";
import { queryKeys } from "../query-keys";
import type { DeliveryFilters, WebhookSubscription } from "./types";

/** The endpoint, or null when the environment has none (the API answers 404). */
export function useWebhookEndpoint() {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.webhooks.subscription(environment),
    queryFn: async (): Promise<WebhookSubscription | null> => {
      try {
        return await call(api.GET("/v1/webhook-subscriptions"));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** One page of the delivery log; the previous page stays shown while the next is read. */
export function useWebhookDeliveries(filters: DeliveryFilters, cursor: string | null, pageSize: number) {
  const { environment } = useSession();
  const { status, eventType } = filters;
  return useQuery({
    queryKey: queryKeys.webhooks.deliveries.list(environment, { status: status ?? "", eventType: eventType ?? "" }, cursor ?? ""),
    queryFn: () =>
      call(
        api.GET("/v1/webhook-deliveries", {
          params: {
            query: {
              limit: pageSize,
              ...(status === undefined ? {} : { status }),
              ...(eventType === undefined ? {} : { event_type: eventType }),
              ...(cursor === null ? {} : { cursor }),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/**
 * Deliveries that are failing (abandoned, or retrying after a failure), newest first, from the first page
 * of each status; `more` when either has more pages.
 */
export function useFailingDeliveries(pageSize: number) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.webhooks.deliveries.failing(environment),
    queryFn: async () => {
      const [abandoned, pending] = await Promise.all(
        (["abandoned", "pending"] as const).map((status) =>
          call(api.GET("/v1/webhook-deliveries", { params: { query: { status, limit: pageSize } } })),
        ),
      );
      const deliveries = [...(abandoned?.deliveries ?? []), ...(pending?.deliveries ?? [])]
        .filter(isFailing)
        .sort((a, b) => b.created_at.localeCompare(a.created_at));
      const more = abandoned?.next_cursor != null || pending?.next_cursor != null;
      return { deliveries, more, abandoned: abandoned?.deliveries.length ?? 0 };
    },
    refetchInterval: 60_000,
  });
}
