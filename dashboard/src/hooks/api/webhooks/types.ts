import type { Schemas } from "../../../api/client";
import type { DeliveryStatus, EventType } from "../../../lib/webhooks";

export type WebhookSubscription = Schemas["WebhookSubscription"];
export type WebhookSubscriptionChanges = Schemas["UpdateWebhookSubscriptionRequest"];
export interface DeliveryFilters {
  readonly status: DeliveryStatus | undefined;
  readonly eventType: EventType | undefined;
}
