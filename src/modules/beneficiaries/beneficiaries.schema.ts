// The beneficiaries module's tables: Beneficiaries and the history of their declared destination.
import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  jsonb,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";

export const beneficiaryTypeEnum = pgEnum("beneficiary_type", ["person", "business"]);
export const complianceStatusEnum = pgEnum("compliance_status", ["pending", "compliant", "suspended"]);
export const collectionStatusEnum = pgEnum("collection_status", ["not_invited", "invited", "details_submitted"]);
/** Sanctions screening (the screening module decides it; docs/decisions.md "Sanctions screening"). */
export const SCREENING_STATUSES = ["not_screened", "clear", "potential_match", "cleared", "confirmed_match"] as const;
export type ScreeningStatus = (typeof SCREENING_STATUSES)[number];
export const screeningStatusEnum = pgEnum("screening_status", SCREENING_STATUSES);

/** The hit a Beneficiary's screening status is about (the highest-scoring live one), as the API shows it. */
export interface ScreeningMatchValue {
  hit_id: string;
  list_id: string;
  entry_ref: string;
  entry_name: string;
  matched_name: string;
  score: number;
  status: "open" | "cleared" | "confirmed";
}

export const enrollmentStatusEnum = pgEnum("enrollment_status", ["pending", "verified", "rejected", "suspended", "closed"]);

/** Who changed a Beneficiary's declared destination: the Business through its API key, or a collection link's submission. */
export const declaredDestinationActorEnum = pgEnum("declared_destination_actor", ["business", "beneficiary_link"]);
/** What changed it: the declared-destination route, the deletion of the declared destination, a link submission. */
export const declaredDestinationReasonEnum = pgEnum("declared_destination_reason", [
  "declared",
  "destination_deleted",
  "link_submitted",
]);

/** The latest change of a Beneficiary's declared destination, as the API shows it (`declared_destination_change`). */
export interface DeclaredDestinationChangeValue {
  changed_at: string;
  changed_by: "business" | "beneficiary_link";
  reason: "declared" | "destination_deleted" | "link_submitted";
  previous_destination_id: string | null;
  destination_id: string | null;
  api_key_id: string | null;
  membership_id: string | null;
  user_id: string | null;
  collection_request_id: string | null;
}

export interface PostalAddressValue {
  line1: string;
  line2?: string;
  city: string;
  state?: string;
  postal_code?: string;
  country: string;
}

/** Masked summary of the latest tax form a Beneficiary submitted (what the API shows); the full form is encrypted beside it. */
export interface TaxDocumentSummaryValue {
  form: "W-9" | "W-8BEN" | "W-8BEN-E";
  name: string;
  tin_type: "ssn" | "ein" | "itin" | "foreign_tin" | "none";
  tin_last4: string | null;
  country: string;
  treaty_country: string | null;
  signed_by: string;
  signed_on: string;
  submitted_at: string;
}

/** A payee of one Business in one environment. `status` and `identity_complete` are derived, never stored. */
export const beneficiaries = pgTable(
  "beneficiaries",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    beneficiaryType: beneficiaryTypeEnum("beneficiary_type").notNull(),
    name: text("name").notNull(),
    nickname: text("nickname"),
    /** As given; `email_normalized` (lower case) is what lookups and import de-duplication use. */
    email: text("email").notNull(),
    emailNormalized: text("email_normalized").notNull(),
    phone: text("phone"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    countryOfResidence: varchar("country_of_residence", { length: 2 }),
    dateOfBirth: text("date_of_birth"),
    businessName: text("business_name"),
    countryOfIncorporation: varchar("country_of_incorporation", { length: 2 }),
    registrationNumber: text("registration_number"),
    /** Encrypted at rest (AES-256-GCM); only the masked tail (platform/masking.ts) is ever shown. */
    taxIdEncrypted: text("tax_id_encrypted"),
    taxIdLast4: varchar("tax_id_last4", { length: 4 }),
    postalAddress: jsonb("postal_address").$type<PostalAddressValue>(),
    complianceStatus: complianceStatusEnum("compliance_status").notNull().default("pending"),
    acknowledgedAt: timestamp("acknowledged_at", { withTimezone: true, mode: "date" }),
    reacknowledgmentRequired: boolean("reacknowledgment_required").notNull().default(false),
    collectionStatus: collectionStatusEnum("collection_status").notNull().default("not_invited"),
    detailsSubmittedAt: timestamp("details_submitted_at", { withTimezone: true, mode: "date" }),
    declaredDestinationId: uuid("declared_destination_id"),
    /** Who made the latest change of declared_destination_id, how and when (the full history is in beneficiary_declared_destination_changes). */
    declaredDestinationChange: jsonb("declared_destination_change").$type<DeclaredDestinationChangeValue>(),
    enrollmentStatus: enrollmentStatusEnum("enrollment_status"),
    enrollmentFailureDetail: text("enrollment_failure_detail"),
    enrollmentFailureBankAccountId: uuid("enrollment_failure_bank_account_id"),
    // The enrollment attempt in flight. Its result is written only while this id is still the
    // current attempt, so a newer attempt supersedes an older one that answers late.
    enrollmentAttemptId: uuid("enrollment_attempt_id"),
    enrollmentAttemptStartedAt: timestamp("enrollment_attempt_started_at", { withTimezone: true, mode: "date" }),
    archivedAt: timestamp("archived_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Masked summary of the latest tax form (full form encrypted in beneficiary_tax_documents). */
    taxDocument: jsonb("tax_document").$type<TaxDocumentSummaryValue>(),
    /**
     * The masking rule (platform/masking.ts MASK_VERSION) that `tax_id_last4` and the tax form's `tin_last4`
     * follow. Rows written before the rule existed read 0 and are re-masked from the ciphertexts by the
     * `masking.backfill` job; new rows are written with the current version.
     */
    maskVersion: smallint("mask_version").notNull().default(0),
    /**
     * Written only by the screening module (through beneficiaries.shared.ts `recordScreeningOutcome`):
     * `potential_match` and `confirmed_match` refuse new payouts and hold approved ones not yet sent.
     */
    screeningStatus: screeningStatusEnum("screening_status").notNull().default("not_screened"),
    screeningMatch: jsonb("screening_match").$type<ScreeningMatchValue>(),
    screenedAt: timestamp("screened_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("beneficiaries_tenant_list_idx").on(t.businessId, t.environment, t.id).where(sql`archived_at is null`),
    // Every Beneficiary of a tenant, archived ones included: the payouts list's payee search reads their names
    // (a payout to an archived payee still matches), without scanning other tenants' rows.
    index("beneficiaries_tenant_idx").on(t.businessId, t.environment),
    // One active Beneficiary per e-mail in a tenant: makes a repeated import recognisable, and a collection
    // link's recipient unambiguous. Archiving frees the address.
    uniqueIndex("beneficiaries_tenant_email_key")
      .on(t.businessId, t.environment, t.emailNormalized)
      .where(sql`archived_at is null`),
    // Rows the masking backfill still has to visit (empty once it has run): keeps its start-up check cheap.
    index("beneficiaries_mask_pending_idx")
      .on(t.id)
      .where(sql`mask_version < 1 and (tax_id_encrypted is not null or tax_document is not null)`),
  ],
);

/**
 * Every change of a Beneficiary's declared destination, append-only: who made it (the Business's API key and
 * membership, or the collection request whose link was submitted), why, from what to what, and when. Each
 * change also queued the notice e-mail to the Beneficiary in the same transaction.
 */
export const beneficiaryDeclaredDestinationChanges = pgTable(
  "beneficiary_declared_destination_changes",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    beneficiaryId: uuid("beneficiary_id")
      .notNull()
      .references(() => beneficiaries.id),
    previousDestinationId: uuid("previous_destination_id"),
    /** Null when the change cleared it. */
    destinationId: uuid("destination_id"),
    changedBy: declaredDestinationActorEnum("changed_by").notNull(),
    reason: declaredDestinationReasonEnum("reason").notNull(),
    apiKeyId: uuid("api_key_id"),
    membershipId: uuid("membership_id"),
    userId: uuid("user_id"),
    collectionRequestId: uuid("collection_request_id"),
    createdAt: createdAt(),
  },
  (t) => [index("beneficiary_declared_destination_changes_beneficiary_idx").on(t.beneficiaryId, t.createdAt)],
);
