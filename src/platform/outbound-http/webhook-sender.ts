// The one HTTP client that calls customers' webhook URLs: undici with a connector that resolves and
// checks every address (url-safety.ts), no redirects followed, one overall deadline, and a capped read of
// the response. It never throws for a failed call: the outcome is data the delivery log records.

import { isIP, type Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { Agent, buildConnector, request } from "undici";
import {
  checkConnectedSocket,
  checkTarget,
  guardedLookup,
  parseWebhookUrl,
  type TargetPolicy,
  UnsafeUrlError,
} from "./url-safety.js";

/** Why a call did not acknowledge; null when it did. Stable strings: they are stored and shown in the delivery log. */
export type SendErrorClass =
  | "http_status"
  | "redirect"
  | "timeout"
  | "connection_error"
  | "dns_error"
  | "tls_error"
  | "blocked_address"
  | "invalid_url";

export interface SendOutcome {
  /** A 2xx status arrived within the deadline. */
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly errorClass: SendErrorClass | null;
  readonly durationMs: number;
  /** For logs only (never shown to API callers): what went wrong, without any header or body. */
  readonly detail: string | null;
}

export interface WebhookSender {
  /** POSTs `body` to `url`. Resolves with the outcome; never rejects. */
  post(url: string, body: string, headers: Readonly<Record<string, string>>): Promise<SendOutcome>;
  close(): Promise<void>;
}

/** The spec's overall deadline of one webhook call, connection included: no answer within it is a failed attempt. */
export const WEBHOOK_DEADLINE_MS = 10_000;

export interface WebhookSenderOptions {
  readonly policy: TargetPolicy;
  /** Overall deadline of one call, connection included; WEBHOOK_DEADLINE_MS (the spec's 10 s) unless given. */
  readonly timeoutMs?: number;
  /** At most this much of a response body is read (then the connection is dropped). */
  readonly maxResponseBytes?: number;
  /** Extra trusted CA certificates (PEM). Tests use it for their self-signed receiver; never disables verification. */
  readonly ca?: string | readonly string[];
  readonly userAgent?: string;
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL)/;

function classify(error: unknown): { errorClass: SendErrorClass; detail: string } {
  const seen = new Set<unknown>();
  let current: unknown = error;
  // undici wraps the socket error; look down the cause chain for the most telling one.
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    if (current instanceof UnsafeUrlError) {
      const errorClass: SendErrorClass =
        current.reason === "unresolvable" ? "dns_error" : current.reason === "not_public" ? "blocked_address" : "invalid_url";
      return { errorClass, detail: current.message };
    }
    const code = (current as NodeJS.ErrnoException).code ?? "";
    const name = current.name;
    if (name === "TimeoutError" || name === "AbortError" || /TIMEOUT/i.test(code))
      return { errorClass: "timeout", detail: code || name };
    if (TLS_CODES.test(code)) return { errorClass: "tls_error", detail: code };
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return { errorClass: "dns_error", detail: code };
    if (current.cause === undefined) return { errorClass: "connection_error", detail: code || current.message };
    current = current.cause;
  }
  return { errorClass: "connection_error", detail: String(error) };
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { policy } = options;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_DEADLINE_MS;
  const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024;
  const connect = buildConnector({
    lookup: guardedLookup(policy),
    timeout: timeoutMs,
    ...(options.ca === undefined ? {} : { ca: Array.isArray(options.ca) ? [...options.ca] : (options.ca as string) }),
  } as buildConnector.BuildOptions);
  const agent = new Agent({
    connect: (connectOptions, callback) => {
      connect(connectOptions, (error, socket) => {
        if (error !== null || socket === null) return callback(error ?? new Error("no socket"), null);
        try {
          // IP literals skip the lookup, and a resolver can be raced: check the peer actually connected.
          checkConnectedSocket(socket as Socket, policy);
        } catch (refusal) {
          socket.destroy();
          return callback(refusal as Error, null);
        }
        callback(null, socket);
      });
    },
    keepAliveTimeout: 4_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  return {
    async post(rawUrl, body, headers) {
      const started = performance.now();
      const elapsed = () => Math.max(0, Math.round(performance.now() - started));
      let url: URL;
      try {
        url = parseWebhookUrl(rawUrl);
        // A literal is refused here without a connection; a name is checked again by the connector.
        if (isIP(url.hostname.replace(/^\[|\]$/g, "")) !== 0) await checkTarget(url, policy);
      } catch (error) {
        const { errorClass, detail } = classify(error);
        return {
          ok: false,
          statusCode: null,
          errorClass,
          durationMs: elapsed(),
          detail,
        };
      }
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const response = await request(url, {
          dispatcher: agent,
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": options.userAgent ?? "payout-orchestration-webhooks/1",
            ...headers,
          },
          body,
          signal,
        });
        const statusCode = response.statusCode;
        // The status decides; the body is read only to keep the connection reusable, and never beyond the cap.
        await response.body.dump({ limit: maxResponseBytes, signal }).catch(() => {});
        const durationMs = elapsed();
        if (statusCode >= 200 && statusCode < 300) {
          return { ok: true, statusCode, errorClass: null, durationMs, detail: null };
        }
        const errorClass: SendErrorClass = statusCode >= 300 && statusCode < 400 ? "redirect" : "http_status";
        return { ok: false, statusCode, errorClass, durationMs, detail: `HTTP ${statusCode}` };
      } catch (error) {
        const { errorClass, detail } = classify(error);
        return { ok: false, statusCode: null, errorClass, durationMs: elapsed(), detail };
      }
    },
    close: () => agent.close(),
  };
}
