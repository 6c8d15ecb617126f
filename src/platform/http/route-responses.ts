// Builds a route's `response` schema: its success shapes plus every error status the route can return,
// each pointing at the shared error envelope. Declaring them here is what puts them in the OpenAPI
// document, and what lets the serializer emit the envelope for each status.
import { type TSchema, Type } from "@sinclair/typebox";
import type { Access } from "../auth/actor.js";
import { type ErrorCodeRef, type ErrorCodeTable, errorDefinition } from "../errors.js";
import { ERROR_CODES_KEYWORD } from "./openapi-document.js";
import type { AppInstance } from "./types.js";

export interface ErrorResponseOptions {
  readonly access: Access;
  /** The route accepts a JSON body (so 413 and 415 apply). */
  readonly hasBody?: boolean;
  /** The route has path parameters or a query (so bad_request / validation_failed apply). */
  readonly hasInput?: boolean;
  /** Further codes this route can answer with: a platform code by name, a module's by its definition. */
  readonly codes?: readonly ErrorCodeRef[];
}

const SUCCESS_DESCRIPTIONS: Readonly<Record<number, string>> = {
  200: "Success.",
  201: "Created.",
  202: "Accepted.",
  204: "Done; no body.",
};

export function routeResponses<S extends Record<number, TSchema>>(
  success: S,
  options: ErrorResponseOptions,
): S & Record<number, TSchema> {
  const codes = new Set<ErrorCodeRef>(["internal_error", "service_unavailable", "RATE_LIMITED"]);
  if (options.access !== "public") {
    codes.add("unauthorized");
    // A dashboard session: ended or expired, second factor owed.
    codes.add("SESSION_EXPIRED");
    codes.add("TWO_FACTOR_REQUIRED");
  }
  if (options.access === "read" || options.access === "write") {
    // A session request names its environment; the role-by-route table may refuse the caller's role.
    codes.add("ENVIRONMENT_REQUIRED");
    // An API key sent with an X-Environment naming another environment.
    codes.add("ENVIRONMENT_MISMATCH");
    codes.add("forbidden");
  }
  if (options.access === "write" || options.access === "session") {
    codes.add("CSRF_TOKEN_INVALID");
    codes.add("CROSS_SITE_REQUEST");
  }
  if (options.access === "session") codes.add("SESSION_REQUIRED");
  if (options.hasBody) {
    codes.add("validation_failed");
    codes.add("bad_request");
    codes.add("payload_too_large");
    codes.add("unsupported_media_type");
  }
  if (options.hasInput) {
    codes.add("validation_failed");
    codes.add("bad_request");
  }
  for (const code of options.codes ?? []) codes.add(code);

  const byStatus = new Map<number, string[]>();
  for (const ref of codes) {
    const { code, status } = errorDefinition(ref);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, schema] of Object.entries(success)) {
    // The response description in the OpenAPI document; a schema may carry its own.
    responses[Number(status)] =
      schema.description === undefined ? { ...schema, description: SUCCESS_DESCRIPTIONS[Number(status)] ?? "Success." } : schema;
  }
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = Type.Ref("ErrorEnvelope", {
      description: `Error envelope; code ${statusCodes.map((c) => `\`${c}\``).join(" or ")}.`,
      // Read by the OpenAPI transform (openapi.ts), which publishes them on the response as `x-error-codes`.
      [ERROR_CODES_KEYWORD]: statusCodes,
    });
  }
  return responses as S & Record<number, TSchema>;
}

/**
 * The start-up check of declared errors: every code a route declares (routeResponses) is in the assembled
 * code table, with the status it is declared under, so /docs/errors documents every code a route can answer.
 * A route declaring a code no module contributed stops the start.
 */
export function installDeclaredErrorCodeCheck(app: AppInstance, errorCodes: ErrorCodeTable): void {
  app.addHook("onRoute", (route) => {
    const responses = (route.schema?.response ?? {}) as Record<string, Record<string, unknown>>;
    for (const [status, response] of Object.entries(responses)) {
      const declared = response[ERROR_CODES_KEYWORD];
      if (!Array.isArray(declared)) continue;
      for (const code of declared as string[]) {
        const entry = errorCodes[code];
        if (entry === undefined || entry.status !== Number(status)) {
          throw new Error(
            `${String(route.method)} ${route.url} declares error code ${code} under ${status}, which the error-code table ${entry === undefined ? "does not hold" : `gives status ${entry.status}`}`,
          );
        }
      }
    }
  });
}
