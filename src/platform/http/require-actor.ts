import type { FastifyRequest } from "fastify";
import type { Actor } from "../auth/actor.js";
import { AppError } from "../errors.js";

/** The authenticated caller of a non-public route (the access hook guarantees one; this fails closed if not). */
export function requireActor(request: FastifyRequest): Actor {
  if (request.actor === null) throw new AppError("unauthorized");
  return request.actor;
}
