// The role-by-route table: the one place that says which roles may call each authenticated route, for API
// keys and dashboard sessions alike, and which routes need a recent confirmation (step-up) from a session.
// The access hook applies it; the OpenAPI document shows it (`x-roles`, `x-step-up`); a test checks that
// every route of the application has exactly one entry. A route missing here is refused to everyone, so a
// forgotten entry fails closed.
import type { Role } from "./actor.js";

export interface RouteRule {
  readonly roles: readonly Role[];
  /**
   * From a session, the call needs a password or two-factor confirmation within the last few minutes
   * (STEP_UP_WINDOW_MINUTES). An API key is a credential kept by a machine: step-up does not apply to it.
   */
  readonly stepUp?: true;
}

const EVERYONE: readonly Role[] = ["business_admin", "business_approver", "business_read_only"];
const DECIDERS: readonly Role[] = ["business_admin", "business_approver"];
const ADMINS: readonly Role[] = ["business_admin"];

const read: RouteRule = { roles: EVERYONE };
const write: RouteRule = { roles: ADMINS };
const decide: RouteRule = { roles: DECIDERS, stepUp: true };
const sensitive: RouteRule = { roles: ADMINS, stepUp: true };

/** Keyed by `METHOD /path/template` as Fastify names the route. */
export const ROUTE_ROLES: Readonly<Record<string, RouteRule>> = {
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
  "GET /v1/beneficiaries/:id/bank-accounts": read,
  "POST /v1/beneficiaries/:id/bank-accounts": write,
  "POST /v1/beneficiaries/:id/cards": write,
  "DELETE /v1/beneficiaries/:id/bank-accounts/:accountId": write,
  "PUT /v1/beneficiaries/:id/declared-destination": write,
  // Payouts: approvers read and decide; only admins create, cancel and set the policy.
  "GET /v1/payouts": read,
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

/**
 * Why a declared route disagrees with the table, or null. A `read` route is open to every role; a `write`
 * route is closed to `business_read_only`; every authenticated /v1 route has an entry.
 */
export function routeRuleProblem(method: string, url: string, access: string): string | null {
  if (access !== "read" && access !== "write") return null;
  const rule = routeRule(method, url);
  if (rule === null) return `${routeRuleKey(method, url)} has no entry in the role-by-route table (route-roles.ts)`;
  const readOnlyAllowed = rule.roles.includes("business_read_only");
  if (access === "read" && !readOnlyAllowed && method.toUpperCase() !== "GET" && method.toUpperCase() !== "HEAD") {
    return `${routeRuleKey(method, url)} is declared read but closed to business_read_only`;
  }
  if (access === "write" && readOnlyAllowed) {
    return `${routeRuleKey(method, url)} is declared write but the table opens it to business_read_only`;
  }
  return null;
}

export function routeRule(method: string, url: string): RouteRule | null {
  return ROUTE_ROLES[routeRuleKey(method, url)] ?? null;
}
