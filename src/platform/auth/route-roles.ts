// The role-by-route table: the one place that says who may call each /v1 route. A route is public (no
// credential), the signed-in person's own (a session, never an API key), or a Business route with the roles
// that may call it, for API keys and dashboard sessions alike; and whether a session needs a recent
// confirmation (step-up). Routes declare nothing about access themselves: the access hook, the OpenAPI
// document (`security`, `x-roles`, `x-step-up`) and the role-by-route test all read this table. A /v1 route
// without an entry stops the application from starting; a route outside /v1 (hosted pages, docs, health
// checks, metrics) is public.
import type { Access, Role } from "./actor.js";

/** A Business route: which roles may call it. */
export interface RouteRule {
  readonly roles: readonly Role[];
  /**
   * From a session, the call needs a password or two-factor confirmation within the last few minutes
   * (STEP_UP_WINDOW_MINUTES). An API key is a credential kept by a machine: step-up does not apply to it.
   */
  readonly stepUp?: true;
}

/** No credential (sign-in, registration, password reset, invitation acceptance, the OpenAPI document). */
export interface PublicRouteRule {
  readonly access: "public";
}

/** The signed-in person's own session, password and two-factor: a session only (an API key gets 401). */
export interface OwnSessionRouteRule {
  readonly access: "session";
  /** A confirmation within the last STEP_UP_WINDOW_MINUTES is needed (else 401 STEP_UP_REQUIRED). */
  readonly stepUp?: true;
}

export type RouteEntry = RouteRule | PublicRouteRule | OwnSessionRouteRule;

const EVERYONE: readonly Role[] = ["business_admin", "business_approver", "business_read_only"];
const DECIDERS: readonly Role[] = ["business_admin", "business_approver"];
const ADMINS: readonly Role[] = ["business_admin"];

const read: RouteRule = { roles: EVERYONE };
const write: RouteRule = { roles: ADMINS };
const decide: RouteRule = { roles: DECIDERS, stepUp: true };
const sensitive: RouteRule = { roles: ADMINS, stepUp: true };
const open: PublicRouteRule = { access: "public" };
const own: OwnSessionRouteRule = { access: "session" };
const ownSensitive: OwnSessionRouteRule = { access: "session", stepUp: true };

/** Keyed by `METHOD /path/template` as Fastify names the route. */
export const ROUTE_ROLES: Readonly<Record<string, RouteEntry>> = {
  // Public: no credential. Each throttles its own way (see the routes).
  "GET /v1/openapi.json": open,
  "POST /v1/registration": open,
  "POST /v1/registration/verification": open,
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
  // The Business profile: everyone reads it; changing it is a setting (admins, step-up), Business-wide.
  "GET /v1/business": read,
  "PATCH /v1/business": sensitive,
  // API keys: admins only; creating and revoking need step-up.
  "GET /v1/api-keys": read,
  "POST /v1/api-keys": sensitive,
  "DELETE /v1/api-keys/:id": sensitive,
  // Beneficiaries and their destinations.
  "GET /v1/beneficiaries": read,
  "POST /v1/beneficiaries": write,
  "GET /v1/beneficiaries/:id": read,
  "PUT /v1/beneficiaries/:id": write,
  "POST /v1/beneficiaries/:id/acknowledge": write,
  "POST /v1/beneficiaries/:id/archive": write,
  "POST /v1/beneficiaries/:id/unarchive": write,
  "GET /v1/beneficiaries/export": read,
  "POST /v1/beneficiaries/import": write,
  "POST /v1/beneficiaries/:id/enrollment": write,
  "POST /v1/beneficiaries/:id/collection-requests": write,
  "DELETE /v1/beneficiaries/:id/collection-requests/:requestId": write,
  // Branding of the hosted collection pages: a setting, so admins with step-up, like the security settings.
  "GET /v1/branding": read,
  "PATCH /v1/branding": sensitive,
  "GET /v1/beneficiaries/:id/bank-accounts": read,
  "POST /v1/beneficiaries/:id/bank-accounts": write,
  "POST /v1/beneficiaries/:id/cards": write,
  "DELETE /v1/beneficiaries/:id/bank-accounts/:accountId": write,
  "POST /v1/beneficiaries/:id/bank-accounts/:accountId/notification-of-change/apply": write,
  "PUT /v1/beneficiaries/:id/declared-destination": write,
  // Payouts: approvers read and decide; only admins create, cancel and set the policy.
  "GET /v1/payouts": read,
  "GET /v1/payouts/volume": read,
  "POST /v1/payouts": write,
  "POST /v1/payouts/bulk": write,
  "GET /v1/payouts/:payoutId": read,
  "GET /v1/payouts/:payoutId/decisions": read,
  "POST /v1/payouts/:payoutId/decisions": decide,
  "POST /v1/payouts/:payoutId/approve": decide,
  "POST /v1/payouts/:payoutId/reject": decide,
  "POST /v1/payouts/:payoutId/cancel": write,
  "GET /v1/approval-policy": read,
  "PUT /v1/approval-policy": sensitive,
  // Webhooks: creating the endpoint (or rotating its secret) needs step-up.
  "GET /v1/webhook-subscriptions": read,
  "POST /v1/webhook-subscriptions": sensitive,
  "PATCH /v1/webhook-subscriptions": write,
  "DELETE /v1/webhook-subscriptions": write,
  "GET /v1/webhook-deliveries": read,
  "GET /v1/webhook-deliveries/:id": read,
  "POST /v1/webhook-deliveries/:id/redeliver": write,
  // Events (catch-up and the feed): everyone reads.
  "GET /v1/events": read,
  "GET /v1/events/:id": read,
  // Bank rails: admins configure and remove them (step-up from a session, since they decide where payment
  // files go); everyone reads them and the files' metadata; only admins download a file's bytes.
  "GET /v1/bank-rails": read,
  "PUT /v1/bank-rails/sepa": sensitive,
  "PUT /v1/bank-rails/ach": sensitive,
  "GET /v1/bank-rails/sepa": read,
  "GET /v1/bank-rails/ach": read,
  "DELETE /v1/bank-rails/sepa": sensitive,
  "DELETE /v1/bank-rails/ach": sensitive,
  "GET /v1/bank-files": read,
  "GET /v1/bank-files/:id": read,
  "GET /v1/bank-files/:id/content": { roles: ADMINS },
  "GET /v1/bank-inbound-files": read,
  "GET /v1/bank-inbound-files/:id": read,
  // The sandbox mailbox.
  "GET /v1/sandbox/emails": read,
  "GET /v1/sandbox/emails/:id": read,
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
};

/** HEAD is answered by the GET route, with the GET route's rule. */
export function routeRuleKey(method: string, url: string): string {
  const upper = method.toUpperCase();
  return `${upper === "HEAD" ? "GET" : upper} ${url}`;
}

/** The entry of a route, or null (a /v1 route without one is refused at start-up). */
export function routeEntry(method: string, url: string): RouteEntry | null {
  return ROUTE_ROLES[routeRuleKey(method, url)] ?? null;
}

/** The rule of a Business route (roles), or null for a public or own-session route and for no entry. */
export function routeRule(method: string, url: string): RouteRule | null {
  const entry = routeEntry(method, url);
  return entry !== null && "roles" in entry ? entry : null;
}

/**
 * What a route requires, from the table: `public`, `session`, or for a Business route `read` (GET) or
 * `write`. A route outside /v1 is public; a /v1 route without an entry is `write`, and refused to everyone
 * by the authorization step (the start-up check keeps such a route from existing).
 */
export function accessOf(method: string, url: string): Access {
  if (!url.startsWith("/v1/")) return "public";
  const entry = routeEntry(method, url);
  if (entry !== null && "access" in entry) return entry.access;
  const upper = method.toUpperCase();
  return upper === "GET" || upper === "HEAD" ? "read" : "write";
}

/** Why a route cannot start, or null: every /v1 route must have an entry. */
export function routeRuleProblem(method: string, url: string): string | null {
  if (!url.startsWith("/v1/")) return null;
  if (routeEntry(method, url) === null) {
    return `${routeRuleKey(method, url)} has no entry in the role-by-route table (route-roles.ts)`;
  }
  return null;
}
