// The webhooks module's tables: subscriptions, deliveries and their attempts.
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";

/**
 * The webhook endpoint of one Business in one environment (one per environment, by the unique index).
 * The signing secret is encrypted with the field cipher; it is shown once, by the POST that sets it.
 */
export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    url: text("url").notNull(),
    enabledEvents: text("enabled_events").array().notNull(),
    enabled: boolean("enabled").notNull(),
    secretEncrypted: text("secret_encrypted").notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [uniqueIndex("webhook_subscriptions_tenant_key").on(t.businessId, t.environment)],
);

export const webhookDeliveryStatusEnum = pgEnum("webhook_delivery_status", ["pending", "succeeded", "abandoned", "dropped"]);

/**
 * One delivery per event that an enabled subscription listed when the event was recorded. Its id is the
 * event id, which is also the envelope `id` (the receivers' deduplication key), so a redelivery keeps it.
 * `series` counts redeliveries (1 for the original series); `attempts_in_series` the attempts made in it.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    /** The event's id (no foreign key, so the outbox can be pruned or truncated on its own schedule). */
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    /** The subscription it was created for; no foreign key: deleting the subscription keeps the log. */
    subscriptionId: uuid("subscription_id").notNull(),
    eventType: text("event_type").notNull(),
    status: webhookDeliveryStatusEnum("status").notNull(),
    series: integer("series").notNull().default(1),
    attemptsInSeries: integer("attempts_in_series").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "date" }),
    /** Why a delivery stopped without success: `abandoned_after_8_attempts`, `subscription_disabled`, … */
    finalReason: text("final_reason"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("webhook_deliveries_tenant_idx").on(t.businessId, t.environment, t.id),
    index("webhook_deliveries_pending_idx").on(t.businessId, t.environment).where(sql`status = 'pending'`),
  ],
);

/** Every attempt made (the delivery log): when, how it ended, how long it took. Never the body or the secret. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuid("id").primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    series: integer("series").notNull(),
    attemptNumber: integer("attempt_number").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    succeeded: boolean("succeeded").notNull(),
    statusCode: integer("status_code"),
    /** null on success; else `http_status`, `timeout`, `connection_error`, `tls_error`, `redirect`, `blocked_address`, … */
    errorClass: text("error_class"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("webhook_attempts_delivery_key").on(t.deliveryId, t.series, t.attemptNumber)],
);
