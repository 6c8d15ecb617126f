// The ledger module's tables: accounts, immutable transfers and their entries (double entry, integer minor units).
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, date, index, pgTable, text, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";

export const LEDGER_ACCOUNT_KINDS = ["funding", "payees_in_transit", "fees", "suspense", "outside_world"] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];

export const TRANSFER_STEPS = ["hold", "post", "void", "reverse", "credit", "fee"] as const;
export type TransferStep = (typeof TRANSFER_STEPS)[number];

export const TRANSFER_CAUSE_TYPES = ["payout", "top_up", "sandbox_credit", "statement_line"] as const;
export type TransferCauseType = (typeof TRANSFER_CAUSE_TYPES)[number];

/**
 * One ledger account: the ledger side of a funding account (kind `funding`, `funding_account_id` set), or one of
 * the internal accounts, one per Business, environment and currency.
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    kind: text("kind").$type<LedgerAccountKind>().notNull(),
    /** The funding account this ledger account is (kind `funding` only; no foreign key: funding owns that table). */
    fundingAccountId: uuid("funding_account_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ledger_accounts_funding_key").on(t.fundingAccountId).where(sql`funding_account_id is not null`),
    uniqueIndex("ledger_accounts_internal_key")
      .on(t.businessId, t.environment, t.currency, t.kind)
      .where(sql`funding_account_id is null`),
    check(
      "ledger_accounts_kind",
      sql`${t.kind} in ('funding', 'payees_in_transit', 'fees', 'suspense', 'outside_world') and ((${t.kind} = 'funding') = (${t.fundingAccountId} is not null))`,
    ),
  ],
);

/**
 * One immutable transfer: what caused it (cause type, id and step), its idempotency key (unique per Business and
 * environment), and the funding account's balances just after it (so a balance at a past time is one indexed row).
 */
export const ledgerTransfers = pgTable(
  "ledger_transfers",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    /** Orders the transfers of one funding account (written while its row is locked; never used to count). */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    fundingAccountId: uuid("funding_account_id").notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    step: text("step").$type<TransferStep>().notNull(),
    causeType: text("cause_type").$type<TransferCauseType>().notNull(),
    causeId: text("cause_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    postedAfterMinor: bigint("posted_after_minor", { mode: "number" }).notNull(),
    pendingAfterMinor: bigint("pending_after_minor", { mode: "number" }).notNull(),
    /**
     * The day the bank booked the money, when the posting knows it (a statement line's booking date: unknown money,
     * a fee, a return): the balance on a bank's day counts the transfer by it, not by when it was recorded.
     */
    bookedOn: date("booked_on", { mode: "string" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ledger_transfers_idempotency_key").on(t.businessId, t.environment, t.idempotencyKey),
    index("ledger_transfers_account_time_idx").on(t.fundingAccountId, t.createdAt, t.seq),
    index("ledger_transfers_cause_idx").on(t.causeType, t.causeId),
    check("ledger_transfers_step", sql`${t.step} in ('hold', 'post', 'void', 'reverse', 'credit', 'fee')`),
    check("ledger_transfers_cause", sql`${t.causeType} in ('payout', 'top_up', 'sandbox_credit', 'statement_line')`),
  ],
);

/** One leg of a transfer: signed minor units on one ledger account, pending (a hold) or posted. */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: uuid("id").primaryKey(),
    transferId: uuid("transfer_id")
      .notNull()
      .references(() => ledgerTransfers.id),
    ledgerAccountId: uuid("ledger_account_id")
      .notNull()
      .references(() => ledgerAccounts.id),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    pending: boolean("pending").notNull(),
  },
  (t) => [index("ledger_entries_transfer_idx").on(t.transferId), index("ledger_entries_account_idx").on(t.ledgerAccountId)],
);
