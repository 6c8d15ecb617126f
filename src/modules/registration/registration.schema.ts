// The registration module's tables: Businesses, their people (users and memberships) and pending registrations.
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { businesses, createdAt, roleEnum } from "../../platform/db/shared.schema.js";

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
 * a token creates at most one Business. The retention sweep deletes the row EXPIRED_TOKEN_RETENTION_DAYS after
 * `expires_at`, used or not (registration.retention.ts).
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
