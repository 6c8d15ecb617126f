// Fastify type extensions used across the HTTP layer.
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { Access, Actor } from "../auth/actor.js";
import type { SessionPrincipal } from "../auth/session.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the authentication hook; null on public routes and before authentication. */
    actor: Actor | null;
    /** The dashboard session that authenticated the request; null for an API key or a public route. */
    session: SessionPrincipal | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route. Routes under /v1/ default to "write" so a forgotten declaration fails closed. */
    access?: Access;
    /** Which rate limit applies: per tenant (default for authenticated routes) or per client address. */
    rateLimit?: "tenant" | "client_address" | "none";
    /** A session whose second factor is still owed may call this route (completing the sign-in). */
    allowTwoFactorPending?: boolean;
  }
}

export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
