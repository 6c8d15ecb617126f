// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read, write } from "../../platform/auth/route-roles.js";

export const destinationsRouteRoles = {
  // A Beneficiary's destinations.
  "GET /v1/beneficiaries/:id/bank-accounts": read,
  "POST /v1/beneficiaries/:id/bank-accounts": write,
  "POST /v1/beneficiaries/:id/cards": write,
  "DELETE /v1/beneficiaries/:id/bank-accounts/:accountId": write,
  "POST /v1/beneficiaries/:id/bank-accounts/:accountId/notification-of-change/apply": write,
  "PUT /v1/beneficiaries/:id/declared-destination": write,
} satisfies RouteRoles;
