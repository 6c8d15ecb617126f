// What every module's tables share: the tenant root (businesses, which every tenant table references; its rows
// are created only by the registration module and its profile columns written only by the business-profile
// module, as `npm run layers` checks), the tenant's environment, a membership's role, `created_at`.
import { pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { ROLES } from "../auth/actor.js";
import { ENVIRONMENTS } from "../auth/api-key-format.js";

export const environmentEnum = pgEnum("environment", ENVIRONMENTS);
export const roleEnum = pgEnum("member_role", ROLES);

/** The `created_at` column every table has. */
export const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull();

/**
 * A Business: the tenant, and its profile. Declared here, not in a module, because every tenant table (the
 * platform's `events` included) references it and the platform imports no module. Rows are inserted by the
 * registration module; every later change goes through the business-profile module (`PATCH /v1/business`).
 * The profile is Business-wide: one for both environments.
 */
export const businesses = pgTable("businesses", {
  id: uuid("id").primaryKey(),
  /** The display name: the dashboard's header, e-mails to payees, the hosted pages without a branding name. */
  name: text("name").notNull(),
  legalName: text("legal_name"),
  /** ISO 3166-1 alpha-2. */
  country: text("country"),
  registrationNumber: text("registration_number"),
  taxId: text("tax_id"),
  supportEmail: text("support_email"),
  /** An https URL. */
  website: text("website"),
  /** An IANA time zone name, as Intl resolves it. */
  timeZone: text("time_zone"),
  createdAt: createdAt(),
  /** The last profile change; null until the first. */
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }),
});
