// Tables of the bank-rails module (SEPA credit transfers and US ACH by bank file). Only bank-rails.repo.ts
// reads and writes them.
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";

/**
 * One bank rail a Business configured (production only): `sepa` or `ach`. `settings` holds everything that
 * is not secret (originator, cut-offs, delivery address, file format); the SFTP password or private key is
 * in `secrets_encrypted` (AES-256-GCM JSON) and never leaves the service.
 */
export const bankRailConfigs = pgTable(
  "bank_rail_configs",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    rail: text("rail").notNull(),
    settings: jsonb("settings").notNull(),
    /**
     * The debtor account its files debit (`sepa:<IBAN>`, `ach:<ODFI routing>:<company id>`): one Business per
     * environment may hold it. Null only on a row saved before the rule that shared its account with an older
     * one (the migration kept the oldest); its next save must claim it.
     */
    debtorAccountKey: text("debtor_account_key"),
    secretsEncrypted: text("secrets_encrypted"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    uniqueIndex("bank_rail_configs_tenant_rail_key").on(t.businessId, t.environment, t.rail),
    uniqueIndex("bank_rail_configs_debtor_account_key").on(t.environment, t.debtorAccountKey),
    check("bank_rail_configs_rail", sql`${t.rail} in ('sepa', 'ach')`),
  ],
);

/**
 * A bank file built at a cut-off: its exact bytes, its totals, and what happened to it. The file name is
 * deterministic (from the Business, rail and cut-off), so after a crash the upload looks for it on the server.
 */
export const bankFiles = pgTable(
  "bank_files",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    rail: text("rail").notNull(),
    /** The cut-off this file belongs to; one file per rail and cut-off. */
    cutoffAt: timestamp("cutoff_at", { withTimezone: true, mode: "date" }).notNull(),
    fileName: text("file_name").notNull(),
    /** pain.001 MsgId, or the NACHA file id (creation date + modifier). */
    messageId: text("message_id").notNull(),
    format: text("format").notNull(),
    /** The exact bytes sent, encrypted (AES-256-GCM, FieldCipher): they carry account numbers and IBANs. */
    contentEncrypted: text("content_encrypted").notNull(),
    contentSha256: text("content_sha256").notNull(),
    entryCount: integer("entry_count").notNull(),
    controlSumMinor: bigint("control_sum_minor", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    /** built, uploaded, accepted, partially_accepted, rejected */
    status: text("status").notNull(),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true, mode: "date" }),
    acknowledgedAt: timestamp("acknowledged_at", { withTimezone: true, mode: "date" }),
    uploadAttempts: integer("upload_attempts").notNull().default(0),
    lastUploadError: text("last_upload_error"),
    /** What needs a person's attention: no status report in time, rejected, unmatched entries. */
    alerts: jsonb("alerts").notNull().default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    uniqueIndex("bank_files_tenant_rail_cutoff_key").on(t.businessId, t.environment, t.rail, t.cutoffAt),
    uniqueIndex("bank_files_file_name_key").on(t.fileName),
    index("bank_files_tenant_idx").on(t.businessId, t.environment, t.createdAt, t.id),
  ],
);

/**
 * A payout bound for a bank rail. The primary key is the payout: a payout enters at most one file, ever.
 * `file_id` is null while it waits for its cut-off.
 */
export const bankFileItems = pgTable(
  "bank_file_items",
  {
    payoutId: uuid("payout_id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    rail: text("rail").notNull(),
    fileId: uuid("file_id").references(() => bankFiles.id),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    /** The payout's destination (an ACH notification of change is recorded on it). */
    destinationId: uuid("destination_id"),
    /** ACH trace number, or the SEPA EndToEndId. */
    reference: text("reference"),
    /** Last status the bank reported for this payout (ACCP, RJCT, BOOK, R03, C01…). */
    bankStatus: text("bank_status"),
    queuedAt: timestamp("queued_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("bank_file_items_waiting_idx").on(t.businessId, t.environment, t.rail, t.queuedAt).where(sql`file_id is null`),
    index("bank_file_items_file_idx").on(t.fileId),
    index("bank_file_items_reference_idx").on(t.businessId, t.environment, t.rail, t.reference),
  ],
);

/** An inbound file read from the bank's directory: applied once, by name and content hash. */
export const bankInboundFiles = pgTable(
  "bank_inbound_files",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    rail: text("rail").notNull(),
    fileName: text("file_name").notNull(),
    contentSha256: text("content_sha256").notNull(),
    /** pain.002, camt.054, nacha_returns, unknown */
    kind: text("kind").notNull(),
    /** applied, refused */
    status: text("status").notNull(),
    refusalReason: text("refusal_reason"),
    /** The file as received, encrypted like outbound files (returns carry account numbers). */
    contentEncrypted: text("content_encrypted").notNull(),
    unmatched: jsonb("unmatched").notNull().default(sql`'[]'::jsonb`),
    receivedAt: createdAt(),
  },
  (t) => [uniqueIndex("bank_inbound_files_once_key").on(t.businessId, t.environment, t.rail, t.fileName, t.contentSha256)],
);
