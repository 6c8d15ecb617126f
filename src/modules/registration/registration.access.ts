// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { open, type RouteRoles } from "../../platform/auth/route-roles.js";

export const registrationRouteRoles = {
  // Public: no credential. Each throttles its own way (see the routes).
  "POST /v1/registration": open,
  "POST /v1/registration/verification": open,
} satisfies RouteRoles;
