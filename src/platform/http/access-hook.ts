// Authentication, authorization and rate limiting, in that order, before the body is even parsed:
// an unauthenticated caller learns nothing about body validation, and a throttled one costs no parsing.
//
// Two credentials reach the /v1 API: an API key (`Authorization: Bearer`) or a dashboard session (the
// session cookie). A session request names its environment (`X-Environment`), and an unsafe one carries
// the session's CSRF token (`X-CSRF-Token`) and must not come from another site (`Sec-Fetch-Site`). Which
// roles may call a route is the role-by-route table (route-roles.ts), for keys and sessions alike.
import type { FastifyRequest } from "fastify";
import type { Access, Actor } from "../auth/actor.js";
import { ENVIRONMENTS, type Environment } from "../auth/api-key-format.js";
import type { RouteRoleTable } from "../auth/route-roles.js";
import type { SessionAuthenticator } from "../auth/session.js";
import { AppError } from "../errors.js";
import { type RateLimiter, rateLimitHeaders } from "../rate-limit.js";
import type { AppInstance } from "./types.js";

export interface AccessDeps {
  readonly authenticate: (rawKey: string) => Promise<Omit<Actor, "clientAddress" | "userAgent"> | null>;
  readonly sessions: SessionAuthenticator;
  readonly tenantLimiter: RateLimiter;
  readonly clientAddressLimiter: RateLimiter;
  /** The role-by-route table, assembled from the modules' contributions. */
  readonly routeRoles: RouteRoleTable;
}

export const ENVIRONMENT_HEADER = "x-environment";
export const CSRF_HEADER = "x-csrf-token";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** `same-origin` (the dashboard itself) and `none` (typed or bookmarked) are the only acceptable origins. */
const ACCEPTED_FETCH_SITES = new Set(["same-origin", "none"]);

/** What the route requires, from the role-by-route table (the routes declare nothing themselves). */
function routeAccess(routeRoles: RouteRoleTable, request: FastifyRequest): Access {
  return routeRoles.accessOf(request.method, request.routeOptions.url ?? request.url);
}

// The auth-scheme name is case-insensitive (RFC 9110 section 11.1): "bearer <key>" is as valid as "Bearer <key>".
const BEARER = /^Bearer ([^\s]+)$/i;

function singleHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Refuses a cross-site unsafe request (login CSRF included): used by the sign-in routes too. */
export function refuseCrossSite(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const site = singleHeader(request, "sec-fetch-site");
  if (site !== undefined && !ACCEPTED_FETCH_SITES.has(site.toLowerCase())) {
    throw new AppError("CROSS_SITE_REQUEST");
  }
}

function readEnvironment(request: FastifyRequest): Environment {
  const raw = singleHeader(request, ENVIRONMENT_HEADER);
  if (raw === undefined || raw.trim() === "") {
    throw new AppError("ENVIRONMENT_REQUIRED", {
      message: "A session request must name its environment: send `X-Environment: sandbox` or `X-Environment: production`.",
    });
  }
  const environment = raw.trim().toLowerCase();
  if (!(ENVIRONMENTS as readonly string[]).includes(environment)) {
    throw new AppError("ENVIRONMENT_REQUIRED", {
      message: "`X-Environment` must be `sandbox` or `production`.",
    });
  }
  return environment as Environment;
}

/**
 * An API key decides its environment. A request that also names one in `X-Environment` and names another
 * (or an unknown one) is refused: serving it in the key's environment would silently act where the caller
 * did not mean to. The same header naming the key's own environment is harmless and accepted.
 */
function refuseDisagreeingEnvironment(request: FastifyRequest, keyEnvironment: Environment): void {
  const raw = singleHeader(request, ENVIRONMENT_HEADER);
  if (raw === undefined) return;
  const named = raw.trim().toLowerCase();
  if (named === keyEnvironment) return;
  throw new AppError("ENVIRONMENT_MISMATCH", {
    message: `This API key is a ${keyEnvironment} key, but X-Environment names ${JSON.stringify(raw.trim())}. Drop the X-Environment header (a key is always served in its own environment), or use a ${named === "production" || named === "sandbox" ? named : "sandbox or production"} key.`,
  });
}

export function installAccessControl(app: AppInstance, deps: AccessDeps): void {
  const { routeRoles } = deps;
  app.decorateRequest("actor", null);
  app.decorateRequest("session", null);

  // Every /v1 route must have an entry in the role-by-route table, or the application does not start.
  app.addHook("onRoute", (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      const problem = routeRoles.routeRuleProblem(method, route.url);
      if (problem !== null) throw new Error(problem);
    }
  });

  async function authenticateSession(request: FastifyRequest, access: Access): Promise<void> {
    // request.cookies: parsed by @fastify/cookie, registered before this hook (app.ts).
    const secret = request.cookies?.[deps.sessions.cookieName];
    if (secret === undefined || secret === "") {
      throw new AppError("unauthorized", {
        message: "Send `Authorization: Bearer <API_KEY>`, or sign in (POST /v1/session) and send the session cookie.",
      });
    }
    // The origin goes into the audit record when the session is found expired (and ended) here.
    const principal = await deps.sessions.authenticate(secret, {
      clientAddress: request.ip,
      userAgent: singleHeader(request, "user-agent") ?? null,
    });
    if (principal === null) throw new AppError("SESSION_EXPIRED");
    if (principal.twoFactorPending && request.routeOptions.config.allowTwoFactorPending !== true) {
      throw new AppError("TWO_FACTOR_REQUIRED");
    }
    if (!SAFE_METHODS.has(request.method)) {
      refuseCrossSite(request);
      const presented = singleHeader(request, CSRF_HEADER);
      if (presented === undefined || !deps.sessions.csrfTokenMatches(principal, presented)) {
        throw new AppError("CSRF_TOKEN_INVALID");
      }
    }
    request.session = principal;
    if (access === "session") {
      // The person's own routes: step-up is the only further condition (regenerating recovery codes).
      const entry = routeRoles.routeEntry(request.method, request.routeOptions.url ?? "");
      if (entry !== null && "access" in entry && entry.access === "session" && entry.stepUp === true) {
        if (!principal.recentlyConfirmed) throw new AppError("STEP_UP_REQUIRED");
      }
      return;
    }
    request.actor = {
      businessId: principal.businessId,
      environment: readEnvironment(request),
      userId: principal.userId,
      membershipId: principal.membershipId,
      role: principal.role,
      apiKeyId: null,
      sessionId: principal.sessionId,
      clientAddress: request.ip,
      userAgent: singleHeader(request, "user-agent") ?? null,
    };
  }

  function authorize(request: FastifyRequest, actor: Actor): void {
    const url = request.routeOptions.url ?? "";
    const rule = routeRoles.routeRule(request.method, url);
    if (rule === null) throw new AppError("forbidden", { message: "This route is not open to any role." });
    if (!rule.roles.includes(actor.role)) {
      throw new AppError("forbidden", { message: `The ${actor.role} role cannot make this request.` });
    }
    if (rule.stepUp === true && request.session !== null && !request.session.recentlyConfirmed) {
      throw new AppError("STEP_UP_REQUIRED");
    }
  }

  app.addHook("onRequest", async (request, reply) => {
    if (request.is404) return;
    const access = routeAccess(routeRoles, request);
    if (access !== "public") {
      const header = request.headers.authorization;
      if (header !== undefined) {
        if (access === "session") throw new AppError("SESSION_REQUIRED");
        const match = BEARER.exec(header);
        if (match === null || match[1] === undefined) {
          throw new AppError("unauthorized", { message: "Malformed Authorization header: expected `Bearer <API_KEY>`." });
        }
        const actor = await deps.authenticate(match[1]);
        if (actor === null) throw new AppError("unauthorized", { message: "The API key is invalid or revoked." });
        refuseDisagreeingEnvironment(request, actor.environment);
        request.actor = { ...actor, clientAddress: request.ip, userAgent: singleHeader(request, "user-agent") ?? null };
      } else {
        await authenticateSession(request, access);
      }
      if (request.actor !== null) authorize(request, request.actor);
    }

    const scope = request.routeOptions.config.rateLimit ?? (access === "public" ? "none" : "tenant");
    if (scope === "none") return;
    const tenantKey =
      request.actor !== null
        ? `${request.actor.businessId}:${request.actor.environment}`
        : request.session !== null
          ? `${request.session.businessId}:session`
          : null;
    const decision =
      scope === "tenant" && tenantKey !== null
        ? await deps.tenantLimiter.consume(tenantKey)
        : await deps.clientAddressLimiter.consume(request.ip);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw new AppError("RATE_LIMITED", { headers: { ...headers, "retry-after": String(decision.resetSeconds) } });
    }
    reply.headers(headers);
  });
}
