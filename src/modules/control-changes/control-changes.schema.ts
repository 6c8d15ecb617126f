// The control-changes module's table: a weakening of a control proposed while maker-checker is on, waiting for a
// second admin. The owner of the control (payout limits, the approval policy, a funding account, the destination
// policy) hands the change here instead of applying it; an approval hands it back to the owner's applier.
import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";

export const CONTROL_CHANGE_STATUSES = ["pending", "approved", "discarded", "superseded"] as const;
export type ControlChangeStatus = (typeof CONTROL_CHANGE_STATUSES)[number];

export const pendingControlChanges = pgTable(
  "pending_control_changes",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    environment: environmentEnum("environment").notNull(),
    /** Which control (an owner registered an applier for it): `payout_limits`, `approval_policy`, `funding_account`, … */
    kind: text("kind").notNull(),
    /** The controlled thing within the kind (the environment for a policy, a funding account's id). */
    subjectId: text("subject_id").notNull(),
    /** The weakened control as the admins' alert names it (platform/auth/audit.ts WeakenedControl). */
    control: text("control").notNull(),
    /** One sentence saying what the change does (shown to the second admin and in the e-mails). */
    summary: text("summary").notNull(),
    /** The control's value when proposed: the change applies only if it is still so (else 409 CONTROL_CHANGE_STALE). */
    base: jsonb("base").notNull(),
    /** The value the change sets, in the owner's request shape. */
    proposed: jsonb("proposed").notNull(),
    status: text("status").$type<ControlChangeStatus>().notNull(),
    proposedByApiKeyId: uuid("proposed_by_api_key_id"),
    proposedByMembershipId: uuid("proposed_by_membership_id"),
    proposedByUserId: uuid("proposed_by_user_id"),
    decidedByApiKeyId: uuid("decided_by_api_key_id"),
    decidedByMembershipId: uuid("decided_by_membership_id"),
    decidedByUserId: uuid("decided_by_user_id"),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("pending_control_changes_tenant_idx").on(t.businessId, t.environment, t.id),
    // At most one pending change per control: a newer proposal supersedes the older one.
    uniqueIndex("pending_control_changes_one_pending")
      .on(t.businessId, t.environment, t.kind, t.subjectId)
      .where(sql`${t.status} = 'pending'`),
    check(
      "pending_control_changes_status",
      sql`${t.status} in ('pending', 'approved', 'discarded', 'superseded') and ((${t.status} = 'pending') = (${t.decidedAt} is null))`,
    ),
  ],
);
