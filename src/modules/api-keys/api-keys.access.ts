// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read, sensitive } from "../../platform/auth/route-roles.js";

export const apiKeysRouteRoles = {
  // API keys: admins only; creating and revoking need step-up.
  "GET /v1/api-keys": read,
  "POST /v1/api-keys": sensitive,
  "DELETE /v1/api-keys/:id": sensitive,
} satisfies RouteRoles;
