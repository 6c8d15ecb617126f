// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, write } from "../../platform/auth/route-roles.js";

export const enrollmentRouteRoles = {
  "POST /v1/beneficiaries/:id/enrollment": write,
} satisfies RouteRoles;
