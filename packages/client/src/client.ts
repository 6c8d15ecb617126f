// The client: one method per operation of the OpenAPI document, retries that cannot duplicate a payout,
// timeouts, automatic idempotency keys and async iteration over every list. Browser-safe: fetch, WebCrypto
// and AbortSignal only.
import { PayoutsApiError, PayoutsConnectionError } from "./errors.js";
import { OPERATIONS, type OperationId, type OperationInfo, TEXT_BODIES } from "./generated/operations.js";
import type { InputIsOptional, ListItem, ListOperationId, OperationInput, OperationResult } from "./types.js";

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  readonly maxRetries?: number;
  /** First backoff step in ms (default 500); each retry doubles it, with full jitter. */
  readonly baseDelayMs?: number;
  /** Longest wait between attempts, Retry-After included (default 30 000 ms). */
  readonly maxDelayMs?: number;
}

export interface ClientOptions {
  /** The service's address, e.g. `https://payouts.example.com` (without `/v1`). */
  readonly baseUrl: string;
  /** An API key (`pok_sandbox_…` or `pok_production_…`), sent as `Authorization: Bearer`. */
  readonly apiKey?: string;
  /** Per-attempt timeout in ms (default 30 000). */
  readonly timeoutMs?: number;
  readonly retry?: RetryOptions;
  /** A fetch implementation (default: the global fetch). */
  readonly fetch?: typeof fetch;
  /** Extra headers on every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** How the client waits between retries (tests pass a fake). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Source of randomness for the jitter, in [0, 1) (default Math.random). */
  readonly random?: () => number;
}

export interface RequestOptions {
  /** The Idempotency-Key of a creating call; generated (a UUID) when omitted, and kept across retries. */
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly retry?: RetryOptions;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A result together with the response's status and headers (`client.raw.<operation>`). */
export interface RawResult<T> {
  readonly data: T;
  readonly status: number;
  readonly headers: Headers;
  /** How many attempts the call took (1 when it succeeded at once). */
  readonly attempts: number;
}

type Method<K extends OperationId, R> =
  InputIsOptional<K> extends true
    ? (input?: OperationInput<K>, options?: RequestOptions) => Promise<R>
    : (input: OperationInput<K>, options?: RequestOptions) => Promise<R>;

export type OperationMethods = { readonly [K in OperationId]: Method<K, OperationResult<K>> };
export type RawOperationMethods = { readonly [K in OperationId]: Method<K, RawResult<OperationResult<K>>> };

export type PayoutsClient = OperationMethods & {
  /** The same methods, resolving to `{ data, status, headers, attempts }`. */
  readonly raw: RawOperationMethods;
  /** Iterates over every item of a list, page after page (`cursor` / `next_cursor`). */
  paginate<K extends ListOperationId>(
    operationId: K,
    input?: OperationInput<K>,
    options?: RequestOptions,
  ): AsyncIterableIterator<ListItem<K>>;
  /** Any operation by its operationId. */
  call<K extends OperationId>(
    operationId: K,
    input?: OperationInput<K>,
    options?: RequestOptions,
  ): Promise<RawResult<OperationResult<K>>>;
};

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

interface LooseInput {
  readonly path?: Record<string, unknown>;
  readonly query?: Record<string, unknown>;
  readonly body?: unknown;
}

export function createClient(options: ClientOptions): PayoutsClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;

  async function call(
    operationId: OperationId,
    rawInput: unknown,
    requestOptions: RequestOptions = {},
  ): Promise<RawResult<unknown>> {
    const info: OperationInfo = OPERATIONS[operationId];
    if (info === undefined) throw new TypeError(`unknown operation ${String(operationId)}`);
    const input = (rawInput ?? {}) as LooseInput;
    const url = buildUrl(baseUrl, info.path, input);
    const headers: Record<string, string> = {
      accept: "application/json, */*;q=0.5",
      ...options.headers,
      ...requestOptions.headers,
    };
    if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
    // One key per call, the same on every attempt: the service answers a retry with the first result.
    if (info.idempotencyKey) headers["idempotency-key"] = requestOptions.idempotencyKey ?? newIdempotencyKey();
    let body: string | undefined;
    const textTypes = TEXT_BODIES[operationId];
    if (info.body && textTypes !== undefined) {
      // A file's bytes (a bank statement): sent as given, as the caller's content-type or the first the route takes.
      if (typeof input.body !== "string") throw new TypeError(`${operationId} takes the file's content as a string`);
      const named = Object.keys(headers).find((name) => name.toLowerCase() === "content-type");
      if (named === undefined) headers["content-type"] = textTypes[0] ?? "text/plain";
      body = input.body;
    } else if (info.body) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(input.body ?? {});
    }
    const retry = { ...DEFAULT_RETRY, ...options.retry, ...requestOptions.retry };
    const timeoutMs = requestOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

    for (let attempt = 1; ; attempt += 1) {
      let outcome: { response: Response; parsed: unknown } | PayoutsConnectionError;
      try {
        outcome = await attemptOnce(operationId, url, info.method, headers, body, timeoutMs, requestOptions.signal);
      } catch (error) {
        if (error instanceof PayoutsConnectionError) outcome = error;
        else throw error;
      }
      const retriesLeft = attempt <= retry.maxRetries;
      if (outcome instanceof PayoutsConnectionError) {
        if (outcome.code === "aborted" || !retriesLeft || !mayRetryConnectionError(info, outcome)) throw outcome;
        await sleep(backoff(attempt, retry, random), requestOptions.signal);
        continue;
      }
      const { response, parsed } = outcome;
      if (response.ok) return { data: parsed, status: response.status, headers: response.headers, attempts: attempt };
      const error = new PayoutsApiError(operationId, response.status, parsed, response.headers);
      if (!retriesLeft || !mayRetryStatus(info, response.status)) throw error;
      const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
      const wait = retryAfter === null ? backoff(attempt, retry, random) : Math.min(retryAfter, retry.maxDelayMs);
      await sleep(wait, requestOptions.signal);
    }
  }

  async function attemptOnce(
    operationId: string,
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<{ response: Response; parsed: unknown }> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    try {
      const init: RequestInit = { method, headers, signal: combined, redirect: "manual" };
      if (body !== undefined) init.body = body;
      const response = await fetchImpl(url, init);
      const text = await response.text();
      const contentType = response.headers.get("content-type") ?? "";
      let parsed: unknown = text;
      if (response.status === 204 || text === "") parsed = undefined;
      else if (contentType.includes("json")) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      return { response, parsed };
    } catch (error) {
      if (signal?.aborted) throw new PayoutsConnectionError(operationId, "aborted", true, `${operationId} was aborted`, error);
      if (timeout.aborted) {
        throw new PayoutsConnectionError(operationId, "timeout", true, `${operationId} timed out after ${timeoutMs} ms`, error);
      }
      const refused = isRefused(error);
      throw new PayoutsConnectionError(
        operationId,
        refused ? "connection_refused" : "connection_failed",
        !refused,
        `${operationId}: cannot reach ${new URL(url).origin} (${describe(error)})`,
        error,
      );
    }
  }

  const methods: Record<string, unknown> = {};
  const raw: Record<string, unknown> = {};
  for (const id of Object.keys(OPERATIONS) as OperationId[]) {
    raw[id] = (input?: unknown, requestOptions?: RequestOptions) => call(id, input, requestOptions);
    methods[id] = async (input?: unknown, requestOptions?: RequestOptions) => (await call(id, input, requestOptions)).data;
  }

  async function* paginate(operationId: ListOperationId, input?: unknown, requestOptions?: RequestOptions) {
    const listKey = OPERATIONS[operationId].listKey;
    const base = (input ?? {}) as LooseInput;
    let cursor: string | null | undefined = (base.query?.cursor as string | undefined) ?? undefined;
    do {
      const query = { ...base.query, ...(cursor === undefined || cursor === null ? {} : { cursor }) };
      const page = (await call(operationId, { ...base, query }, requestOptions)).data as Record<string, unknown>;
      const items = page[listKey];
      if (Array.isArray(items)) yield* items;
      cursor = page.next_cursor as string | null;
    } while (cursor !== null && cursor !== undefined);
  }

  return {
    ...methods,
    raw,
    paginate,
    call: (id: OperationId, input?: unknown, requestOptions?: RequestOptions) => call(id, input, requestOptions),
  } as unknown as PayoutsClient;
}

/** Statuses worth another attempt: 429 and 5xx except 501. */
function mayRetryStatus(info: OperationInfo, status: number): boolean {
  if (status === 429) return true; // the rate limiter refuses before any handler runs: nothing was done
  if (status < 500 || status === 501) return false;
  // A 5xx may come after the service acted: repeat only what cannot act twice.
  return info.retry === "always";
}

function mayRetryConnectionError(info: OperationInfo, error: PayoutsConnectionError): boolean {
  return info.retry === "always" || !error.sent;
}

function backoff(attempt: number, retry: Required<RetryOptions>, random: () => number): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling); // full jitter: many clients do not retry in step
}

/** Retry-After as delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function buildUrl(baseUrl: string, template: string, input: LooseInput): string {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = input.path?.[name];
    if (value === undefined || value === null || value === "") throw new TypeError(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  const query = search.toString();
  return `${baseUrl}${path}${query === "" ? "" : `?${query}`}`;
}

function isRefused(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN") return true;
    // undici aggregates IPv4/IPv6 attempts when every one of them was refused
    if (e instanceof AggregateError && e.errors.every((inner) => isRefused(inner))) return true;
  }
  return false;
}

function describe(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (let e: unknown = error instanceof Error ? error.cause : undefined; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    message = typeof code === "string" ? code : e.message;
  }
  return message;
}

/** A random UUID (v4). randomUUID exists only in secure contexts (https, localhost); getRandomValues everywhere. */
function newIdempotencyKey(): string {
  if (typeof globalThis.crypto.randomUUID === "function") return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
