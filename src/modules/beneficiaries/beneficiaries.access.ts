// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read, write } from "../../platform/auth/route-roles.js";

export const beneficiariesRouteRoles = {
  // Beneficiaries and their destinations.
  "GET /v1/beneficiaries": read,
  "POST /v1/beneficiaries": write,
  "GET /v1/beneficiaries/:id": read,
  "PUT /v1/beneficiaries/:id": write,
  "POST /v1/beneficiaries/:id/acknowledge": write,
  "POST /v1/beneficiaries/:id/archive": write,
  "POST /v1/beneficiaries/:id/unarchive": write,
} satisfies RouteRoles;
