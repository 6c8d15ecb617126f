// The people module's tables: sessions, invitations, password resets, two-factor secrets and recovery
// codes, failed sign-ins (for throttling), Business security settings and the audit log. Only
// people.repo.ts reads and writes them. Users, memberships and Businesses stay with the registration
// module, which creates them; the people module reaches them through registration's index.ts.
import { sql } from "drizzle-orm";
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { businesses, environmentEnum, roleEnum } from "../../platform/db/shared.schema.js";
import { memberships, users } from "../registration/registration.schema.js";

const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * A signed-in person, in one Business. Only the SHA-256 of the session secret is stored. The role and the
 * Business are a snapshot of the membership when the session began: every change of role and every removal
 * ends the member's sessions in the same transaction, so the snapshot is never stale, and authenticating a
 * request reads this one row.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    membershipId: uuid("membership_id")
      .notNull()
      .references(() => memberships.id),
    role: roleEnum("role").notNull(),
    createdAt: at("created_at").notNull(),
    /** Touched at most once a minute; the idle timeout counts from it. */
    lastSeenAt: at("last_seen_at").notNull(),
    /** The absolute lifetime: the session ends then whatever its activity. */
    expiresAt: at("expires_at").notNull(),
    /** The last password or two-factor confirmation (sign-in counts): step-up routes need a recent one. */
    confirmedAt: at("confirmed_at").notNull(),
    /** Password accepted, second factor still owed: such a session may only complete sign-in. */
    twoFactorPending: boolean("two_factor_pending").notNull().default(false),
    endedAt: at("ended_at"),
    /**
     * signed_out, signed_out_everywhere, ended_by_person (from another of the person's sessions), password_changed, member_removed, role_changed, switched, superseded,
     * idle_timeout, absolute_lifetime (expired: ended when presented again or by the session sweep)
     */
    endedReason: text("ended_reason"),
    /** Of the sign-in (switching Business carries them over): the person's list of sessions shows them. */
    clientAddress: text("client_address"),
    /** The User-Agent header of the sign-in, first 512 characters; the API answers only a label made from it. */
    userAgent: text("user_agent"),
  },
  (t) => [
    uniqueIndex("sessions_token_hash_key").on(t.tokenHash),
    index("sessions_user_idx").on(t.userId, t.createdAt),
    index("sessions_membership_idx").on(t.membershipId),
    // The session sweep reads only live sessions: a partial index stays the size of the live set.
    index("sessions_live_idx").on(t.lastSeenAt).where(sql`${t.endedAt} is null`),
    // The retention sweep deletes sessions that ended long ago.
    index("sessions_ended_idx").on(t.endedAt).where(sql`${t.endedAt} is not null`),
  ],
);

/** An invitation to join a Business with a role: single use, 7 days, only the token's hash stored. */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    email: text("email").notNull(),
    role: roleEnum("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedByMembershipId: uuid("invited_by_membership_id").references(() => memberships.id),
    createdAt: at("created_at").notNull(),
    expiresAt: at("expires_at").notNull(),
    acceptedAt: at("accepted_at"),
    acceptedMembershipId: uuid("accepted_membership_id"),
    revokedAt: at("revoked_at"),
  },
  (t) => [uniqueIndex("invitations_token_hash_key").on(t.tokenHash), index("invitations_business_idx").on(t.businessId, t.id)],
);

/** A password reset: single use, 1 hour, only the token's hash stored. */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    tokenHash: text("token_hash").notNull(),
    createdAt: at("created_at").notNull(),
    expiresAt: at("expires_at").notNull(),
    usedAt: at("used_at"),
  },
  (t) => [uniqueIndex("password_resets_token_hash_key").on(t.tokenHash), index("password_resets_user_idx").on(t.userId)],
);

/** A failed sign-in, kept for throttling per account and per client address (counted over a sliding window). */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: uuid("id").primaryKey(),
    /** The e-mail as typed (trimmed, lower-cased), known account or not: throttling must not tell them apart. */
    email: text("email").notNull(),
    clientAddress: text("client_address").notNull(),
    occurredAt: at("occurred_at").notNull(),
  },
  (t) => [
    index("sign_in_failures_email_idx").on(t.email, t.occurredAt),
    index("sign_in_failures_address_idx").on(t.clientAddress, t.occurredAt),
  ],
);

/** A person's TOTP secret (encrypted at rest); confirmed once a first code was accepted. */
export const twoFactorSecrets = pgTable("two_factor_secrets", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id),
  secretEncrypted: text("secret_encrypted").notNull(),
  createdAt: at("created_at").notNull(),
  confirmedAt: at("confirmed_at"),
  /** The last 30-second step whose code was accepted: a code is refused again in its window (replay). */
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
});

/** Ten single-use recovery codes per person, hashed. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    codeHash: text("code_hash").notNull(),
    createdAt: at("created_at").notNull(),
    usedAt: at("used_at"),
  },
  (t) => [uniqueIndex("recovery_codes_user_code_key").on(t.userId, t.codeHash)],
);

/** A Business's security settings: whether every member must use two-factor authentication. */
export const businessSecuritySettings = pgTable("business_security_settings", {
  businessId: uuid("business_id")
    .primaryKey()
    .references(() => businesses.id),
  requireTwoFactor: boolean("require_two_factor").notNull().default(false),
  updatedAt: at("updated_at").notNull(),
});

/**
 * The audit log: one row per security-relevant act, written in the transaction of the act. The actor is
 * copied (not referenced), so the record outlives a removed member or a revoked key.
 */
export const auditRecords = pgTable(
  "audit_records",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    /** The environment of the act, null for acts on the Business as a whole (team, sign-in). */
    environment: environmentEnum("environment"),
    action: text("action").notNull(),
    actorUserId: uuid("actor_user_id"),
    actorMembershipId: uuid("actor_membership_id"),
    actorRole: roleEnum("actor_role"),
    actorApiKeyId: uuid("actor_api_key_id"),
    actorSessionId: uuid("actor_session_id"),
    subjectType: text("subject_type"),
    subjectId: text("subject_id"),
    clientAddress: text("client_address"),
    userAgent: text("user_agent"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    occurredAt: at("occurred_at").notNull(),
  },
  (t) => [
    index("audit_records_business_idx").on(t.businessId, t.id),
    index("audit_records_business_action_idx").on(t.businessId, t.action, t.id),
  ],
);
