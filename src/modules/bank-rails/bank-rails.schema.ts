// Tables of the bank-rails module (SEPA credit transfers and US ACH by bank file). Only bank-rails.repo.ts
// reads and writes them.
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
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
    /**
     * built, uploaded, accepted, partially_accepted, rejected; `refused` when the cut-off could not write the
     * file (no File ID Modifier left for its creation date): no content, its payouts wait for the next cut-off.
     */
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
    // What the entry carried when it was written (null for entries written before these were kept): an answer
    // from the bank moves the payout only when every fact it carries agrees with these (docs/decisions.md,
    // "Identity of what we send").
    /** Keyed hash (FieldCipher.fingerprint) of the account number or IBAN as written in the file. */
    accountFingerprint: text("account_fingerprint"),
    /** Its last four characters, to say which account an answer named without showing the number. */
    accountLast4: text("account_last4"),
    /** The receiving bank: ACH RDFI routing number (nine digits), or the creditor BIC when one was sent. */
    bankCode: text("bank_code"),
    /** ACH transaction code of the entry (22 checking credit, 32 savings credit); null for SEPA. */
    transactionCode: text("transaction_code"),
    /**
     * SEPA: the PmtInfId of the payment block the transfer went in (a status report or a batch booking names
     * it); null for ACH and for entries written before it was kept (read from the file then, when it is plain).
     */
    paymentInfoId: text("payment_info_id"),
    /** Last status the bank reported for this payout (ACCP, RJCT, BOOK, R03, C01…). */
    bankStatus: text("bank_status"),
    queuedAt: timestamp("queued_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("bank_file_items_waiting_idx").on(t.businessId, t.environment, t.rail, t.queuedAt).where(sql`file_id is null`),
    index("bank_file_items_file_idx").on(t.fileId),
    index("bank_file_items_reference_idx").on(t.businessId, t.environment, t.rail, t.reference),
    // Reconciliation (issue 28): a statement line booking a whole payment block names its PmtInfId.
    index("bank_file_items_payment_info_idx")
      .on(t.businessId, t.environment, t.paymentInfoId)
      .where(sql`payment_info_id is not null`),
  ],
);

/**
 * An inbound file of the bank's directory: applied once, by name and content hash. The size and modification
 * time the listing showed are kept so that a file already taken is skipped by its listing, before any download
 * (null on rows from before they were kept: the next poll downloads such a file once more, finds its hash and
 * records them). A file over the size limit (BANK_RAIL_INBOUND_MAX_FILE_BYTES) is refused unread: no hash, no
 * content, the limit it was refused under; it is listed again only if it changes or the limit is raised.
 */
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
    /** SHA-256 of the content; null for a file refused unread (over the size limit). */
    contentSha256: text("content_sha256"),
    /** pain.002, camt.054, nacha_returns, unknown */
    kind: text("kind").notNull(),
    /**
     * applied, refused, duplicate (the same content as an earlier file under another name: nothing applied).
     * The API derives `partially_applied` from `applied` with items in `unmatched`.
     */
    status: text("status").notNull(),
    /** Why it was refused, or which file it duplicates, in words. */
    refusalReason: text("refusal_reason"),
    /** For a duplicate: the earlier file with the same content. */
    duplicateOfId: uuid("duplicate_of_id"),
    /**
     * What the file moved: one `{ payout_id, outcome, bank_status }` per payout it named and matched, in file
     * order (`outcome`: acknowledged, failed, disbursed, returned, notification_of_change, or none when the
     * bank's status moves nothing), written in the transaction that applied it.
     */
    moved: jsonb("moved").notNull().default(sql`'[]'::jsonb`),
    /** The file as received, encrypted like outbound files (returns carry account numbers); null when unread. */
    contentEncrypted: text("content_encrypted"),
    unmatched: jsonb("unmatched").notNull().default(sql`'[]'::jsonb`),
    /** The size the directory listing showed, in bytes. */
    sizeBytes: bigint("size_bytes", { mode: "number" }),
    /** The modification time the directory listing showed. */
    modifiedAt: timestamp("modified_at", { withTimezone: true, mode: "date" }),
    /** For a file refused unread: the size limit in force then (a higher limit later reads it). */
    sizeLimitBytes: bigint("size_limit_bytes", { mode: "number" }),
    receivedAt: createdAt(),
  },
  (t) => [
    // Also serves the poll's look-up of the names it listed (its leading columns).
    uniqueIndex("bank_inbound_files_once_key").on(t.businessId, t.environment, t.rail, t.fileName, t.contentSha256),
    // A file refused unread has no hash: it is recorded once per listing (name, size, modification time).
    uniqueIndex("bank_inbound_files_unread_once_key")
      .on(t.businessId, t.environment, t.rail, t.fileName, t.sizeBytes, t.modifiedAt)
      .where(sql`content_sha256 is null`),
    // Read (hash and content kept) or refused unread for its size (the limit kept), never a mix.
    check(
      "bank_inbound_files_read_or_unread",
      sql`(${t.contentSha256} is null) = (${t.contentEncrypted} is null) and (${t.contentSha256} is null) = (${t.sizeLimitBytes} is not null)`,
    ),
  ],
);

/**
 * Counters that give what we send its identity, advanced with one conditional `INSERT … ON CONFLICT DO UPDATE
 * … RETURNING` in the transaction that records the file (so a rolled-back file gives its numbers back and two
 * cut-offs never get the same ones):
 *   `ach_trace:<ODFI identification>`   the last trace sequence used by the originator at that ODFI, never
 *                                      reset (trace numbers carry it modulo 9,999,999)
 *   `ach_file_id:<YYYY-MM-DD>`          how many NACHA files carry that creation date (at most 36: A-Z, 0-9)
 */
export const bankRailCounters = pgTable(
  "bank_rail_counters",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    name: text("name").notNull(),
    value: bigint("value", { mode: "number" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.environment, t.name] }),
    check("bank_rail_counters_value", sql`${t.value} >= 0`),
  ],
);
