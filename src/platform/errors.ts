// One error type, and one code table assembled from what the platform and the modules contribute. Only the
// HTTP layer turns a code into a status; the docs page /docs/errors is generated from the assembled table, so a
// code cannot exist without its documentation.
//
// Who owns a code: the platform keeps the generic codes it throws itself (validation, authentication and
// sessions, rate limiting, not found, internal and unavailable); every other code belongs to the module whose
// rule it is, in `src/modules/<m>/<m>.errors.ts`, and another module that throws or declares it imports the
// owner's table from the owner's index.ts. A throw site names a platform code by its name
// (`new AppError("not_found")`) and a module's code by its definition (`new AppError(PAYOUT_ERRORS.PAYOUT_NOT_CANCELABLE)`):
// the definition carries its status and message, so an error needs no global table to be answered, and a
// misspelt code fails the type check either way. `assembleErrorCodes` makes the one table /docs/errors, the
// OpenAPI `x-error-codes` check and the start-up check read, and refuses a code declared twice.

export interface ErrorCodeInfo {
  readonly status: number;
  /** Default human-readable message; a throw site may give a more specific one. */
  readonly message: string;
  /** When a client meets this code and what to do about it (rendered on /docs/errors). */
  readonly description: string;
}

/** One code with its entry: what a throw site and a route's declared errors name. */
export interface ErrorCodeDefinition<C extends string = string> extends ErrorCodeInfo {
  readonly code: C;
}

/** A contribution to the code table: each entry knows its own code. */
export type ErrorCodeTable = Readonly<Record<string, ErrorCodeDefinition>>;

/** Gives each entry its code (the key), so a throw site can pass the entry alone. */
export function defineErrorCodes<const T extends Readonly<Record<string, ErrorCodeInfo>>>(
  infos: T,
): { readonly [K in keyof T & string]: T[K] & ErrorCodeDefinition<K> } {
  return Object.fromEntries(Object.entries(infos).map(([code, info]) => [code, { code, ...info }])) as {
    readonly [K in keyof T & string]: T[K] & ErrorCodeDefinition<K>;
  };
}

/** The codes the platform itself throws. */
export const PLATFORM_ERRORS = defineErrorCodes({
  validation_failed: {
    status: 400,
    message: "The request failed validation: details names each field and what it expects.",
    description:
      "The body, query or a header did not match the schema. `details` lists each problem with the field path (a JSON path such as `rows[3].external_ref`, a query parameter or a header name), a stable code (required, invalid_type, invalid_uuid, invalid_enum, invalid_format, too_long, too_short, out_of_range, unknown_field, too_many_items, too_few_items, invalid_character, invalid_encoding, `blank` for a name of spaces or invisible characters only: every name field must contain a letter or digit, and `low_contrast` for a brand colour too light for white text) and a message. `invalid_character`: the text holds U+0000, an unpaired surrogate, a control character, or a tab or line break in a single-line field (every field except those documented as free text, and every query parameter and header). `invalid_encoding`: a query parameter or header is not percent-encoded UTF-8. Date-times are RFC 3339 with a time zone, between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, seconds 00 to 59.",
  },
  bad_request: {
    status: 400,
    message: "The request is malformed.",
    description:
      "For example a path id that is not a UUID, a body that is not valid JSON or not valid UTF-8, a JSON body holding a `__proto__` key (or a `constructor` key holding `prototype`: refused as an attempt at prototype pollution; rename the key), or a request the HTTP parser refuses (an invalid method or header bytes); the connection is then closed.",
  },
  unauthorized: {
    status: 401,
    message: "A valid API key is required.",
    description:
      "The `Authorization: Bearer <API_KEY>` header is missing, malformed, or names an unknown or revoked key. `actor` is null. Operator endpoints answer the same way for a missing or wrong operator token (`METRICS_TOKEN` for `/metrics`, `SIMULATOR_CONTROL_TOKEN` for the simulator control endpoint).",
  },
  forbidden: {
    status: 403,
    message: "This API key's role cannot make this request: use a key or a member with a role that can.",
    description:
      "The key authenticated, but its role does not allow the call (a `business_read_only` key never writes), or the route exists only in the other environment (the sandbox mailbox, `/v1/sandbox/emails`, answers a production key this way).",
  },
  not_found: {
    status: 404,
    message:
      "The resource does not exist (for this Business and environment): check the id, and that the key or environment is the one it was created in.",
    description:
      "No such resource for the caller's Business and environment. A resource of another Business or of the other environment answers exactly the same way.",
  },
  method_not_allowed: {
    status: 405,
    message: "This method is not allowed on this path: the Allow header lists the methods it accepts.",
    description: "The path exists but not with this HTTP method; the `Allow` header lists the methods it accepts.",
  },
  payload_too_large: {
    status: 413,
    message:
      "The request body is too large: send a smaller body (BODY_LIMIT_BYTES, 2 MiB by default), for example split a bulk upload.",
    description: "The body exceeds the configured size limit (BODY_LIMIT_BYTES, 2 MiB by default).",
  },
  unsupported_media_type: {
    status: 415,
    message: "The request body must be JSON (Content-Type: application/json).",
    description:
      "A body was sent with a content type other than `application/json`, with a `charset` other than UTF-8, or with a `Content-Encoding` other than `identity` (compressed request bodies are not accepted).",
  },
  request_timeout: {
    status: 408,
    message: "The request was not received in time.",
    description:
      "The headers did not arrive within HEADERS_TIMEOUT_MS (10 s by default) or the whole request within REQUEST_TIMEOUT_MS (30 s by default). The connection is closed; send the request again on a new connection.",
  },
  request_header_too_large: {
    status: 431,
    message: "The request line and headers are too large.",
    description:
      "The request line (URL) and headers together exceed 16 KB. Shorten the URL (fewer or shorter query parameters) or the headers. The connection is closed.",
  },
  RATE_LIMITED: {
    status: 429,
    message: "Too many requests. Retry after the time given in Retry-After.",
    description:
      "The request rate of this Business and environment (or, for registration, of this client address) exceeded the limit. `Retry-After` gives the seconds to wait; `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` describe the window.",
  },
  SESSION_EXPIRED: {
    status: 401,
    message: "The session has ended or expired. Sign in again.",
    description:
      "The session cookie names a session that was signed out, ended everywhere, ended by a password change, a change of role or a removal from the Business, or that passed its idle timeout (SESSION_IDLE_MINUTES, 30 by default) or its absolute lifetime (SESSION_ABSOLUTE_HOURS, 12 by default). Sign in again with `POST /v1/session`.",
  },
  SESSION_REQUIRED: {
    status: 401,
    message: "This route is for a signed-in person's session, not an API key.",
    description:
      "Routes about a person's own session, password and two-factor authentication take the session cookie from `POST /v1/session`; an API key is not a person.",
  },
  ENVIRONMENT_REQUIRED: {
    status: 400,
    message: "A session request must name its environment in the X-Environment header.",
    description:
      "An API key carries its environment; a dashboard session does not, so each of its requests names one: `X-Environment: sandbox` or `X-Environment: production`. A missing, empty or unknown value is refused.",
  },
  ENVIRONMENT_MISMATCH: {
    status: 400,
    message:
      "The X-Environment header disagrees with the API key's environment. Drop the header, or use a key of that environment.",
    description:
      "An API key belongs to one environment (`pok_sandbox_…` to sandbox, `pok_production_…` to production) and is always served in it. A request that sends such a key with an `X-Environment` header naming another environment (or an unknown one) is refused rather than silently served in the key's environment: send no `X-Environment` with an API key, or create a key in the environment you meant (Developers, API keys).",
  },
  CSRF_TOKEN_INVALID: {
    status: 403,
    message: "The X-CSRF-Token header is missing or does not match the session.",
    description:
      "Every POST, PUT, PATCH and DELETE made with a session cookie carries the session's CSRF token (`csrf_token` of `POST /v1/session` and `GET /v1/session`) in `X-CSRF-Token`, so another site cannot make the browser act with the cookie.",
  },
  CROSS_SITE_REQUEST: {
    status: 403,
    message: "Cross-site requests are refused.",
    description:
      "The browser marked the request `Sec-Fetch-Site: cross-site` or `same-site`: another site tried to act with the session cookie (or to sign in for the person). Only the dashboard's own pages (`same-origin`) and direct requests (`none`, or no header) are served.",
  },
  STEP_UP_REQUIRED: {
    status: 401,
    message: "Confirm your password or a two-factor code first (POST /v1/session/confirmation).",
    description:
      "Deciding payouts, creating or revoking API keys, rotating the webhook secret, changing the approval policy, the team or the security settings, and enrolling a second factor, from a session needs a confirmation made within the last STEP_UP_WINDOW_MINUTES (5 by default): a two-factor code or recovery code for a person who uses two-factor authentication, else the password. Confirm with `POST /v1/session/confirmation`, then repeat the request. API keys are not asked.",
  },
  TWO_FACTOR_REQUIRED: {
    status: 401,
    message: "Enter a two-factor code to finish signing in (POST /v1/session/two-factor).",
    description:
      "The password was right and the person has two-factor authentication: the session can do nothing but `POST /v1/session/two-factor` with a code from the authenticator app or a recovery code.",
  },
  internal_error: {
    status: 500,
    message: "An unexpected error occurred. Quote the request_id when contacting support.",
    description: "Something failed on our side. Nothing of the request was stored. Retrying is safe.",
  },
  service_unavailable: {
    status: 503,
    message: "The service is temporarily unavailable. Nothing was kept; retry shortly.",
    description:
      "The database is unreachable (down, restarting, or not reached yet by a process that is starting), or the process is shutting down. Nothing of the request was kept. Retry shortly.",
  },
});

export type PlatformErrorCode = keyof typeof PLATFORM_ERRORS;

/** What a throw site names: a platform code by its name, or a module's code by its definition. */
export type ErrorCodeRef = PlatformErrorCode | ErrorCodeDefinition;

export function errorDefinition(ref: ErrorCodeRef): ErrorCodeDefinition {
  return typeof ref === "string" ? PLATFORM_ERRORS[ref] : ref;
}

/**
 * One table from the platform's codes and the modules' contributions, in the order given (the order of
 * /docs/errors). A code declared twice stops the start: two entries would document one code two ways.
 */
export function assembleErrorCodes(contributions: readonly ErrorCodeTable[]): ErrorCodeTable {
  const table: Record<string, ErrorCodeDefinition> = {};
  for (const contribution of contributions) {
    for (const [code, definition] of Object.entries(contribution)) {
      if (Object.hasOwn(table, code)) throw new Error(`error code ${code} is declared twice`);
      table[code] = definition;
    }
  }
  return table;
}

export interface ErrorDetail {
  readonly field: string;
  readonly code: string;
  readonly message: string;
  /** A limit refusal: the limit, in minor units. */
  readonly limit_minor?: number;
  /** A daily limit refusal: what the day already took, in minor units. */
  readonly used_minor?: number;
}

export interface AppErrorOptions {
  readonly message?: string;
  readonly details?: readonly ErrorDetail[];
  /** Extra response headers, e.g. Retry-After for RATE_LIMITED. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

export class AppError extends Error {
  override readonly name = "AppError";
  readonly code: string;
  /** The HTTP status of the code, from its definition. */
  readonly status: number;
  readonly details: readonly ErrorDetail[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCodeRef, options: AppErrorOptions = {}) {
    const definition = errorDefinition(code);
    super(options.message ?? definition.message, { cause: options.cause });
    this.code = definition.code;
    this.status = definition.status;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  /** Whether this error carries that code (typed: a misspelt code fails the type check). */
  is(code: ErrorCodeRef): boolean {
    return this.code === errorDefinition(code).code;
  }
}

export function docsAnchor(code: string): string {
  return code.toLowerCase();
}
