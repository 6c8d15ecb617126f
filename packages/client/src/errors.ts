// The two errors a call can end with: the service answered with an error envelope (PayoutsApiError), or no
// answer came (PayoutsConnectionError: refused, reset, timed out, aborted).

export interface ErrorDetail {
  readonly field?: string;
  readonly code?: string;
  readonly message?: string;
  readonly [key: string]: unknown;
}

/** An error answer of the service, carrying its envelope (`error.code`, `message`, `request_id`, `details`). */
export class PayoutsApiError extends Error {
  override readonly name = "PayoutsApiError";
  /** HTTP status. */
  readonly status: number;
  /** The envelope's error code, e.g. `validation_failed`, `RATE_LIMITED`; `http_<status>` when the body had none. */
  readonly code: string;
  readonly requestId: string | null;
  readonly details: readonly ErrorDetail[];
  readonly docsUrl: string | null;
  /** The parsed body (the envelope), or the raw text when it was not JSON. */
  readonly body: unknown;
  readonly headers: Headers;
  readonly operationId: string;

  constructor(operationId: string, status: number, body: unknown, headers: Headers) {
    const envelope = readEnvelope(body);
    const code = envelope?.code ?? `http_${status}`;
    super(envelope?.message ?? `${operationId} answered HTTP ${status}`);
    this.operationId = operationId;
    this.status = status;
    this.code = code;
    this.requestId = envelope?.request_id ?? headers.get("x-request-id");
    this.details = envelope?.details ?? [];
    this.docsUrl = envelope?.docs_url ?? null;
    this.body = body;
    this.headers = headers;
  }
}

/** No answer: the connection failed or the call timed out or was aborted. `sent` tells whether the request may have reached the service. */
export class PayoutsConnectionError extends Error {
  override readonly name = "PayoutsConnectionError";
  readonly code: "connection_refused" | "connection_failed" | "timeout" | "aborted";
  readonly operationId: string;
  /** False only when the request provably never reached the service (connection refused, DNS failure). */
  readonly sent: boolean;

  constructor(operationId: string, code: PayoutsConnectionError["code"], sent: boolean, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.operationId = operationId;
    this.code = code;
    this.sent = sent;
  }
}

interface Envelope {
  code?: string;
  message?: string;
  request_id?: string;
  details?: ErrorDetail[];
  docs_url?: string;
}

function readEnvelope(body: unknown): Envelope | null {
  if (typeof body !== "object" || body === null) return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return null;
  const e = error as Record<string, unknown>;
  const envelope: Envelope = {};
  if (typeof e.code === "string") envelope.code = e.code;
  if (typeof e.message === "string") envelope.message = e.message;
  if (typeof e.request_id === "string") envelope.request_id = e.request_id;
  if (typeof e.docs_url === "string") envelope.docs_url = e.docs_url;
  if (Array.isArray(e.details)) envelope.details = e.details as ErrorDetail[];
  return envelope;
}
