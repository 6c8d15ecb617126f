// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read, sensitive, write } from "../../platform/auth/route-roles.js";

export const collectionRouteRoles = {
  "POST /v1/beneficiaries/:id/collection-requests": write,
  "DELETE /v1/beneficiaries/:id/collection-requests/:requestId": write,
  // Branding of the hosted collection pages: a setting, so admins with step-up, like the security settings.
  "GET /v1/branding": read,
  "PATCH /v1/branding": sensitive,
} satisfies RouteRoles;
