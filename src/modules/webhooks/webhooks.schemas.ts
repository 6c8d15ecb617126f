// The webhook subscription and the delivery log as the API shows them. The signing secret appears in one
// response only: the POST that creates or rotates it.
import { type Static, Type } from "@sinclair/typebox";
import { EVENT_TYPES } from "../../platform/events/outbox.js";
import { nullable, stringEnum } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";

const EventTypeSchema = stringEnum(EVENT_TYPES, { description: "An event type (see the `webhooks` section)." });

const UrlSchema = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    "HTTPS URL whose host is, or resolves only to, public addresses, and which does not answer with a redirect (a test POST with `X-Service-Endpoint-Check: 1` and no signature is sent to check; any status but 3xx is fine).",
});

const EnabledEventsSchema = Type.Array(EventTypeSchema, {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  description: "Event types to send. Events of other types are neither sent nor kept for later.",
});

export const WebhookSubscriptionSchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    environment: stringEnum(["sandbox", "production"]),
    url: Type.String(),
    enabled_events: Type.Array(Type.String()),
    enabled: Type.Boolean(),
    created_at: Type.String({ format: "date-time" }),
  },
  { $id: "WebhookSubscription" },
);
export type WebhookSubscriptionBody = Static<typeof WebhookSubscriptionSchema>;

export const CreateSubscriptionBodySchema = Type.Object(
  { url: UrlSchema, enabled_events: EnabledEventsSchema },
  { "x-component": "CreateWebhookSubscriptionRequest", additionalProperties: false },
);
export type CreateSubscriptionBody = Static<typeof CreateSubscriptionBodySchema>;

export const UpdateSubscriptionBodySchema = Type.Object(
  {
    url: Type.Optional(UrlSchema),
    enabled_events: Type.Optional(EnabledEventsSchema),
    enabled: Type.Optional(Type.Boolean()),
  },
  { "x-component": "UpdateWebhookSubscriptionRequest", additionalProperties: false, minProperties: 1 },
);
export type UpdateSubscriptionBody = Static<typeof UpdateSubscriptionBodySchema>;

export const CreateSubscriptionResponseSchema = Type.Object(
  {
    subscription: Type.Ref("WebhookSubscription"),
    secret: Type.String({
      pattern: "^whsec_(sandbox|production)_[0-9a-f]{64}$",
      description:
        "The signing secret, `whsec_<environment>_<64 hex>`. Shown only in this response; store it now. The previous secret stopped working.",
    }),
  },
  { "x-component": "WebhookSubscriptionWithSecret" },
);

const DELIVERY_STATUSES = ["pending", "succeeded", "abandoned", "dropped"] as const;

export const WebhookAttemptSchema = Type.Object({
  series: Type.Integer({ description: "1 for the original attempts, 2 for the first redelivery, …" }),
  attempt_number: Type.Integer({ minimum: 1, maximum: 8 }),
  sent_at: Type.String({ format: "date-time", description: "When the request was signed and sent (the envelope's created_at)." }),
  succeeded: Type.Boolean(),
  status_code: nullable(Type.Integer({ description: "The endpoint's HTTP status; null when none arrived." })),
  duration_ms: Type.Integer({ description: "From sending to the status (or the failure)." }),
  error_class: nullable(
    stringEnum(
      ["http_status", "redirect", "timeout", "connection_error", "dns_error", "tls_error", "blocked_address", "invalid_url"],
      {
        description:
          "null on success; `http_status` (a non-2xx, non-3xx status), `redirect` (3xx: never followed), `timeout` (no answer within 10 s), `connection_error`, `dns_error`, `tls_error`, `blocked_address` (the host resolved to a non-public address), `invalid_url`.",
      },
    ),
  ),
});

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String({
      format: "uuid",
      description: "The envelope `id` (the event's id): the same on every attempt and redelivery.",
    }),
    event_type: Type.String(),
    occurred_at: Type.String({ format: "date-time" }),
    sequence: Type.Integer(),
    subscription_id: Type.String({ format: "uuid" }),
    status: stringEnum(DELIVERY_STATUSES, {
      description:
        "`pending` (an attempt is due), `succeeded` (a 2xx arrived), `abandoned` (8 attempts failed; may be redelivered), `dropped` (the endpoint was disabled or deleted, or the type removed, before it succeeded; never resent).",
    }),
    final_reason: nullable(
      Type.String({
        description:
          "Why it stopped without success: `attempts_exhausted`, `subscription_disabled`, `subscription_deleted`, `event_type_removed`.",
      }),
    ),
    series: Type.Integer({ description: "1, plus one per redelivery." }),
    attempt_count: Type.Integer({ description: "Attempts made in the current series (at most 8)." }),
    next_attempt_at: nullable(
      Type.String({ format: "date-time", description: "When the next attempt is due; null unless pending." }),
    ),
    created_at: Type.String({ format: "date-time" }),
    attempts: Type.Array(WebhookAttemptSchema, { description: "Every attempt, oldest first." }),
  },
  { $id: "WebhookDelivery" },
);
export type WebhookDeliveryBody = Static<typeof WebhookDeliverySchema>;

export const DeliveryListQuerySchema = Type.Object(
  {
    ...PageQuerySchema,
    event_type: Type.Optional(EventTypeSchema),
    status: Type.Optional(stringEnum(DELIVERY_STATUSES)),
    since: Type.Optional(Type.String({ format: "date-time", description: "Deliveries created at or after this time." })),
    until: Type.Optional(Type.String({ format: "date-time", description: "Deliveries created before this time." })),
    subject_id: Type.Optional(
      Type.String({
        format: "uuid",
        description: "Only deliveries of events about this object (e.g. a payout id): the deliveries of its events.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type DeliveryListQuery = Static<typeof DeliveryListQuerySchema>;

export const DeliveryListSchema = Type.Object(
  {
    deliveries: Type.Array(Type.Ref("WebhookDelivery")),
    next_cursor: nullable(Type.String()),
  },
  { "x-component": "WebhookDeliveryList" },
);

export const DeliveryParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });
