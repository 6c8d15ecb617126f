// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { decide, type RouteRoles, read, write } from "../../platform/auth/route-roles.js";

export const topUpsRouteRoles = {
  // Admins record a top-up; approvers and admins decide it (step-up from a session), never the person who recorded it.
  "POST /v1/funding-accounts/:id/top-ups": write,
  "GET /v1/top-ups": read,
  "GET /v1/top-ups/:id": read,
  "POST /v1/top-ups/:id/approve": decide,
  "POST /v1/top-ups/:id/reject": decide,
} satisfies RouteRoles;
