// The funding module's table: one funding account per Business, environment, currency and source of money (a bank
// rail's debtor account, the production simulator, sandbox), with its balances (the fold of its ledger transfers,
// kept on the row, the one serialisation point of its balance) and its settings.
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";

export const FUNDING_ACCOUNT_KINDS = ["bank_rail", "simulator", "sandbox"] as const;
export type FundingAccountKind = (typeof FUNDING_ACCOUNT_KINDS)[number];
export const ENFORCEMENTS = ["track_only", "enforce"] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];

export const DEFAULT_AWAITING_FUNDS_EXPIRY_HOURS = 72;

export const fundingAccounts = pgTable(
  "funding_accounts",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    name: text("name").notNull(),
    kind: text("kind").$type<FundingAccountKind>().notNull(),
    rail: text("rail").$type<"sepa" | "ach">(),
    /** The bank rail's debtor account (`sepa:<IBAN>`, `ach:<routing>:<company id>`); '' for simulator and sandbox. */
    accountKey: text("account_key").notNull(),
    accountIdentifierMasked: text("account_identifier_masked"),
    /** Sum of posted entries (money in minus money out). */
    postedMinor: bigint("posted_minor", { mode: "number" }).notNull().default(0),
    /** Held by pending entries (holds of approved payouts not yet posted or voided). */
    pendingMinor: bigint("pending_minor", { mode: "number" }).notNull().default(0),
    /** Approved payouts waiting for funds (enforce only): their count and amount. */
    awaitingCount: integer("awaiting_count").notNull().default(0),
    awaitingMinor: bigint("awaiting_minor", { mode: "number" }).notNull().default(0),
    enforcement: text("enforcement").$type<Enforcement>().notNull().default("track_only"),
    overdraftLimitMinor: bigint("overdraft_limit_minor", { mode: "number" }).notNull().default(0),
    lowBalanceThresholdMinor: bigint("low_balance_threshold_minor", { mode: "number" }),
    awaitingFundsExpiryHours: integer("awaiting_funds_expiry_hours").notNull().default(DEFAULT_AWAITING_FUNDS_EXPIRY_HOURS),
    /** The time of its last transfer: the next one is never earlier (a balance at a past time stays a fold). */
    lastTransferAt: timestamp("last_transfer_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    uniqueIndex("funding_accounts_source_key").on(t.businessId, t.environment, t.currency, t.kind, t.accountKey),
    index("funding_accounts_tenant_idx").on(t.businessId, t.environment, t.id),
    check("funding_accounts_kind", sql`${t.kind} in ('bank_rail', 'simulator', 'sandbox')`),
    check("funding_accounts_enforcement", sql`${t.enforcement} in ('track_only', 'enforce')`),
    check(
      "funding_accounts_settings",
      sql`${t.overdraftLimitMinor} >= 0 and ${t.awaitingFundsExpiryHours} >= 1 and ${t.pendingMinor} >= 0`,
    ),
    check("funding_accounts_awaiting", sql`${t.awaitingCount} >= 0 and ${t.awaitingMinor} >= 0`),
    // The backstop of enforcement: where enforced, a hold never takes available below the overdraft limit.
    check(
      "funding_accounts_enforced_available",
      sql`${t.enforcement} <> 'enforce' or ${t.postedMinor} - ${t.pendingMinor} >= -${t.overdraftLimitMinor}`,
    ),
  ],
);

export type FundingAccountRow = typeof fundingAccounts.$inferSelect;
