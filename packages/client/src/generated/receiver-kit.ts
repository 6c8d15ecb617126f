// Copied by packages/client/scripts/generate.ts from src/receiver-kit/index.ts. Do not edit.
// Receiver kit: what a Business needs to accept this service's webhooks safely. Dependency-free (only
// node:crypto); copy this one file into your project or import it from the package. See README.md here.
//
//   const result = verifyWebhook({ rawBody, header: req.headers["x-service-signature"], secret });
//   if (!result.ok) return res.status(400).end();           // reject: missing/malformed header, stale t, bad HMAC
//   const outcome = await applier.handle(result.event, applyToMyDatabase);   // dedupe + per-subject ordering
//   res.status(200).end();                                   // acknowledge within 10 s
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-service-signature";
/** Spec: reject when `t` differs from the receiver's clock by more than 300 seconds, either way. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface WebhookEvent<Data extends Record<string, unknown> = Record<string, unknown>> {
  /** Delivery id: identical on every retry; deduplicate on it. */
  readonly id: string;
  readonly type: string;
  readonly api_version: string;
  readonly occurred_at: string;
  /** When this attempt was sent (differs per retry). */
  readonly created_at: string;
  /** Tiebreaker for equal occurred_at. */
  readonly sequence: number;
  readonly data: Data;
}

export type VerifyFailure =
  | "missing_header"
  | "malformed_header"
  | "timestamp_out_of_tolerance"
  | "signature_mismatch"
  | "malformed_body";

export type VerifyResult =
  | { readonly ok: true; readonly event: WebhookEvent }
  | { readonly ok: false; readonly reason: VerifyFailure };

/** `t=<unix seconds>,v1=<64 lowercase hex>`; several `v1` are accepted. Returns null when malformed. */
export function parseSignatureHeader(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) return null;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === "t") {
      if (t !== null || !/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (name === "v1") {
      if (!/^[0-9a-f]{64}$/.test(value)) return null;
      v1.push(value);
    }
    // Other schemes (future v2, …) are ignored, so a receiver keeps working when one is added.
  }
  if (t === null || v1.length === 0) return null;
  return { t, v1 };
}

/** Lowercase hex HMAC-SHA256 of `<t>.<raw body>`, keyed with the UTF-8 bytes of the whole secret (`whsec_…`). */
export function computeSignature(secret: string, t: number, rawBody: string | Uint8Array): string {
  const hmac = createHmac("sha256", Buffer.from(secret, "utf8"));
  hmac.update(`${t}.`, "utf8");
  hmac.update(typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody);
  return hmac.digest("hex");
}

export interface VerifyOptions {
  /** The request body exactly as received: a Buffer or the undecoded string. Never re-serialized JSON. */
  readonly rawBody: string | Uint8Array;
  /** The `X-Service-Signature` header value (Node gives string | string[] | undefined). */
  readonly header: string | readonly string[] | undefined | null;
  readonly secret: string;
  /** Unix seconds now; defaults to the system clock. */
  readonly nowSeconds?: number;
  readonly toleranceSeconds?: number;
}

/** Checks the signature only. */
export function verifySignature(
  options: VerifyOptions,
): { ok: true } | { ok: false; reason: Exclude<VerifyFailure, "malformed_body"> } {
  const raw = Array.isArray(options.header) ? options.header[0] : options.header;
  if (typeof raw !== "string" || raw.trim() === "") return { ok: false, reason: "missing_header" };
  const parsed = parseSignatureHeader(raw);
  if (parsed === null) return { ok: false, reason: "malformed_header" };
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.t) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    return { ok: false, reason: "timestamp_out_of_tolerance" };
  }
  const expected = Buffer.from(computeSignature(options.secret, parsed.t, options.rawBody), "hex");
  const matches = parsed.v1.some((candidate) => {
    const given = Buffer.from(candidate, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true } : { ok: false, reason: "signature_mismatch" };
}

/** Verifies the signature, then parses the envelope. Answer non-2xx whenever `ok` is false. */
export function verifyWebhook(options: VerifyOptions): VerifyResult {
  const signature = verifySignature(options);
  if (!signature.ok) return signature;
  try {
    const text = typeof options.rawBody === "string" ? options.rawBody : Buffer.from(options.rawBody).toString("utf8");
    const event = JSON.parse(text) as WebhookEvent;
    if (
      typeof event !== "object" ||
      event === null ||
      typeof event.id !== "string" ||
      typeof event.type !== "string" ||
      typeof event.occurred_at !== "string" ||
      typeof event.sequence !== "number" ||
      typeof event.data !== "object" ||
      event.data === null
    ) {
      return { ok: false, reason: "malformed_body" };
    }
    return { ok: true, event };
  } catch {
    return { ok: false, reason: "malformed_body" };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Applying events in the spec's order
// ---------------------------------------------------------------------------------------------------------

/** Where the applier keeps what it has seen. The default keeps it in memory; use your database in production. */
export interface ApplierStore {
  hasSeen(id: string): Promise<boolean>;
  markSeen(id: string): Promise<void>;
  /** Highest (occurred_at ms, sequence) applied for the subject, ignoring payout.delivered. */
  getHighWater(subject: string): Promise<{ occurredAtMs: number; sequence: number } | null>;
  setHighWater(subject: string, mark: { occurredAtMs: number; sequence: number }): Promise<void>;
  /** Highest sequence of an applied payout.delivered for the payout. */
  getDeliveredSequence(payoutId: string): Promise<number | null>;
  setDeliveredSequence(payoutId: string, sequence: number): Promise<void>;
}

export function createMemoryApplierStore(): ApplierStore {
  const seen = new Set<string>();
  const highWater = new Map<string, { occurredAtMs: number; sequence: number }>();
  const delivered = new Map<string, number>();
  return {
    hasSeen: async (id) => seen.has(id),
    markSeen: async (id) => {
      seen.add(id);
    },
    getHighWater: async (subject) => highWater.get(subject) ?? null,
    setHighWater: async (subject, mark) => {
      highWater.set(subject, mark);
    },
    getDeliveredSequence: async (payoutId) => delivered.get(payoutId) ?? null,
    setDeliveredSequence: async (payoutId, sequence) => {
      delivered.set(payoutId, sequence);
    },
  };
}

/** `data.payout_id` for payout.*, `data.beneficiary_id` for beneficiary.*; the two families are not ordered together. */
export function subjectOf(event: WebhookEvent): string | null {
  const key = event.type.startsWith("payout.") ? "payout_id" : event.type.startsWith("beneficiary.") ? "beneficiary_id" : null;
  const value = key === null ? undefined : event.data[key];
  return typeof value === "string" ? `${key}:${value}` : null;
}

export type ApplyOutcome = "applied" | "duplicate" | "stale";

/**
 * Deduplicates on `id` and orders per subject by (`occurred_at`, `sequence`): an event sorting before the
 * highest one applied is `stale` and `apply` is not called (it must not change the subject's status).
 * `payout.delivered` is the exception: always applied, unless a delivered event with a higher `sequence`
 * (the correction) was applied already; it does not move the high-water mark.
 * Not safe for concurrent calls on one subject: serialize per subject (a queue, or a row lock in your store).
 */
export function createEventApplier(options: { store?: ApplierStore } = {}) {
  const store = options.store ?? createMemoryApplierStore();
  return {
    async handle(event: WebhookEvent, apply: (event: WebhookEvent) => Promise<void>): Promise<ApplyOutcome> {
      if (await store.hasSeen(event.id)) return "duplicate";
      const subject = subjectOf(event);
      const occurredAtMs = Date.parse(event.occurred_at);
      if (event.type === "payout.delivered") {
        const payoutId = subject ?? event.id;
        const previous = await store.getDeliveredSequence(payoutId);
        if (previous !== null && previous > event.sequence) {
          await store.markSeen(event.id);
          return "stale";
        }
        await apply(event);
        await store.setDeliveredSequence(payoutId, event.sequence);
        await store.markSeen(event.id);
        return "applied";
      }
      if (subject !== null) {
        const mark = await store.getHighWater(subject);
        if (
          mark !== null &&
          (occurredAtMs < mark.occurredAtMs || (occurredAtMs === mark.occurredAtMs && event.sequence < mark.sequence))
        ) {
          await store.markSeen(event.id);
          return "stale";
        }
      }
      await apply(event);
      if (subject !== null) await store.setHighWater(subject, { occurredAtMs, sequence: event.sequence });
      await store.markSeen(event.id);
      return "applied";
    },
  };
}
