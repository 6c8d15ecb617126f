// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { decide, type RouteRoles, read, sensitive, write } from "../../platform/auth/route-roles.js";

export const destinationsRouteRoles = {
  // A Beneficiary's destinations.
  "GET /v1/beneficiaries/:id/bank-accounts": read,
  "POST /v1/beneficiaries/:id/bank-accounts": write,
  "POST /v1/beneficiaries/:id/cards": write,
  "DELETE /v1/beneficiaries/:id/bank-accounts/:accountId": write,
  "POST /v1/beneficiaries/:id/bank-accounts/:accountId/notification-of-change/apply": write,
  "PUT /v1/beneficiaries/:id/declared-destination": write,
  // Approval of bank details (destination policy): approvers and admins decide, with step-up from a session.
  "GET /v1/bank-account-approvals": read,
  "POST /v1/beneficiaries/:id/bank-accounts/:accountId/approve": decide,
  "POST /v1/beneficiaries/:id/bank-accounts/:accountId/reject": decide,
  // The destination policy: a control; admins change it, with step-up from a session.
  "GET /v1/destination-policy": read,
  "PUT /v1/destination-policy": sensitive,
} satisfies RouteRoles;
