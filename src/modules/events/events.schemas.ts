// The events API's request and response shapes. Each event is shown in the webhook envelope shape
// (platform/events/envelope.ts), so a consumer of the API and a webhook receiver parse the same thing.
import { type Static, Type } from "@sinclair/typebox";
import { EVENT_API_VERSION, EVENT_TYPES } from "../../platform/events/outbox.js";
import { nullable, stringEnum } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";

/** The longest a request may wait for new events (`wait`), in seconds. */
export const MAX_WAIT_SECONDS = 30;

export const EventSchema = Type.Object(
  {
    id: Type.String({
      format: "uuid",
      description: "The event's id: the webhook envelope `id`, the receivers' deduplication key.",
    }),
    type: stringEnum(EVENT_TYPES, { description: "The event type; `data` has that type's shape (see the `webhooks` section)." }),
    api_version: Type.String({ description: `Version of the \`data\` shape (date-shaped; currently \`${EVENT_API_VERSION}\`).` }),
    occurred_at: Type.String({ format: "date-time", description: "When the change happened." }),
    created_at: Type.String({
      format: "date-time",
      description: "When the event was recorded (in a webhook body: when that attempt was sent).",
    }),
    sequence: Type.Integer({ description: "Tiebreaker for equal occurred_at (a database sequence: orders, never counts)." }),
    data: Type.Object({}, { additionalProperties: true, description: "The type's `data`, exactly as webhooks send it." }),
  },
  { $id: "Event" },
);
export type EventBody = Static<typeof EventSchema>;

export const EventListQuerySchema = Type.Object(
  {
    ...PageQuerySchema,
    type: Type.Optional(stringEnum(EVENT_TYPES, { description: "Only events of this type." })),
    subject_id: Type.Optional(
      Type.String({
        format: "uuid",
        description:
          "Only events about this Payout (payout.*), Beneficiary (beneficiary.*) or inbound bank file (bank_file.*): `data.payout_id`, `data.beneficiary_id` or `data.inbound_file_id`.",
      }),
    ),
    since: Type.Optional(Type.String({ format: "date-time", description: "Events recorded at or after this time." })),
    until: Type.Optional(Type.String({ format: "date-time", description: "Events recorded before this time." })),
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          "Feed mode: events recorded after this position, oldest first. A `next_cursor` of an earlier feed-mode answer, `now` (only events recorded from now on) or `start` (from the first event). Not with `cursor`.",
      }),
    ),
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_WAIT_SECONDS,
        default: 0,
        description: `Feed mode only: when no event is there yet, hold the request up to this many seconds (at most ${MAX_WAIT_SECONDS}) and answer as soon as one commits. 0 answers at once.`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type EventListQuery = Static<typeof EventListQuerySchema>;

export const EventListSchema = Type.Object(
  {
    events: Type.Array(Type.Ref("Event"), {
      description: "Newest first; in feed mode (`after`) oldest first, in the order the feed guarantees.",
    }),
    next_cursor: nullable(
      Type.String({
        description:
          "List mode: pass as `cursor` for the next page; null on the last page. Feed mode: never null; pass as `after` to continue (unchanged when no event came).",
      }),
    ),
    has_more: Type.Boolean({
      description: "More events are there now: ask again at once (in feed mode, without waiting).",
    }),
  },
  { "x-component": "EventList" },
);
export type EventListBody = Static<typeof EventListSchema>;

export const EventParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });
