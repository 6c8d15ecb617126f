// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read, sensitive, write } from "../../platform/auth/route-roles.js";

export const fundingRouteRoles = {
  // Funding accounts: everyone reads balances and transfers; settings are an admin's, with step-up.
  "GET /v1/funding-accounts": read,
  "GET /v1/funding-accounts/:id": read,
  "PATCH /v1/funding-accounts/:id": sensitive,
  "GET /v1/funding-accounts/:id/balance": read,
  "GET /v1/funding-accounts/:id/transfers": read,
  // Sandbox only: money from nowhere, to test payouts that wait for funds.
  "POST /v1/sandbox/funding-accounts/:id/credits": write,
} satisfies RouteRoles;
