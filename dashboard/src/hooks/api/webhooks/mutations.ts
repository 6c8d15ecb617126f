// Changing the webhook endpoint (admins, step-up) and redelivering an abandoned delivery. Each reads again
// what it changed.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import type { EventType } from "../../../lib/webhooks";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type { WebhookSubscriptionChanges } from "./types";

/** POST creates the endpoint or, when one exists, rotates its secret (and sets url and events as sent). */
export function useCreateOrRotateWebhookEndpoint() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: ({ url, events }: { url: string; events: EventType[] }) =>
      call(api.POST("/v1/webhook-subscriptions", { body: { url, enabled_events: events } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.subscription(environment) }),
  });
}

export function useUpdateWebhookEndpoint() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (body: WebhookSubscriptionChanges) => call(api.PATCH("/v1/webhook-subscriptions", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.subscription(environment) }),
  });
}

export function useRedeliver() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (id: string) => call(api.POST("/v1/webhook-deliveries/{id}/redeliver", { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.deliveries.all(environment) }),
  });
}
