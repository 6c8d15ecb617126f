// The collection module's tables: collection links and the tax forms submitted through them.
import { sql } from "drizzle-orm";
import { boolean, check, index, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";
import { beneficiaries, type TaxDocumentSummaryValue } from "../beneficiaries/beneficiaries.schema.js";

export const collectionScopeEnum = pgEnum("collection_scope", ["full_onboarding", "payout_destination", "tax_documents"]);
/**
 * Why a request stopped being live before it expired: submitted, cancelled by the Business, replaced by a newer
 * link, or closed because the Beneficiary was archived (un-archiving does not reopen it).
 */
export const collectionClosedReasonEnum = pgEnum("collection_closed_reason", ["consumed", "cancelled", "superseded", "archived"]);

/**
 * One hosted collection link. Only the SHA-256 of its token is stored; the raw token exists in the create
 * response and (sealed) in the invitation e-mail job. A request is live while `closed_at` is null and
 * `expires_at` is in the future; at most one open (not closed) request per Beneficiary, enforced by a
 * partial unique index, because minting a new link closes the previous one as `superseded`.
 */
export const collectionRequests = pgTable(
  "collection_requests",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    beneficiaryId: uuid("beneficiary_id")
      .notNull()
      .references(() => beneficiaries.id),
    scope: collectionScopeEnum("scope").notNull(),
    /** SHA-256 (hex) of the raw token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Whether an invitation e-mail was enqueued with the link. */
    emailed: boolean("emailed").notNull().default(false),
    closedAt: timestamp("closed_at", { withTimezone: true, mode: "date" }),
    closedReason: collectionClosedReasonEnum("closed_reason"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("collection_requests_token_hash_key").on(t.tokenHash),
    uniqueIndex("collection_requests_one_open_key").on(t.beneficiaryId).where(sql`closed_at is null`),
    index("collection_requests_beneficiary_idx").on(t.beneficiaryId, t.id),
    check("collection_requests_closed_consistent", sql`(${t.closedAt} is null) = (${t.closedReason} is null)`),
  ],
);

export const beneficiaryTaxDocuments = pgTable(
  "beneficiary_tax_documents",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    beneficiaryId: uuid("beneficiary_id")
      .notNull()
      .references(() => beneficiaries.id),
    collectionRequestId: uuid("collection_request_id").references(() => collectionRequests.id),
    form: text("form").notNull(),
    /** AES-256-GCM of the whole form as submitted (JSON): TINs, dates of birth and addresses are never in clear. */
    documentEncrypted: text("document_encrypted").notNull(),
    summary: jsonb("summary").$type<TaxDocumentSummaryValue>().notNull(),
    submittedAt: timestamp("submitted_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("beneficiary_tax_documents_beneficiary_idx").on(t.beneficiaryId, t.submittedAt)],
);

/**
 * How the hosted pages present a Business in one environment: a display name, a brand colour and a logo.
 * The logo is an image the Business uploaded (PNG or JPEG, at most LOGO_MAX_BYTES), kept here as base64 and
 * served by the pages themselves, so a payee's browser never contacts a third party. Only the collection
 * module reads it: the pages are its only use.
 */
export const collectionBrandings = pgTable(
  "collection_brandings",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    displayName: text("display_name"),
    brandColor: text("brand_color"),
    logoMediaType: text("logo_media_type"),
    logoBase64: text("logo_base64"),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    uniqueIndex("collection_brandings_tenant_idx").on(table.businessId, table.environment),
    check("collection_brandings_logo_pair", sql`(${table.logoMediaType} is null) = (${table.logoBase64} is null)`),
  ],
);
