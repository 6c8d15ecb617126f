// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read } from "../../platform/auth/route-roles.js";

export const eventsRouteRoles = {
  // Events (catch-up and the feed): everyone reads.
  "GET /v1/events": read,
  "GET /v1/events/:id": read,
} satisfies RouteRoles;
