// The payout-limits module's tables: the limits a Business sets per environment and currency (per payout, per day),
// the day's usage of each daily limit (the one serialisation point of a day's approvals: one conditional update
// per approval), and which payout took which day's usage (so a voided payout gives back exactly what it took).
import { sql } from "drizzle-orm";
import { bigint, check, date, index, pgTable, primaryKey, timestamp, uuid, varchar } from "drizzle-orm/pg-core";
import { businesses, environmentEnum } from "../../platform/db/shared.schema.js";

/** One currency's limits; a null limit is no limit. A currency without a row has none. */
export const payoutLimits = pgTable(
  "payout_limits",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    /** The largest amount one payout may have (minor units); null: none. */
    perPayoutMaxMinor: bigint("per_payout_max_minor", { mode: "number" }),
    /** The most the approvals of one day (in the Business's time zone) may total (minor units); null: none. */
    dailyMaxMinor: bigint("daily_max_minor", { mode: "number" }),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedByMembershipId: uuid("updated_by_membership_id"),
    updatedByApiKeyId: uuid("updated_by_api_key_id"),
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.environment, t.currency] }),
    check("payout_limits_per_payout_positive", sql`${t.perPayoutMaxMinor} is null or ${t.perPayoutMaxMinor} > 0`),
    check("payout_limits_daily_positive", sql`${t.dailyMaxMinor} is null or ${t.dailyMaxMinor} > 0`),
  ],
);

/**
 * What the approvals of one day took, per currency. Every approval adds its amount (whether or not a daily limit
 * is set, so a limit set at noon counts the morning); with a limit, the add is one conditional upsert
 * (`used + amount <= limit`), re-checked by PostgreSQL on the committed row after any wait.
 */
export const payoutLimitUsage = pgTable(
  "payout_limit_usage",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    /** The calendar day in the Business's time zone (UTC when it has none) at approval. */
    day: date("day", { mode: "string" }).notNull(),
    usedMinor: bigint("used_minor", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.environment, t.currency, t.day] }),
    check("payout_limit_usage_not_negative", sql`${t.usedMinor} >= 0`),
  ],
);

/** The day's usage one approved payout took: deleted (and subtracted) when the payout is voided, once. */
export const payoutLimitConsumptions = pgTable(
  "payout_limit_consumptions",
  {
    /** The payout (owned by the payouts module: no foreign key across modules). */
    payoutId: uuid("payout_id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    day: date("day", { mode: "string" }).notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("payout_limit_consumptions_day_idx").on(t.businessId, t.environment, t.currency, t.day)],
);
