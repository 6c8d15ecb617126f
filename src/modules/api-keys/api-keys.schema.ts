// The api-keys module's table.
import { index, pgTable, text, timestamp, uuid, varchar } from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum, roleEnum } from "../../platform/db/shared.schema.js";
import { memberships } from "../registration/registration.schema.js";

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
