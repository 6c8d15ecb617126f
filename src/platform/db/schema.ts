// The database schema. drizzle-kit generates the SQL migrations under drizzle/ from this file;
// those committed migrations, not this file, are what runs against a database.
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";

export const environmentEnum = pgEnum("environment", ["sandbox", "production"]);
export const roleEnum = pgEnum("member_role", ["business_admin", "business_read_only", "business_approver"]);
export const jobStatusEnum = pgEnum("job_status", ["pending", "running", "succeeded", "dead"]);

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull();

export const businesses = pgTable("businesses", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey(),
    /** Stored lower-cased; uniqueness is case-insensitive by construction. */
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    /**
     * When the person proved they receive mail at `email` (a registration token sent there was used). Users
     * created before e-mail verification existed were set to their `created_at` by a migration.
     */
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

/**
 * A registration waiting for its e-mail address to be proven: created by `POST /v1/registration`, consumed
 * by `POST /v1/registration/verification` with the token that was mailed to the address. Only the SHA-256
 * of the token is stored. Consuming is a conditional update (`consumed_at is null and expires_at > now`), so
 * a token creates at most one Business.
 */
export const pendingRegistrations = pgTable(
  "pending_registrations",
  {
    id: uuid("id").primaryKey(),
    /** SHA-256 (hex) of the raw token; the token itself exists only in the e-mail (sealed in its job). */
    tokenHash: text("token_hash").notNull(),
    /** Trimmed and lower-cased, as `users.email`. */
    email: text("email").notNull(),
    businessName: text("business_name").notNull(),
    /** scrypt hash of the password sent with the registration; cleared when the token is consumed. */
    passwordHash: text("password_hash"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("pending_registrations_token_hash_key").on(t.tokenHash),
    // The per-recipient limit counts an address's registrations of the last day.
    index("pending_registrations_email_created_idx").on(t.email, t.createdAt),
  ],
);

export const memberships = pgTable(
  "memberships",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    role: roleEnum("role").notNull(),
    createdAt: createdAt(),
    /** When the member was removed from the Business; a removed membership authenticates nothing. */
    removedAt: timestamp("removed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [uniqueIndex("memberships_business_user_key").on(t.businessId, t.userId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    membershipId: uuid("membership_id")
      .notNull()
      .references(() => memberships.id),
    environment: environmentEnum("environment").notNull(),
    role: roleEnum("role").notNull(),
    label: text("label"),
    /** SHA-256 (hex) of the secret segment; the secret itself is never stored. */
    secretHash: text("secret_hash").notNull(),
    /** Last four characters of the secret, so a person can tell keys apart. */
    secretLast4: varchar("secret_last4", { length: 4 }).notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("api_keys_business_env_idx").on(t.businessId, t.environment, t.id)],
);

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

/**
 * Durable jobs. Enqueued inside the caller's transaction; claimed with FOR UPDATE SKIP LOCKED under a
 * lease whose token fences late writes from a worker that lost its lease.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey(),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    status: jobStatusEnum("status").notNull().default("pending"),
    runAt: timestamp("run_at", { withTimezone: true, mode: "date" }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    /** Fencing token of the current lease; a completion must present it. */
    leaseToken: uuid("lease_token"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true, mode: "date" }),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    /** Optional caller-chosen key: a second enqueue with the same key is a no-op. */
    dedupeKey: text("dedupe_key"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("jobs_due_idx").on(t.runAt).where(sql`status = 'pending'`),
    index("jobs_lease_idx").on(t.leaseExpiresAt).where(sql`status = 'running'`),
    uniqueIndex("jobs_dedupe_key").on(t.dedupeKey),
    check("jobs_attempts_nonnegative", sql`${t.attempts} >= 0`),
  ],
);

/**
 * Counters of rate-limiter-flexible's PostgreSQL store (its own table layout), shared across API processes.
 * The migration creates it UNLOGGED (hand-edited; drizzle-kit cannot express it): counters are worth no
 * WAL flush per request, and losing them in a crash only resets the current window.
 */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});

export const beneficiaryTypeEnum = pgEnum("beneficiary_type", ["person", "business"]);
export const complianceStatusEnum = pgEnum("compliance_status", ["pending", "compliant", "suspended"]);
export const collectionStatusEnum = pgEnum("collection_status", ["not_invited", "invited", "details_submitted"]);
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
    // Issue 4 (rails): the enrollment attempt in flight. Its result is written only while this id is still the
    // current attempt, so a newer attempt supersedes an older one that answers late.
    enrollmentAttemptId: uuid("enrollment_attempt_id"),
    enrollmentAttemptStartedAt: timestamp("enrollment_attempt_started_at", { withTimezone: true, mode: "date" }),
    archivedAt: timestamp("archived_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Issue 6: masked summary of the latest tax form (full form encrypted in beneficiary_tax_documents). */
    taxDocument: jsonb("tax_document").$type<TaxDocumentSummaryValue>(),
    /**
     * The masking rule (platform/masking.ts MASK_VERSION) that `tax_id_last4` and the tax form's `tin_last4`
     * follow. Rows written before the rule existed read 0 and are re-masked from the ciphertexts by the
     * `masking.backfill` job; new rows are written with the current version.
     */
    maskVersion: smallint("mask_version").notNull().default(0),
  },
  (t) => [
    index("beneficiaries_tenant_list_idx").on(t.businessId, t.environment, t.id).where(sql`archived_at is null`),
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

export const destinationKindEnum = pgEnum("destination_kind", ["bank_account", "card"]);
export const destinationValidationEnum = pgEnum("destination_validation_status", ["validated", "unvalidated"]);
export const destinationVerificationEnum = pgEnum("destination_verification_status", ["unverified", "verified", "rejected"]);

/**
 * Where a payout can go: a bank account or a card. Full account numbers, IBANs, CLABEs, Pix keys and card
 * numbers are encrypted at rest; `last4` (or a masked Pix key) is all that is ever shown.
 */
export const destinations = pgTable(
  "destinations",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    beneficiaryId: uuid("beneficiary_id")
      .notNull()
      .references(() => beneficiaries.id),
    kind: destinationKindEnum("kind").notNull(),
    /** Which validation scheme accepted it: iban, us_aba, gb_sort_code, mx_clabe, br_pix, swift, card, … */
    scheme: text("scheme").notNull(),
    accountHolderName: text("account_holder_name").notNull(),
    country: varchar("country", { length: 2 }).notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    accountType: text("account_type").notNull(),
    bankName: text("bank_name"),
    routingCode: text("routing_code"),
    swiftBic: text("swift_bic"),
    /** Encrypted JSON of the sensitive routing values (account_number, iban, clabe, pix_key, card_number). */
    sensitiveEncrypted: text("sensitive_encrypted").notNull(),
    /** Keyed hash of the normalised account identifier: recognises the same account without decrypting. */
    fingerprint: text("fingerprint").notNull(),
    /** The masked display value (platform/masking.ts: at most the last four characters), or a masked Pix key. */
    last4: varchar("last4", { length: 64 }).notNull(),
    /** The masking rule `last4` follows (see beneficiaries.mask_version); 0 for rows the backfill has not re-masked yet. */
    maskVersion: smallint("mask_version").notNull().default(0),
    pixKeyType: text("pix_key_type"),
    cardNetwork: text("card_network"),
    cardExpiryMonth: integer("card_expiry_month"),
    cardExpiryYear: integer("card_expiry_year"),
    validationStatus: destinationValidationEnum("validation_status").notNull(),
    status: destinationVerificationEnum("status").notNull().default("unverified"),
    railRejectionReason: text("rail_rejection_reason"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("destinations_beneficiary_idx").on(t.beneficiaryId, t.id),
    // The same account registered twice for one Beneficiary is the same destination.
    uniqueIndex("destinations_beneficiary_fingerprint_key").on(t.beneficiaryId, t.fingerprint).where(sql`deleted_at is null`),
    index("destinations_tenant_idx").on(t.businessId, t.environment, t.id),
    index("destinations_mask_pending_idx").on(t.id).where(sql`mask_version < 1`),
  ],
);

// ---------------------------------------------------------------------------------------------------------
// Collection links and hosted pages (issue 6)
// ---------------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------------
// Issue 5: webhooks (subscriptions, deliveries, attempts)
// ---------------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------------
// Payouts (issue 4): payouts, their idempotency keys, Decisions, disbursement attempts, approval policies.
// ---------------------------------------------------------------------------------------------------------

export const payoutStatusEnum = pgEnum("payout_status", [
  "pending_approval",
  "approved",
  "rejected",
  "disbursed",
  "settled",
  "returned",
  "failed",
  "canceled",
  "compliance_hold",
]);

/**
 * One instruction to move funds to a Beneficiary. The convenience triple of the latest disbursement attempt
 * (rail, rail_ref, disbursement_status, failure_reason) is kept on the row so reads need no join.
 */
export const payouts = pgTable(
  "payouts",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    beneficiaryId: uuid("beneficiary_id")
      .notNull()
      .references(() => beneficiaries.id),
    /** The destination it was created for; it stays named (and its masked value shown) after deletion. */
    destinationId: uuid("destination_id")
      .notNull()
      .references(() => destinations.id),
    destinationLast4: varchar("destination_last4", { length: 64 }).notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: varchar("currency", { length: 3 }).notNull(),
    externalRef: text("external_ref"),
    idempotencyKey: text("idempotency_key").notNull(),
    channel: text("channel").notNull(),
    uploadId: text("upload_id"),
    replacesPayoutId: uuid("replaces_payout_id"),
    status: payoutStatusEnum("status").notNull(),
    /** While on compliance_hold: the state it returns to when the review clears. */
    heldFromStatus: payoutStatusEnum("held_from_status"),
    /** Who created it (the maker), compared with the approver by maker-checker: the key, and the person behind it. */
    createdByApiKeyId: uuid("created_by_api_key_id"),
    createdByMembershipId: uuid("created_by_membership_id"),
    createdByUserId: uuid("created_by_user_id"),
    rail: text("rail"),
    railRef: text("rail_ref"),
    disbursementStatus: text("disbursement_status"),
    failureReason: text("failure_reason"),
    /** Set (conditionally, while approved) just before the rail is first called: cancellation stops here. */
    disbursementStartedAt: timestamp("disbursement_started_at", { withTimezone: true, mode: "date" }),
    /**
     * Set when the disbursement job found the payout on compliance hold before the rail was called: the job
     * ends, and the release of the hold dispatches the disbursement again (so a payout is never left approved
     * with nothing to send it, and never has two disbursement jobs alive at once).
     */
    disbursementDeferredAt: timestamp("disbursement_deferred_at", { withTimezone: true, mode: "date" }),
    estimatedArrivalAt: timestamp("estimated_arrival_at", { withTimezone: true, mode: "date" }),
    disbursedAt: timestamp("disbursed_at", { withTimezone: true, mode: "date" }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    settledAt: timestamp("settled_at", { withTimezone: true, mode: "date" }),
    returnedAt: timestamp("returned_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("payouts_tenant_idx").on(t.businessId, t.environment, t.id),
    index("payouts_tenant_updated_idx").on(t.businessId, t.environment, t.updatedAt, t.id),
    index("payouts_tenant_beneficiary_idx").on(t.businessId, t.environment, t.beneficiaryId, t.id),
    index("payouts_tenant_upload_idx").on(t.businessId, t.environment, t.uploadId, t.id).where(sql`upload_id is not null`),
    index("payouts_tenant_external_ref_idx").on(t.businessId, t.environment, t.externalRef).where(sql`external_ref is not null`),
    // The destination-deletion rule looks here: payouts awaiting approval headed to a destination.
    index("payouts_pending_destination_idx").on(t.destinationId).where(sql`status = 'pending_approval'`),
    // At most one live replacement per failed payout: a replacement that itself ended without moving money
    // (failed, rejected, canceled) leaves the index, so another may be created.
    uniqueIndex("payouts_live_replacement_key")
      .on(t.replacesPayoutId)
      .where(sql`replaces_payout_id is not null and status not in ('failed', 'rejected', 'canceled')`),
    check("payouts_amount_positive", sql`${t.amountMinor} > 0`),
  ],
);

/**
 * Idempotency keys of payout creation, per (Business, environment, key), live for 24 hours. Claimed in the
 * creating transaction; an expired key is taken over by the next request that names it.
 */
export const payoutIdempotencyKeys = pgTable(
  "payout_idempotency_keys",
  {
    businessId: uuid("business_id").notNull(),
    environment: environmentEnum("environment").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    payoutId: uuid("payout_id").notNull(),
    /** SHA-256 of the request's canonical form: the same key with another request is refused. */
    requestFingerprint: text("request_fingerprint").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.environment, t.idempotencyKey] })],
);

export const decisionOutcomeEnum = pgEnum("decision_outcome", ["approve", "reject"]);
export const validatorTypeEnum = pgEnum("validator_type", ["human", "automated"]);

/** A Decision on a payout. At most one per payout: the one that moved it out of pending_approval. */
export const payoutDecisions = pgTable(
  "payout_decisions",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id").notNull(),
    environment: environmentEnum("environment").notNull(),
    payoutId: uuid("payout_id")
      .notNull()
      .references(() => payouts.id),
    outcome: decisionOutcomeEnum("outcome").notNull(),
    reason: text("reason"),
    validatorType: validatorTypeEnum("validator_type").notNull(),
    /** Who: the name an automated validator gave, or `approval_policy`; null for a person. */
    validatorName: text("validator_name"),
    apiKeyId: uuid("api_key_id"),
    userId: uuid("user_id"),
    membershipId: uuid("membership_id"),
    /** The approval-policy rule that fired, for automated Decisions made by the policy. */
    policyRule: text("policy_rule"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("payout_decisions_payout_key").on(t.payoutId)],
);

/** A call to a rail for a payout. The idempotency key is fixed before the first call and reused on resume. */
export const payoutAttempts = pgTable(
  "payout_attempts",
  {
    id: uuid("id").primaryKey(),
    payoutId: uuid("payout_id")
      .notNull()
      .references(() => payouts.id),
    attemptNumber: integer("attempt_number").notNull(),
    rail: text("rail").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** submitting (recorded before the call), submitted, refused */
    status: text("status").notNull(),
    railRef: text("rail_ref"),
    failureReason: text("failure_reason"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [uniqueIndex("payout_attempts_payout_number_key").on(t.payoutId, t.attemptNumber)],
);

/** One approval policy per Business and environment: ordered rules and the maker-checker option. */
export const approvalPolicies = pgTable(
  "approval_policies",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    rules: jsonb("rules").notNull(),
    makerChecker: boolean("maker_checker").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.environment] })],
);

export const emailKindEnum = pgEnum("email_kind", [
  "registration_verification",
  "registration_existing_account",
  "collection_invitation",
  "declared_destination_changed",
  "declared_destination_removed",
  "team_invitation",
  "password_reset",
]);
/** `captured`: kept here, never delivered (sandbox mail to anyone but the Business's verified people). `sent`: handed to a `mail.send` job. */
export const emailDispositionEnum = pgEnum("email_disposition", ["captured", "sent"]);

/**
 * Every e-mail the service issued, tied to the Business and environment it was sent for (both null for
 * platform mail such as registration). Sent mail is counted here against the per-Business daily limit;
 * captured sandbox mail keeps its content here, sealed with the field cipher (bodies carry link tokens), for
 * `GET /v1/sandbox/emails`. The recipient is stored only as a keyed fingerprint, for the list's filter.
 */
export const emails = pgTable(
  "emails",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id").references(() => businesses.id),
    environment: environmentEnum("environment"),
    kind: emailKindEnum("kind").notNull(),
    disposition: emailDispositionEnum("disposition").notNull(),
    /** HMAC of the lower-cased recipient address (FieldCipher.fingerprint). */
    recipientFingerprint: text("recipient_fingerprint").notNull(),
    /** Names the message for good (`collection-invitation:<request id>`, …): issuing it again changes nothing. */
    idempotencyKey: text("idempotency_key").notNull(),
    /** Captured mail only: `{to, subject, text, html}` as JSON, encrypted with the field cipher. */
    contentEncrypted: text("content_encrypted"),
    /** Sent mail: when its job is due (later than created_at when the daily limit deferred it); captured: created_at. */
    sendAt: timestamp("send_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("emails_idempotency_key").on(t.idempotencyKey),
    index("emails_captured_idx").on(t.businessId, t.environment, t.id).where(sql`disposition = 'captured'`),
    index("emails_captured_recipient_idx")
      .on(t.businessId, t.environment, t.recipientFingerprint, t.id)
      .where(sql`disposition = 'captured'`),
    index("emails_sent_window_idx").on(t.businessId, t.sendAt).where(sql`disposition = 'sent'`),
    check("emails_tenant_consistent", sql`(${t.businessId} is null) = (${t.environment} is null)`),
    check(
      "emails_captured_has_content",
      sql`(${t.disposition} = 'captured') = (${t.contentEncrypted} is not null) and (${t.disposition} <> 'captured' or ${t.businessId} is not null)`,
    ),
  ],
);
