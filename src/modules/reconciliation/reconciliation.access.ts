// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { DECIDERS, decide, type RouteRoles, read, sensitive } from "../../platform/auth/route-roles.js";

export const reconciliationRouteRoles = {
  // Statements in: approvers and admins (a finance person), keys included (a bank connector uploads).
  "POST /v1/bank-statements": { roles: DECIDERS },
  "GET /v1/bank-statements": read,
  "GET /v1/bank-statements/:id": read,
  "GET /v1/statement-lines": read,
  "GET /v1/statement-lines/:id": read,
  // Manual acts on a line: approvers and admins, step-up from a session, audited.
  "POST /v1/statement-lines/:id/match": decide,
  "POST /v1/statement-lines/:id/unmatch": decide,
  "POST /v1/statement-lines/:id/ignore": decide,
  // The starting balance moves money on the ledger: an admin, step-up.
  "POST /v1/bank-statements/:id/accept-opening-balance": sensitive,
  "POST /v1/bank-statements/:id/resolve-mismatch": decide,
} satisfies RouteRoles;
