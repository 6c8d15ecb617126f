// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read } from "../../platform/auth/route-roles.js";

export const beneficiaryExportRouteRoles = {
  "GET /v1/beneficiaries/export": read,
} satisfies RouteRoles;
