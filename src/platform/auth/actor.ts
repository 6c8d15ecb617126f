// Who is calling: the Business, the environment, the person and their role, decided by an API key or by a
// dashboard session (with the environment the session request names).
import type { Environment } from "./api-key-format.js";

export type Role = "business_admin" | "business_approver" | "business_read_only";
/** The `member_role` enum's values, in the enum's order (a new value is appended, with a migration). */
export const ROLES = ["business_admin", "business_read_only", "business_approver"] as const satisfies readonly Role[];

/**
 * Roles form a chain: read_only ⊂ approver ⊂ admin. An API key's effective role is the lower of the key's
 * own role and its member's current role, so demoting a person demotes their keys at once.
 */
const ROLE_RANK: Readonly<Record<Role, number>> = { business_read_only: 0, business_approver: 1, business_admin: 2 };

export function lowerRole(a: Role, b: Role): Role {
  return ROLE_RANK[a] <= ROLE_RANK[b] ? a : b;
}

/** Every resource belongs to exactly one Business and one environment; all data access is scoped by this pair. */
export interface Tenant {
  readonly businessId: string;
  readonly environment: Environment;
}

export interface Actor extends Tenant {
  readonly userId: string;
  readonly membershipId: string;
  readonly role: Role;
  /** The API key that authenticated the request; null for a dashboard session. */
  readonly apiKeyId: string | null;
  /** The dashboard session that authenticated the request; null for an API key. */
  readonly sessionId: string | null;
  /** Where the request came from (for the audit log); null outside an HTTP request. */
  readonly clientAddress?: string | null;
  readonly userAgent?: string | null;
}

/**
 * What a route requires. `public`: nobody. `session`: a signed-in person's own session (their session,
 * password, two-factor), no API key. `read` and `write` mark every other route as authenticated by a key or
 * a session; which roles may call it is decided by the role-by-route table (route-roles.ts), and `read`
 * routes must be open to every role, `write` routes closed to `business_read_only` (checked at start-up).
 */
export type Access = "public" | "session" | "read" | "write";

export function tenantOf(actor: Actor): Tenant {
  return { businessId: actor.businessId, environment: actor.environment };
}
