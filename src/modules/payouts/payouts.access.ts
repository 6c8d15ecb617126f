// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { decide, type RouteRoles, read, sensitive, write } from "../../platform/auth/route-roles.js";

export const payoutsRouteRoles = {
  // Payouts: approvers read and decide; only admins create, cancel and set the policy.
  "GET /v1/payouts": read,
  "GET /v1/payouts/volume": read,
  "GET /v1/payouts/export": read,
  "POST /v1/payouts": write,
  "POST /v1/payouts/bulk": write,
  "GET /v1/payouts/:payoutId": read,
  "GET /v1/payouts/:payoutId/decisions": read,
  "POST /v1/payouts/:payoutId/decisions": decide,
  "POST /v1/payouts/:payoutId/approve": decide,
  "POST /v1/payouts/:payoutId/reject": decide,
  "POST /v1/payouts/:payoutId/cancel": write,
  "GET /v1/approval-policy": read,
  "PUT /v1/approval-policy": sensitive,
} satisfies RouteRoles;
