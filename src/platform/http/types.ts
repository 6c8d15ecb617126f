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

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the authentication hook; null on public routes and before authentication. */
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route. Routes under /v1/ default to "write" so a forgotten declaration fails closed. */
    access?: Access;
    /** Which rate limit applies: per tenant (default for authenticated routes) or per client address. */
    rateLimit?: "tenant" | "client_address" | "none";
  }
}

export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
