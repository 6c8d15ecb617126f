// The payouts module's tables: payouts, their idempotency keys, Decisions, disbursement attempts, approval policies.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";
import { beneficiaries } from "../beneficiaries/beneficiaries.schema.js";
import { destinations } from "../destinations/destinations.schema.js";
import { PAYOUT_STATUSES, type PayoutFundingStatus } from "./payouts.state.js";

export const payoutStatusEnum = pgEnum("payout_status", PAYOUT_STATUSES);

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
    /**
     * What the ledger holds for it (issue 27): `not_tracked` before approval or never held, `reserved` (a hold),
     * `awaiting_funds` (enforce: approved, no hold, nothing dispatched), `posted`, `released` (voided or left the
     * queue), `reversed` (returned).
     */
    fundingStatus: text("funding_status").$type<PayoutFundingStatus>().notNull().default("not_tracked"),
    /** The funding account its hold is on (set at approval; no foreign key: the funding module owns that table). */
    fundingAccountId: uuid("funding_account_id"),
    /** When it started waiting for funds: the order of the release. */
    awaitingFundsSince: timestamp("awaiting_funds_since", { withTimezone: true, mode: "date" }),
    /** Issue 28: `reconciled` once a bank statement line was matched to it (the reconciliation module's markReconciled). */
    reconciliationStatus: text("reconciliation_status").$type<"unreconciled" | "reconciled">().notNull().default("unreconciled"),
    reconciledAt: timestamp("reconciled_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("payouts_tenant_idx").on(t.businessId, t.environment, t.id),
    index("payouts_tenant_updated_idx").on(t.businessId, t.environment, t.updatedAt, t.id),
    index("payouts_tenant_beneficiary_idx").on(t.businessId, t.environment, t.beneficiaryId, t.id),
    index("payouts_tenant_upload_idx").on(t.businessId, t.environment, t.uploadId, t.id).where(sql`upload_id is not null`),
    // The list's `replaces_payout_id` filter (a failed payout's replacements, ended ones included, which the
    // live-replacement key below leaves out).
    index("payouts_tenant_replaces_idx")
      .on(t.businessId, t.environment, t.replacesPayoutId, t.id)
      .where(sql`replaces_payout_id is not null`),
    // The list's filters that can be selective on a large environment (status, currency, created range,
    // amount range) each have a tenant-scoped index; channel has two values and is filtered in the scan.
    index("payouts_tenant_status_idx").on(t.businessId, t.environment, t.status, t.id),
    index("payouts_tenant_currency_idx").on(t.businessId, t.environment, t.currency, t.id),
    index("payouts_tenant_created_idx").on(t.businessId, t.environment, t.createdAt),
    index("payouts_tenant_amount_idx").on(t.businessId, t.environment, t.amountMinor),
    index("payouts_tenant_external_ref_idx").on(t.businessId, t.environment, t.externalRef).where(sql`external_ref is not null`),
    // The destination-deletion rule looks here: payouts awaiting approval headed to a destination.
    index("payouts_pending_destination_idx").on(t.destinationId).where(sql`status = 'pending_approval'`),
    // At most one live replacement per failed payout: a replacement that itself ended without moving money
    // (failed, rejected, canceled) leaves the index, so another may be created.
    uniqueIndex("payouts_live_replacement_key")
      .on(t.replacesPayoutId)
      .where(sql`replaces_payout_id is not null and status not in ('failed', 'rejected', 'canceled')`),
    check("payouts_amount_positive", sql`${t.amountMinor} > 0`),
    // The release of waiting payouts: one funding account's queue, in approval order.
    index("payouts_awaiting_funds_idx")
      .on(t.fundingAccountId, t.awaitingFundsSince, t.id)
      .where(sql`funding_status = 'awaiting_funds'`),
    check("payouts_reconciliation_status", sql`${t.reconciliationStatus} in ('unreconciled', 'reconciled')`),
    check(
      "payouts_funding_status",
      sql`${t.fundingStatus} in ('not_tracked', 'reserved', 'awaiting_funds', 'posted', 'released', 'reversed')`,
    ),
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
