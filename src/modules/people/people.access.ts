// Who may call each route of this module (the role-by-route table's entries; see platform/auth/route-roles.ts).
import { ADMINS, open, own, ownSensitive, type RouteRoles, read, sensitive } from "../../platform/auth/route-roles.js";

export const peopleRouteRoles = {
  // Public: no credential. Each throttles its own way (see the routes).
  "POST /v1/session": open,
  "POST /v1/password-resets": open,
  "POST /v1/password-resets/confirmation": open,
  "POST /v1/invitations/acceptance": open,
  // The person's own session, password and two-factor (a session, not an API key). Enrolling a second
  // factor (both steps) and regenerating recovery codes need step-up: each adds or replaces a credential, so
  // a stolen session without a recent proof cannot plant its own authenticator (issue 24).
  "GET /v1/session": own,
  "DELETE /v1/session": own,
  "POST /v1/session/business": own,
  "POST /v1/session/confirmation": own,
  "POST /v1/session/sign-out-everywhere": own,
  // Listing and ending one's own sessions: no step-up, since ending a session only takes access away.
  "GET /v1/session/sessions": own,
  "DELETE /v1/session/sessions/:sessionId": own,
  "PUT /v1/session/password": own,
  "POST /v1/session/two-factor": own,
  "POST /v1/session/two-factor/enrolment": ownSensitive,
  "POST /v1/session/two-factor/enrolment/confirmation": ownSensitive,
  "POST /v1/session/two-factor/disable": own,
  "POST /v1/session/two-factor/recovery-codes": ownSensitive,
  // Team, security settings and the audit log.
  "GET /v1/members": read,
  "PATCH /v1/members/:membershipId": sensitive,
  "DELETE /v1/members/:membershipId": sensitive,
  "GET /v1/invitations": { roles: ADMINS },
  "POST /v1/invitations": sensitive,
  "DELETE /v1/invitations/:invitationId": sensitive,
  "GET /v1/security-settings": read,
  "PUT /v1/security-settings": sensitive,
  "GET /v1/audit-records": { roles: ADMINS },
} satisfies RouteRoles;
