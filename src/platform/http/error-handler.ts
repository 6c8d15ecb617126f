// Every failure leaves the service as the spec's envelope: AppErrors with their code, framework errors
// (bad JSON, wrong content type, oversized body, unknown route, wrong method) mapped onto the code
// table, and anything unexpected as a 500 that carries the request id and nothing internal.
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import type { Actor } from "../auth/actor.js";
import type { Clock } from "../clock.js";
import { isDatabaseUnreachable } from "../db/availability.js";
import {
  AppError,
  type ErrorCodeDefinition,
  type ErrorCodeRef,
  type ErrorDetail,
  errorDefinition,
  type PlatformErrorCode,
} from "../errors.js";
import type { IdGenerator } from "../ids.js";
import { type ActorBody, buildErrorBody } from "./envelope.js";
import type { AppInstance } from "./types.js";
import { ajvErrorsToDetails, RequestValidationError } from "./validation.js";

export function actorBody(actor: Actor | null): ActorBody | null {
  if (actor === null) return null;
  return { user_id: actor.userId, membership_id: actor.membershipId, role: actor.role, environment: actor.environment };
}

export interface ErrorHandlingDeps {
  readonly clock: Clock;
  readonly docsBaseUrl: string;
}

/** What an error answer needs: a code's status and default message (a platform code by name, a definition, an AppError). */
type ErrorAnswer = ErrorCodeRef | Pick<ErrorCodeDefinition, "code" | "status" | "message">;

export function sendError(
  deps: ErrorHandlingDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorAnswer,
  options: { message?: string; details?: readonly ErrorDetail[]; headers?: Readonly<Record<string, string>> } = {},
) {
  const info = typeof code === "string" ? errorDefinition(code) : code;
  reply.code(info.status);
  reply.header("x-request-id", request.id);
  if (options.headers) reply.headers(options.headers);
  return reply.send(
    buildErrorBody({
      code: info.code,
      message: options.message ?? info.message,
      requestId: String(request.id),
      occurredAt: deps.clock.now(),
      actor: actorBody(request.actor ?? null),
      details: options.details,
      docsBaseUrl: deps.docsBaseUrl,
    }),
  );
}

/** Maps framework error codes to our table. */
function classifyFrameworkError(error: FastifyError): { code: PlatformErrorCode; message?: string } | null {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { code: "unsupported_media_type" };
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { code: "payload_too_large" };
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { code: "bad_request", message: "The body is empty but Content-Type says JSON." };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return {
        code: "bad_request",
        message: "The body is not valid JSON: check it with a JSON validator (quotes, commas and brackets).",
      };
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return { code: "bad_request", message: "Content-Length does not match the body." };
    default:
      break;
  }
  if (error instanceof SyntaxError && error.statusCode === 400)
    return {
      code: "bad_request",
      message: "The body is not valid JSON: check it with a JSON validator (quotes, commas and brackets).",
    };
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
    if (error.statusCode === 404) return { code: "not_found" };
    if (error.statusCode === 413) return { code: "payload_too_large" };
    if (error.statusCode === 415) return { code: "unsupported_media_type" };
    return { code: "bad_request" };
  }
  return null;
}

/** Node's parser error codes for a request line or header block larger than the server accepts. */
const HEADER_OVERFLOW = new Set(["HPE_HEADER_OVERFLOW", "HPE_URI_TOO_LONG"]);

function classifyClientError(error: NodeJS.ErrnoException): { code: PlatformErrorCode; message: string } {
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return {
      code: "request_timeout",
      message: "The request was not received in time: its headers or body arrived too slowly, or never finished.",
    };
  }
  if (error.code !== undefined && HEADER_OVERFLOW.has(error.code)) {
    return {
      code: "request_header_too_large",
      message: "The request line and headers together exceed 16 KB: shorten the URL or the headers.",
    };
  }
  if (error.code === "HPE_INVALID_METHOD") {
    return { code: "bad_request", message: "The request method is not a valid HTTP method." };
  }
  return { code: "bad_request", message: "The request is not valid HTTP/1.1 (malformed request line or header)." };
}

/**
 * Node's `clientError`: a request the HTTP parser refuses before Fastify sees it (bad header bytes, an
 * oversized request line or header block, a request that did not arrive within the timeouts). Fastify's
 * default writes its own JSON; this writes the spec's envelope with a fresh request id, then closes the
 * connection, since the rest of its bytes cannot be trusted to start a new request. Like Node itself, it
 * writes nothing when a response has already started on the socket.
 */
export function createClientErrorHandler(deps: ErrorHandlingDeps & { readonly ids: IdGenerator }) {
  return function onClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const { code, message } = classifyClientError(error);
    const requestId = deps.ids.newId();
    this.log.info({ request_id: requestId, code, parser_error: error.code }, "client error");
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && (inFlight === undefined || inFlight === null || inFlight.headersSent !== true)) {
      const status = errorDefinition(code).status;
      const body = JSON.stringify(
        buildErrorBody({
          code,
          message,
          requestId,
          occurredAt: deps.clock.now(),
          actor: null,
          docsBaseUrl: deps.docsBaseUrl,
        }),
      );
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\n` +
          "Content-Type: application/json; charset=utf-8\r\n" +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\n` +
          "Connection: close\r\n\r\n" +
          body,
      );
    }
    socket.destroySoon();
  };
}

/**
 * Fastify's `frameworkErrors`: failures raised before routing (a path that does not percent-decode, a path
 * parameter longer than the router's maxParamLength), for which no hook runs. Without this they would
 * leave as Fastify's own JSON with no request id.
 */
export function createFrameworkErrorHandler(deps: ErrorHandlingDeps) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.header("x-request-id", request.id);
    if (error.code === "FST_ERR_BAD_URL" || error.code === "FST_ERR_MAX_PARAM_LENGTH") {
      return sendError(deps, request, reply, "bad_request", { message: "The request path is malformed." });
    }
    request.log.error({ err: error }, "framework error");
    return sendError(deps, request, reply, "internal_error");
  };
}

export function installErrorHandling(app: AppInstance, deps: ErrorHandlingDeps): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      // The error carries its code's status and message (from its definition): no table lookup here.
      return sendError(deps, request, reply, error, {
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
        headers: error.headers,
      });
    }
    if (error instanceof RequestValidationError) {
      const details = ajvErrorsToDetails(error.ajvErrors);
      const context = (error as { validationContext?: string }).validationContext;
      if (context === "params") {
        const field = details[0]?.field ?? "id";
        return sendError(deps, request, reply, "bad_request", {
          message: `Path parameter ${field} is malformed: ${details[0]?.message ?? "invalid value"}`,
          details,
        });
      }
      return sendError(deps, request, reply, "validation_failed", { details });
    }
    const framework = classifyFrameworkError(error);
    if (framework !== null) {
      return sendError(deps, request, reply, framework.code, framework.message ? { message: framework.message } : {});
    }
    if (isDatabaseUnreachable(error)) {
      request.log.error({ err: error }, "database unavailable");
      return sendError(deps, request, reply, "service_unavailable", { headers: { "retry-after": "5" } });
    }
    request.log.error({ err: error }, "unhandled error");
    return sendError(deps, request, reply, "internal_error");
  });

  // Fastify has no 405: keep our own router of every registered path so an unknown method on a known
  // path answers 405 with Allow, and only a truly unknown path answers 404.
  const knownPaths = FindMyWay({ ignoreTrailingSlash: true });
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const existing = methodsByPath.get(route.url);
    if (existing === undefined) {
      const set = new Set<string>();
      methodsByPath.set(route.url, set);
      knownPaths.on("GET", route.url, () => {}, { url: route.url });
    }
    for (const method of methods) methodsByPath.get(route.url)?.add(String(method));
  });

  /** The registered path that best matches `path` (static before parametric), with its methods. */
  const routeOfPath = (path: string): { url: string; methods: Set<string> } | null => {
    const match = knownPaths.find("GET" as HTTPMethod, path);
    const url = (match?.store as { url?: string } | undefined)?.url;
    const methods = url === undefined ? undefined : methodsByPath.get(url);
    return url === undefined || methods === undefined || methods.size === 0 ? null : { url, methods };
  };
  const methodNotAllowed = (request: FastifyRequest, reply: FastifyReply, path: string, methods: Set<string>) => {
    const allow = [...methods].join(", ");
    return sendError(deps, request, reply, "method_not_allowed", {
      message: `${request.method} is not allowed on ${path}. Allowed: ${allow}.`,
      headers: { allow },
    });
  };
  const answerUnrouted = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split("?")[0] ?? "/";
    const known = routeOfPath(path);
    if (known !== null) return methodNotAllowed(request, reply, path, known.methods);
    return sendError(deps, request, reply, "not_found", { message: `No route ${request.method} ${path}.` });
  };

  // First of the onRequest hooks (before authentication, and before Fastify reads a body: it would refuse a
  // QUERY request without Content-Type with a 400 of its own). Two cases answer here:
  // - no route for this method and path: 405 with Allow when the path exists for other methods, else 404;
  // - the router fell back to a parametric route (`/v1/payouts/:payoutId`) for a path that is itself a
  //   route for other methods (`POST /v1/payouts/bulk`): that is a wrong method, not a malformed id.
  app.addHook("onRequest", async (request, reply) => {
    if (request.is404) return answerUnrouted(request, reply);
    const path = request.url.split("?")[0] ?? "/";
    const known = routeOfPath(path);
    if (known !== null && known.url !== request.routeOptions.url && !known.methods.has(request.method)) {
      return methodNotAllowed(request, reply, path, known.methods);
    }
  });
  app.setNotFoundHandler((request, reply) => answerUnrouted(request, reply));
}
