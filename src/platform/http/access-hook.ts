// Authentication, authorization and rate limiting, in that order, before the body is even parsed:
// an unauthenticated caller learns nothing about body validation, and a throttled one costs no parsing.
import type { FastifyRequest } from "fastify";
import type { Access, Actor } from "../auth/actor.js";
import { roleMayWrite } from "../auth/actor.js";
import { AppError } from "../errors.js";
import { type RateLimiter, rateLimitHeaders } from "../rate-limit.js";
import type { AppInstance } from "./types.js";

export interface AccessDeps {
  readonly authenticate: (rawKey: string) => Promise<Actor | null>;
  readonly tenantLimiter: RateLimiter;
  readonly clientAddressLimiter: RateLimiter;
}

function routeAccess(request: FastifyRequest): Access {
  const declared = request.routeOptions.config.access;
  if (declared !== undefined) return declared;
  return request.url.startsWith("/v1/") ? "write" : "public";
}

// The auth-scheme name is case-insensitive (RFC 9110 section 11.1): "bearer <key>" is as valid as "Bearer <key>".
const BEARER = /^Bearer ([^\s]+)$/i;

export function installAccessControl(app: AppInstance, deps: AccessDeps): void {
  app.decorateRequest("actor", null);

  app.addHook("onRequest", async (request, reply) => {
    if (request.is404) return;
    const access = routeAccess(request);
    if (access !== "public") {
      const header = request.headers.authorization;
      const match = header === undefined ? null : BEARER.exec(header);
      if (match === null || match[1] === undefined) {
        throw new AppError("unauthorized", {
          message:
            header === undefined
              ? "Missing Authorization header: send `Authorization: Bearer <API_KEY>`."
              : "Malformed Authorization header: expected `Bearer <API_KEY>`.",
        });
      }
      const actor = await deps.authenticate(match[1]);
      if (actor === null) throw new AppError("unauthorized", { message: "The API key is invalid or revoked." });
      request.actor = actor;
      if (access === "write" && !roleMayWrite(actor.role)) {
        throw new AppError("forbidden", { message: `A ${actor.role} key can read but not write.` });
      }
    }

    const scope = request.routeOptions.config.rateLimit ?? (access === "public" ? "none" : "tenant");
    if (scope === "none") return;
    const decision =
      scope === "tenant" && request.actor !== null
        ? await deps.tenantLimiter.consume(`${request.actor.businessId}:${request.actor.environment}`)
        : await deps.clientAddressLimiter.consume(request.ip);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw new AppError("RATE_LIMITED", { headers: { ...headers, "retry-after": String(decision.resetSeconds) } });
    }
    reply.headers(headers);
  });
}
