// The dashboard's only way to the server: the public /v1 API through openapi-fetch, typed from the OpenAPI
// document the build generates (generated/openapi.d.ts), so an API change that breaks a page fails the
// typecheck. A session request carries the cookie (the browser sends it), the environment the person chose
// (`X-Environment`) and, on writes, the session's CSRF token (`X-CSRF-Token`). The token lives in memory only:
// after a reload GET /v1/session answers it again. Nothing secret is written to localStorage. A GET the entry
// already started for the landing page (lib/early-requests.ts) is answered from that request.
import createClient from "openapi-fetch";
import { takeEarlyResponse } from "../lib/early-requests";
import type { components, operations, paths } from "./generated/openapi";

export type Schemas = components["schemas"];
/** The operations of the OpenAPI document by operationId (their parameters' enums, for example). */
export type Operations = operations;
export type Environment = "sandbox" | "production";
export type ErrorBody = Schemas["ErrorEnvelope"]["error"];

let csrfToken: string | null = null;
let environment: Environment = "sandbox";

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}
export function setApiEnvironment(value: Environment): void {
  environment = value;
}

export const api = createClient<paths>({
  baseUrl: "",
  credentials: "same-origin",
  fetch: (request) => takeEarlyResponse(request) ?? fetch(request),
});

api.use({
  onRequest({ request }) {
    request.headers.set("x-environment", environment);
    if (request.method !== "GET" && csrfToken !== null) request.headers.set("x-csrf-token", csrfToken);
    return request;
  },
});

/** An error envelope from the API (or a network failure, with code `network_error`). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.status = status;
    this.body = body;
  }
  get code(): string {
    return this.body.code;
  }
  /** The message of the detail about `field` (a JSON pointer like `/email` or a plain name), if any. */
  fieldMessage(field: string): string | undefined {
    return this.body.details?.find((d) => d.field === field || d.field === `/${field}` || d.field.endsWith(`/${field}`))?.message;
  }
}

function envelopeOf(status: number, error: unknown): ErrorBody {
  if (typeof error === "object" && error !== null && "error" in error) {
    const inner = (error as { error: unknown }).error;
    if (typeof inner === "object" && inner !== null && "code" in inner && "message" in inner) return inner as ErrorBody;
  }
  return {
    code: status === 0 ? "network_error" : "unexpected_response",
    message: status === 0 ? "The service could not be reached." : `The service answered ${status}.`,
    request_id: "",
    occurred_at: "",
    actor: null,
    docs_url: "",
  };
}

/** openapi-fetch's `{ data, error, response }` -> the data, or an ApiError carrying the envelope. */
export async function call<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await request;
  } catch {
    throw new ApiError(0, envelopeOf(0, null));
  }
  if (result.response.ok) return result.data as T;
  throw new ApiError(result.response.status, envelopeOf(result.response.status, result.error));
}
