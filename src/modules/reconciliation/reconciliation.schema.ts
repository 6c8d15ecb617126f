// The reconciliation module's tables (issue 28): bank statements received, their lines (each identified once per
// funding account by the bank's reference or a fingerprint of its facts), and the matches of lines to payouts
// and top-ups (a payout is matched by at most one debit line and one return line; a top-up by one line).
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";

export const LINE_STATUSES = ["matched", "needs_review", "unmatched", "ignored", "pending"] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];
export const BALANCE_CHECK_STATUSES = ["agrees", "mismatch", "not_checked", "resolved"] as const;
export type BalanceCheckStatus = (typeof BALANCE_CHECK_STATUSES)[number];
export const MATCH_RULES = ["end_to_end_id", "batch", "return", "top_up", "amount_date", "manual"] as const;
export type MatchRule = (typeof MATCH_RULES)[number];

/** Who made a match or an act: the system (`auto`), or a person (their key, membership and user). */
export interface ActorRef {
  readonly kind: "auto" | "person";
  readonly api_key_id: string | null;
  readonly membership_id: string | null;
  readonly user_id: string | null;
}

/** A payout offered to a person for a line that matched more than one (or doubtfully). */
export interface CandidateValue {
  readonly payout_id: string;
  readonly amount_minor: number;
  readonly currency: string;
  readonly payee: { readonly beneficiary_id: string; readonly display_name: string | null; readonly destination_last4: string };
  readonly created_at: string;
}

export interface LineReferences {
  readonly end_to_end_ids: string[];
  readonly payment_information_id: string | null;
  readonly instruction_ids: string[];
  readonly ach_trace: string | null;
}

/** One statement as received: kept once per funding account, message id and statement id. */
export const bankStatements = pgTable(
  "bank_statements",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    /** Owned by the funding module: no foreign key across modules. */
    fundingAccountId: uuid("funding_account_id").notNull(),
    format: text("format").notNull(),
    messageVersion: text("message_version").notNull(),
    messageId: text("message_id").notNull(),
    statementId: text("statement_id").notNull(),
    sequenceNumber: integer("sequence_number"),
    periodFrom: date("period_from", { mode: "string" }),
    periodTo: date("period_to", { mode: "string" }),
    openingBookedMinor: bigint("opening_booked_minor", { mode: "number" }),
    closingBookedMinor: bigint("closing_booked_minor", { mode: "number" }),
    closingDate: date("closing_date", { mode: "string" }),
    currency: varchar("currency", { length: 3 }).notNull(),
    /** sha256 of the file the statement came in. */
    contentSha256: text("content_sha256").notNull(),
    source: text("source").$type<"upload" | "inbound_folder">().notNull(),
    /** How many entries the statement carried (booked and pending), new or already known. */
    linesReceived: integer("lines_received").notNull(),
    balanceStatus: text("balance_status").$type<BalanceCheckStatus>().notNull().default("not_checked"),
    ledgerMinor: bigint("ledger_minor", { mode: "number" }),
    bankMinor: bigint("bank_minor", { mode: "number" }),
    differenceMinor: bigint("difference_minor", { mode: "number" }),
    sequenceExpected: integer("sequence_expected"),
    sequenceReceived: integer("sequence_received"),
    resolvedReason: text("resolved_reason"),
    resolvedBy: jsonb("resolved_by").$type<ActorRef>(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "date" }),
    /** The ledger transfer of an accepted opening balance (admin). */
    openingTransferId: uuid("opening_transfer_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("bank_statements_identity_key").on(
      t.businessId,
      t.environment,
      t.fundingAccountId,
      t.format,
      t.messageId,
      t.statementId,
    ),
    index("bank_statements_tenant_idx").on(t.businessId, t.environment, t.id),
    index("bank_statements_account_idx").on(t.fundingAccountId, t.format, t.sequenceNumber),
    check("bank_statements_balance_status", sql`${t.balanceStatus} in ('agrees', 'mismatch', 'not_checked', 'resolved')`),
    check("bank_statements_source", sql`${t.source} in ('upload', 'inbound_folder')`),
  ],
);

/** One entry of a statement, recorded once per funding account (`line_key`: the bank's reference or a fingerprint). */
export const statementLines = pgTable(
  "statement_lines",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    fundingAccountId: uuid("funding_account_id").notNull(),
    /** The statement that first brought it. */
    statementId: uuid("statement_id")
      .notNull()
      .references(() => bankStatements.id),
    /** `ref:<bank reference>` or `fp:<fingerprint>:<n>` (n: its rank among equal facts in one statement). */
    lineKey: text("line_key").notNull(),
    status: text("status").$type<LineStatus>().notNull(),
    entryStatus: text("entry_status").$type<"booked" | "pending">().notNull(),
    bookingDate: date("booking_date", { mode: "string" }),
    valueDate: date("value_date", { mode: "string" }),
    direction: text("direction").$type<"debit" | "credit">().notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    reversal: boolean("reversal").notNull().default(false),
    bankReference: text("bank_reference"),
    bankTransactionCode: text("bank_transaction_code"),
    references: jsonb("references").$type<LineReferences>().notNull(),
    batchCount: integer("batch_count"),
    batchTotalMinor: bigint("batch_total_minor", { mode: "number" }),
    remittance: text("remittance"),
    /** The entry's transaction details as read (return information included). */
    details: jsonb("details").$type<unknown[]>().notNull(),
    matchRule: text("match_rule").$type<MatchRule>(),
    matchTopUpId: uuid("match_top_up_id"),
    matchDifferenceMinor: bigint("match_difference_minor", { mode: "number" }),
    matchedBy: jsonb("matched_by").$type<ActorRef>(),
    matchedAt: timestamp("matched_at", { withTimezone: true, mode: "date" }),
    candidates: jsonb("candidates").$type<CandidateValue[]>().notNull().default([]),
    /** Why it is in review or unmatched, in words. */
    reviewReason: text("review_reason"),
    ignoredReason: text("ignored_reason"),
    /** The ledger transfer an unmatched line made (a credit, or a debit to suspense). */
    transferId: uuid("transfer_id"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    // Once per funding account (an account is one tenant's): led by the account, so the intake's look-up of the keys
    // it is about to store has this index to itself, whatever the statistics say of the tenant's other indexes.
    uniqueIndex("statement_lines_account_key").on(t.fundingAccountId, t.lineKey),
    index("statement_lines_tenant_status_idx").on(t.businessId, t.environment, t.status, t.id),
    index("statement_lines_statement_idx").on(t.statementId, t.id),
    check("statement_lines_status", sql`${t.status} in ('matched', 'needs_review', 'unmatched', 'ignored', 'pending')`),
    check("statement_lines_amount", sql`${t.amountMinor} >= 0`),
    check("statement_lines_direction", sql`${t.direction} in ('debit', 'credit')`),
  ],
);

/**
 * One payout (or top-up) a line was matched to. The unique indexes are the backstop against a payout booked twice:
 * at most one debit line and one return line per payout, one line per top-up, whatever races.
 */
export const statementMatches = pgTable(
  "statement_matches",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => statementLines.id),
    kind: text("kind").$type<"debit" | "return" | "top_up">().notNull(),
    rule: text("rule").$type<MatchRule>().notNull(),
    payoutId: uuid("payout_id"),
    topUpId: uuid("top_up_id"),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("statement_matches_payout_key").on(t.payoutId, t.kind).where(sql`payout_id is not null`),
    uniqueIndex("statement_matches_top_up_key").on(t.topUpId).where(sql`top_up_id is not null`),
    index("statement_matches_line_idx").on(t.lineId),
    check("statement_matches_kind", sql`${t.kind} in ('debit', 'return', 'top_up')`),
    check("statement_matches_target", sql`(${t.payoutId} is null) <> (${t.topUpId} is null)`),
  ],
);
