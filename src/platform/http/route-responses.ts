// Builds a route's `response` schema: its success shapes plus every error status the route can return,
// each pointing at the shared error envelope. Declaring them here is what puts them in the OpenAPI
// document, and what lets the serializer emit the envelope for each status.
import { type TSchema, Type } from "@sinclair/typebox";
import type { Access } from "../auth/actor.js";
import { ERROR_CODES, type ErrorCode } from "../errors.js";
import { ERROR_CODES_KEYWORD } from "./openapi-document.js";

export interface ErrorResponseOptions {
  readonly access: Access;
  /** The route accepts a JSON body (so 413 and 415 apply). */
  readonly hasBody?: boolean;
  /** The route has path parameters or a query (so bad_request / validation_failed apply). */
  readonly hasInput?: boolean;
  /** Further codes this route can answer with. */
  readonly codes?: readonly ErrorCode[];
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
  const codes = new Set<ErrorCode>(["internal_error", "service_unavailable", "RATE_LIMITED"]);
  if (options.access !== "public") {
    codes.add("unauthorized");
    // A dashboard session: ended or expired, second factor owed.
    codes.add("SESSION_EXPIRED");
    codes.add("TWO_FACTOR_REQUIRED");
  }
  if (options.access === "read" || options.access === "write") {
    // A session request names its environment; the role-by-route table may refuse the caller's role.
    codes.add("ENVIRONMENT_REQUIRED");
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

  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
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
