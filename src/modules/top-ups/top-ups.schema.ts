// The top-ups module's table: money a Business says it moved into a funding account, waiting for a second
// person's approval before it is credited on the ledger (the funding module's creditFundingAccount).
import { sql } from "drizzle-orm";
import { bigint, check, index, pgEnum, pgTable, text, timestamp, uuid, varchar } from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";

export const TOP_UP_STATUSES = ["pending_approval", "approved", "rejected"] as const;
export type TopUpStatus = (typeof TOP_UP_STATUSES)[number];
export const topUpStatusEnum = pgEnum("top_up_status", TOP_UP_STATUSES);

/**
 * One recorded top-up. Decided once: the move out of `pending_approval` is a conditional update, and the
 * approval's credit is idempotent on `top_up:<id>:credit`, so two racing approvals credit once.
 */
export const topUps = pgTable(
  "top_ups",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    /** The funding account it credits (owned by the funding module: no foreign key across modules). */
    fundingAccountId: uuid("funding_account_id").notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    /** The funding account's currency, copied when recorded. */
    currency: varchar("currency", { length: 3 }).notNull(),
    /** The Business's reference of the bank transfer (what its statement will show). */
    reference: text("reference").notNull(),
    status: topUpStatusEnum("status").notNull(),
    /** The maker: the key (null from a session), the membership and the user; compared by person. */
    createdByApiKeyId: uuid("created_by_api_key_id"),
    createdByMembershipId: uuid("created_by_membership_id"),
    createdByUserId: uuid("created_by_user_id"),
    /** The checker, once decided. */
    decidedByApiKeyId: uuid("decided_by_api_key_id"),
    decidedByMembershipId: uuid("decided_by_membership_id"),
    decidedByUserId: uuid("decided_by_user_id"),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "date" }),
    /** Why it was rejected (required then); null otherwise. */
    reason: text("reason"),
    /** The ledger transfer of the approval's credit. */
    transferId: uuid("transfer_id"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("top_ups_tenant_idx").on(t.businessId, t.environment, t.id),
    index("top_ups_funding_account_idx").on(t.businessId, t.environment, t.fundingAccountId, t.id),
    check("top_ups_amount_positive", sql`${t.amountMinor} > 0`),
    check(
      "top_ups_decided_consistently",
      sql`(${t.status} = 'pending_approval') = (${t.decidedAt} is null) and (${t.status} <> 'approved' or ${t.transferId} is not null) and (${t.status} <> 'rejected' or ${t.reason} is not null)`,
    ),
  ],
);
