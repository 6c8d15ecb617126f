// Fastify type extensions used across the HTTP layer.
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { Actor } from "../auth/actor.js";
import type { SessionPrincipal } from "../auth/session.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the authentication hook; null on public routes and before authentication. */
    actor: Actor | null;
    /** The dashboard session that authenticated the request; null for an API key or a public route. */
    session: SessionPrincipal | null;
  }
  interface FastifyContextConfig {
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
