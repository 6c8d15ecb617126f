// The platform's events outbox table.
import { sql } from "drizzle-orm";
import { bigint, bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../db/shared.schema.js";

/**
 * The events outbox: written in the same transaction as the change that causes it, so an event exists
 * exactly when its change committed. Holds everything the webhook envelope needs.
 */
export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    type: text("type").notNull(),
    apiVersion: text("api_version").notNull(),
    /** `data.payout_id` for payout.*, `data.beneficiary_id` for beneficiary.*: the ordering subject. */
    subjectId: uuid("subject_id").notNull(),
    data: jsonb("data").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Tiebreaker for equal occurred_at: a database sequence, so it orders across processes. Never a count. */
    sequence: bigserial("sequence", { mode: "number" }).notNull(),
    createdAt: createdAt(),
    /**
     * The id of the transaction that wrote the event (`pg_current_xact_id()`, top level, 64-bit so it never
     * wraps). With `sequence` it orders the event feed (`GET /v1/events?after=`): a reader only returns
     * events whose transaction id is below its snapshot's xmin, the oldest transaction still running, so no
     * event can commit later with a smaller (tx_id, sequence) than one already returned. See
     * docs/decisions.md, "Events API".
     */
    txId: bigint("tx_id", { mode: "number" }).notNull().default(sql`(pg_current_xact_id())::text::bigint`),
  },
  (t) => [
    uniqueIndex("events_sequence_key").on(t.sequence),
    index("events_business_env_seq_idx").on(t.businessId, t.environment, t.sequence),
    index("events_subject_idx").on(t.subjectId, t.occurredAt, t.sequence),
    // GET /v1/events: newest first by id, and the forward feed in (tx_id, sequence) order, per environment.
    index("events_business_env_id_idx").on(t.businessId, t.environment, t.id),
    index("events_business_env_feed_idx").on(t.businessId, t.environment, t.txId, t.sequence),
  ],
);
