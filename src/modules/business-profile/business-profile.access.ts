// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read, sensitive } from "../../platform/auth/route-roles.js";

export const businessProfileRouteRoles = {
  // The Business profile: everyone reads it; changing it is a setting (admins, step-up), Business-wide.
  "GET /v1/business": read,
  "PATCH /v1/business": sensitive,
} satisfies RouteRoles;
