// What every module's tables share: the tenant root (businesses, which every tenant table references; its rows
// are created only by the registration module), the tenant's environment, a membership's role, `created_at`.
import { pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { ROLES } from "../auth/actor.js";
import { ENVIRONMENTS } from "../auth/api-key-format.js";

export const environmentEnum = pgEnum("environment", ENVIRONMENTS);
export const roleEnum = pgEnum("member_role", ROLES);

/** The `created_at` column every table has. */
export const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull();

/** A Business: the tenant. Its rows are created by the registration module. */
export const businesses = pgTable("businesses", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});
