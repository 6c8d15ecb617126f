// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read, sensitive } from "../../platform/auth/route-roles.js";

export const payoutLimitsRouteRoles = {
  // Everyone reads the limits and today's usage (approvers meet them); admins change them, with step-up.
  "GET /v1/payout-limits": read,
  "PUT /v1/payout-limits": sensitive,
} satisfies RouteRoles;
