// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read, sensitive } from "../../platform/auth/route-roles.js";

export const controlChangesRouteRoles = {
  // Everyone sees what waits; admins approve (never the proposer) or discard, with step-up from a session.
  "GET /v1/control-changes": read,
  "GET /v1/control-changes/:id": read,
  "POST /v1/control-changes/:id/approve": sensitive,
  "POST /v1/control-changes/:id/discard": sensitive,
} satisfies RouteRoles;
