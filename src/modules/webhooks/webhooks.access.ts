// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { type RouteRoles, read, sensitive, write } from "../../platform/auth/route-roles.js";

export const webhooksRouteRoles = {
  // Webhooks: creating the endpoint (or rotating its secret) needs step-up.
  "GET /v1/webhook-subscriptions": read,
  "POST /v1/webhook-subscriptions": sensitive,
  "PATCH /v1/webhook-subscriptions": write,
  "DELETE /v1/webhook-subscriptions": write,
  "GET /v1/webhook-deliveries": read,
  "GET /v1/webhook-deliveries/:id": read,
  "POST /v1/webhook-deliveries/:id/redeliver": write,
} satisfies RouteRoles;
