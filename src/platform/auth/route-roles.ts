// The role-by-route table: the one place that says who may call each /v1 route. A route is public (no
// credential), the signed-in person's own (a session, never an API key), or a Business route with the roles
// that may call it, for API keys and dashboard sessions alike; and whether a session needs a recent
// confirmation (step-up). Routes declare nothing about access themselves: the access hook, the OpenAPI
// document (`security`, `x-roles`, `x-step-up`) and the role-by-route test all read this table. A /v1 route
// without an entry stops the application from starting; a route outside /v1 (hosted pages, docs, health
// checks, metrics) is public.
//
// The platform knows no module's routes: each module declares the rule of each of its routes in
// `src/modules/<m>/<m>.access.ts` with the building blocks below, and `assembleRouteRoles` makes one table of
// those contributions (and the platform's own routes), refusing a route declared twice.
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

/** Every Business role; deciders (approvers and admins); admins alone. */
export const EVERYONE: readonly Role[] = ["business_admin", "business_approver", "business_read_only"];
export const DECIDERS: readonly Role[] = ["business_admin", "business_approver"];
export const ADMINS: readonly Role[] = ["business_admin"];

// The building blocks of the modules' tables.
/** Every role reads. */
export const read: RouteRule = { roles: EVERYONE };
/** Admins write. */
export const write: RouteRule = { roles: ADMINS };
/** Approvers and admins decide, with step-up from a session. */
export const decide: RouteRule = { roles: DECIDERS, stepUp: true };
/** A setting or a credential: admins, with step-up from a session. */
export const sensitive: RouteRule = { roles: ADMINS, stepUp: true };
/** No credential. */
export const open: PublicRouteRule = { access: "public" };
/** The signed-in person's own session. */
export const own: OwnSessionRouteRule = { access: "session" };
/** The signed-in person's own session, with step-up. */
export const ownSensitive: OwnSessionRouteRule = { access: "session", stepUp: true };

/** Keyed by `METHOD /path/template` as Fastify names the route. */
export type RouteRoles = Readonly<Record<string, RouteEntry>>;

/** The routes the platform registers itself (docs-routes.ts). */
export const PLATFORM_ROUTE_ROLES = {
  // Public: no credential.
  "GET /v1/openapi.json": open,
} satisfies RouteRoles;

/**
 * One table from the platform's routes and the modules' contributions, in the order given. A route declared
 * twice (by two modules, or twice by one) stops the start: two rules for one route would leave its access to
 * whichever came last.
 */
export function assembleRouteRoles(contributions: readonly RouteRoles[]): RouteRoles {
  const table: Record<string, RouteEntry> = {};
  for (const contribution of contributions) {
    for (const [route, entry] of Object.entries(contribution)) {
      if (Object.hasOwn(table, route)) throw new Error(`${route} is declared twice in the role-by-route table`);
      table[route] = entry;
    }
  }
  return table;
}

/** HEAD is answered by the GET route, with the GET route's rule. */
export function routeRuleKey(method: string, url: string): string {
  const upper = method.toUpperCase();
  return `${upper === "HEAD" ? "GET" : upper} ${url}`;
}

/** The questions the access hook and the OpenAPI document ask of the assembled table. */
export interface RouteRoleTable {
  readonly entries: RouteRoles;
  /** The entry of a route, or null (a /v1 route without one is refused at start-up). */
  routeEntry(method: string, url: string): RouteEntry | null;
  /** The rule of a Business route (roles), or null for a public or own-session route and for no entry. */
  routeRule(method: string, url: string): RouteRule | null;
  /**
   * What a route requires, from the table: `public`, `session`, or for a Business route `read` (GET) or
   * `write`. A route outside /v1 is public; a /v1 route without an entry is `write`, and refused to everyone
   * by the authorization step (the start-up check keeps such a route from existing).
   */
  accessOf(method: string, url: string): Access;
  /** Why a route cannot start, or null: every /v1 route must have an entry. */
  routeRuleProblem(method: string, url: string): string | null;
}

export function createRouteRoleTable(entries: RouteRoles): RouteRoleTable {
  const routeEntry = (method: string, url: string): RouteEntry | null => entries[routeRuleKey(method, url)] ?? null;
  return {
    entries,
    routeEntry,
    routeRule(method, url) {
      const entry = routeEntry(method, url);
      return entry !== null && "roles" in entry ? entry : null;
    },
    accessOf(method, url) {
      if (!url.startsWith("/v1/")) return "public";
      const entry = routeEntry(method, url);
      if (entry !== null && "access" in entry) return entry.access;
      const upper = method.toUpperCase();
      return upper === "GET" || upper === "HEAD" ? "read" : "write";
    },
    routeRuleProblem(method, url) {
      if (!url.startsWith("/v1/")) return null;
      if (routeEntry(method, url) === null) {
        return `${routeRuleKey(method, url)} has no entry in the role-by-route table (the module's <m>.access.ts)`;
      }
      return null;
    },
  };
}
