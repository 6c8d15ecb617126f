// The three roles of a member or an API key, in the words every page uses (never the API's enum values).
import type { Schemas } from "../api/client";

export type Role = Schemas["CreateInvitationRequest"]["role"];

const ROLE_NAMES: Readonly<Record<Role, string>> = {
  business_admin: "Admin",
  business_approver: "Approver",
  business_read_only: "Read only",
};

/** What each role may do, for pickers where the choice is made (the key dialog). */
const ROLE_POWERS: Readonly<Record<Role, string>> = {
  business_admin: "reads and writes",
  business_approver: "reads and decides payouts",
  business_read_only: "reads only",
};

const ROLES = Object.keys(ROLE_NAMES) as Role[];

/** The role's name; a role this build does not know keeps the API's value rather than showing nothing. */
export function roleName(role: string): string {
  return ROLE_NAMES[role as Role] ?? role;
}

/** Options for a role picker: the names alone, or `Admin: reads and writes` with `withPowers`. */
export function roleOptions(withPowers = false): { value: Role; label: string }[] {
  return ROLES.map((role) => ({
    value: role,
    label: withPowers && role !== "business_read_only" ? `${ROLE_NAMES[role]}: ${ROLE_POWERS[role]}` : ROLE_NAMES[role],
  }));
}
