// The destinations module's table.
import { sql } from "drizzle-orm";
import {
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
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";
import { beneficiaries } from "../beneficiaries/beneficiaries.schema.js";

export const destinationKindEnum = pgEnum("destination_kind", ["bank_account", "card"]);
export const destinationValidationEnum = pgEnum("destination_validation_status", ["validated", "unvalidated"]);
export const destinationApprovalEnum = pgEnum("destination_approval_status", ["approved", "pending_approval", "rejected"]);
/** Who added (or last changed) a destination's bank details: a key, a dashboard session, or a collection link (no person). */
export const destinationAddedByEnum = pgEnum("destination_added_by_kind", ["api_key", "session", "collection_link"]);
export const nameCheckModeEnum = pgEnum("destination_name_check_mode", ["off", "warn", "block"]);
export const screeningModeEnum = pgEnum("destination_screening_mode", ["off", "on"]);
export const destinationVerificationEnum = pgEnum("destination_verification_status", ["unverified", "verified", "rejected"]);
/** The answers of a payee name check (src/rails/payee-name): the same four as the EU's Verification of Payee. */
export const nameCheckResultEnum = pgEnum("name_check_result", ["match", "close_match", "no_match", "not_possible"]);

/** An ACH notification of change as kept on the destination (see the column below). */
export interface NotificationOfChange {
  readonly code: string;
  readonly description: string;
  /** The bank's corrected data, account numbers masked to their last four characters. */
  readonly corrected_data: string;
  /** The fields the code corrects: routing_number, account_number, account_type, or other (absent on older rows). */
  readonly corrected_fields?: readonly string[];
  readonly payout_id: string;
  readonly received_at: string;
  /**
   * The unmasked correction (`AchCorrection`: routing number, account number, account type) encrypted with the
   * FieldCipher like account numbers; never presented. Absent for codes that correct no account detail and on
   * rows from before it was kept. Cleared when the correction is applied.
   */
  readonly correction_encrypted?: string;
  /** When the Business applied the correction (`…/notification-of-change/apply`). */
  readonly applied_at?: string;
}

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
    /**
     * The latest ACH notification of change (C-code) the receiving bank sent about this account, with the
     * corrected data masked (account numbers to their last four) and the unmasked correction encrypted; null
     * when none came. Written by the bank-rails module through recordNotificationOfChange; the account data
     * changes only when the Business applies the correction.
     */
    notificationOfChange: jsonb("notification_of_change").$type<NotificationOfChange>(),
    /**
     * The latest payee name check of the account holder name against the payee's legal name (issue 29): its
     * answer, the name the bank holds (a close match only), who answered (`local`, `simulator`, or a Verification
     * of Payee provider's name) and when. All null until the first check has run (the name-check job, after the
     * destination or the payee's legal name was written); rows from before the check existed stay null until
     * their holder or legal name changes.
     */
    nameCheckResult: nameCheckResultEnum("name_check_result"),
    nameCheckBankName: text("name_check_bank_name"),
    nameCheckSource: text("name_check_source"),
    nameCheckAt: timestamp("name_check_at", { withTimezone: true, mode: "date" }),
    /**
     * Approval of the bank details (destination policy `require_approval`): `pending_approval` from the moment
     * they are added or changed until a person other than the one who added them approves; rows from before
     * the policy existed, and rows added while it is off, are `approved`.
     */
    approvalStatus: destinationApprovalEnum("approval_status").notNull().default("approved"),
    /** Who added or last changed the details: kind, and the key id, membership id or collection link id. Null on older rows. */
    addedByKind: destinationAddedByEnum("added_by_kind"),
    addedById: uuid("added_by_id"),
    /** The person behind the change, compared by maker-checker (platform/auth/maker-checker.ts); null for a collection link. */
    addedByApiKeyId: uuid("added_by_api_key_id"),
    addedByMembershipId: uuid("added_by_membership_id"),
    addedByUserId: uuid("added_by_user_id"),
    /** When the account details were set: creation, or the last change of them (an applied notification of change). */
    detailsChangedAt: timestamp("details_changed_at", { withTimezone: true, mode: "date" }),
    /** The membership that approved or rejected the details (null while pending, and for rows approved by default). */
    approvedBy: uuid("approved_by"),
    approvedAt: timestamp("approved_at", { withTimezone: true, mode: "date" }),
    rejectionReason: text("approval_rejection_reason"),
    /**
     * From when a payout may be created to it (cooling-off): approval (or creation without require_approval)
     * plus the policy's cooling_off_hours, restarted when it becomes the declared destination. Null while
     * pending or rejected; null on older rows (usable at once).
     */
    usableFrom: timestamp("usable_from", { withTimezone: true, mode: "date" }),
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
    // The bank-detail approvals queue of a tenant.
    index("destinations_pending_approval_idx")
      .on(t.businessId, t.environment, t.id)
      .where(sql`approval_status = 'pending_approval' and deleted_at is null`),
  ],
);

/**
 * The destination policy of a Business and environment (issue 29): whether new and changed bank details wait
 * for a second person's approval, the cooling-off before a destination may be paid, and the payee name check
 * and sanctions screening modes (read by those modules through findDestinationPolicy). No row: the defaults.
 */
export const destinationPolicies = pgTable(
  "destination_policies",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    requireApproval: boolean("require_approval").notNull().default(false),
    coolingOffHours: integer("cooling_off_hours").notNull().default(0),
    nameCheck: nameCheckModeEnum("name_check").notNull().default("off"),
    screening: screeningModeEnum("screening").notNull().default("off"),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    /** The membership that last changed it. */
    updatedBy: uuid("updated_by"),
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.environment] }),
    check("destination_policies_cooling_off_range", sql`cooling_off_hours between 0 and 720`),
  ],
);
