// Who is calling, as decided by the API key: the Business, the environment and the role.
import type { Environment } from "./api-key-format.js";

export type Role = "business_admin" | "business_read_only";
export const ROLES = ["business_admin", "business_read_only"] as const satisfies readonly Role[];

/** Every resource belongs to exactly one Business and one environment; all data access is scoped by this pair. */
export interface Tenant {
  readonly businessId: string;
  readonly environment: Environment;
}

export interface Actor extends Tenant {
  readonly userId: string;
  readonly membershipId: string;
  readonly role: Role;
  readonly apiKeyId: string;
}

/** What a route requires: no key, any valid key, or a key whose role may write. */
export type Access = "public" | "read" | "write";

export function roleMayWrite(role: Role): boolean {
  return role === "business_admin";
}

export function tenantOf(actor: Actor): Tenant {
  return { businessId: actor.businessId, environment: actor.environment };
}
