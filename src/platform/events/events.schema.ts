// The platform's events outbox table.
import { bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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
  },
  (t) => [
    uniqueIndex("events_sequence_key").on(t.sequence),
    index("events_business_env_seq_idx").on(t.businessId, t.environment, t.sequence),
    index("events_subject_idx").on(t.subjectId, t.occurredAt, t.sequence),
  ],
);
