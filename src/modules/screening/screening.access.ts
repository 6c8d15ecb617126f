// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
// The operator routes (/operator/...) are outside /v1: they take OPERATOR_TOKEN, not a key or a session.
import { type RouteRoles, read, sensitive } from "../../platform/auth/route-roles.js";

export const screeningRouteRoles = {
  "GET /v1/screening-hits": read,
  "GET /v1/screening-hits/:id": read,
  // Admins, with step-up from a session; never the person whose change was screened (maker-checker by person).
  "POST /v1/beneficiaries/:id/screening/clear": sensitive,
  "POST /v1/beneficiaries/:id/screening/confirm": sensitive,
} satisfies RouteRoles;
