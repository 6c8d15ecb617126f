// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { ADMINS, type RouteRoles, read, sensitive } from "../../platform/auth/route-roles.js";

export const bankRailsRouteRoles = {
  // Bank rails: admins configure and remove them (step-up from a session, since they decide where payment
  // files go); everyone reads them and the files' metadata; only admins download a file's bytes.
  "GET /v1/bank-rails": read,
  "PUT /v1/bank-rails/sepa": sensitive,
  "PUT /v1/bank-rails/ach": sensitive,
  "GET /v1/bank-rails/sepa": read,
  "GET /v1/bank-rails/ach": read,
  "DELETE /v1/bank-rails/sepa": sensitive,
  "DELETE /v1/bank-rails/ach": sensitive,
  // Contacts the server with the stored credentials: as sensitive as configuring it.
  "POST /v1/bank-rails/sepa/test-connection": sensitive,
  "POST /v1/bank-rails/ach/test-connection": sensitive,
  "GET /v1/bank-files": read,
  "GET /v1/bank-files/:id": read,
  "GET /v1/bank-files/:id/content": { roles: ADMINS },
  "GET /v1/bank-inbound-files": read,
  "GET /v1/bank-inbound-files/:id": read,
} satisfies RouteRoles;
