// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read } from "../../platform/auth/route-roles.js";

export const emailsRouteRoles = {
  // The sandbox mailbox.
  "GET /v1/sandbox/emails": read,
  "GET /v1/sandbox/emails/:id": read,
} satisfies RouteRoles;
