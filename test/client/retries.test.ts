// The client's retries against a loopback test server that answers what each test scripts: 429 and 503 then
// 200 with the same Idempotency-Key every time, Retry-After honoured, no retry of a 4xx, no retry of an
// ambiguous failure of a call that could act twice, timeouts, connection refused.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, PayoutsApiError, PayoutsConnectionError, parseRetryAfter } from "../../packages/client/src/index.js";

interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  body: string;
}
type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | "hang";

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
});

async function scriptedServer(answers: Answer[]): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer(async (req: IncomingMessage, res) => {
    let body = "";
    for await (const chunk of req) body += String(chunk);
    const key = req.headers["idempotency-key"];
    seen.push({ method: req.method ?? "", url: req.url ?? "", idempotencyKey: typeof key === "string" ? key : undefined, body });
    const answer = answers[seen.length - 1] ?? answers[answers.length - 1];
    if (answer === undefined || answer === "hang") return; // never answers
    res.writeHead(answer.status, { "content-type": "application/json", "x-request-id": `req-${seen.length}`, ...answer.headers });
    res.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const envelope = (code: string) => ({ error: { code, message: `${code} happened`, request_id: "req_x", details: [] } });
const payout = { payout_id: "0196f1a4-1c2d-7e30-a077-a2b3c4d5e6f8", status: "pending_approval" };
const payoutBody = { beneficiary_id: "0196f1a3-0a1b-7c20-8e55-8091a2b3c4d6", amount_minor: 100, currency: "EUR" };

function clientFor(baseUrl: string, waits: number[], extra: { timeoutMs?: number } = {}) {
  return createClient({
    baseUrl,
    apiKey: "pok_sandbox_test",
    retry: { maxRetries: 3, baseDelayMs: 100 },
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    ...extra,
  });
}

describe("client retries", () => {
  it("retries a payout creation after 429 and 503 with the same idempotency key, honouring Retry-After", async () => {
    const { baseUrl, seen } = await scriptedServer([
      { status: 429, headers: { "retry-after": "2" }, body: envelope("RATE_LIMITED") },
      { status: 503, body: envelope("service_unavailable") },
      { status: 201, body: payout },
    ]);
    const waits: number[] = [];
    const result = await clientFor(baseUrl, waits).raw.createPayout({ body: payoutBody });
    expect(result).toMatchObject({ status: 201, attempts: 3, data: payout });
    expect(seen).toHaveLength(3);
    const keys = seen.map((s) => s.idempotencyKey);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(seen.map((s) => s.body)).size).toBe(1);
    // Retry-After: 2 s; then exponential backoff with jitter (half of 2 x 100 ms with random() = 0.5).
    expect(waits).toEqual([2000, 100]);
  });

  it("never retries a 4xx", async () => {
    const { baseUrl, seen } = await scriptedServer([
      { status: 409, body: envelope("PAYOUT_NOT_PENDING") },
      { status: 201, body: payout },
    ]);
    const error = await clientFor(baseUrl, [])
      .approvePayout({ path: { payoutId: payout.payout_id } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutsApiError);
    expect(error).toMatchObject({ status: 409, code: "PAYOUT_NOT_PENDING", requestId: "req_x" });
    expect(seen).toHaveLength(1);
  });

  it("gives up after the last retry with the last error", async () => {
    const { baseUrl, seen } = await scriptedServer([{ status: 503, body: envelope("service_unavailable") }]);
    const waits: number[] = [];
    const error = await clientFor(baseUrl, waits)
      .listPayouts()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: "service_unavailable" });
    expect(seen).toHaveLength(4);
    expect(waits).toEqual([50, 100, 200]);
  });

  it("does not repeat a call that could act twice after a 5xx, but does after a 429", async () => {
    const { baseUrl, seen } = await scriptedServer([
      { status: 429, body: envelope("RATE_LIMITED") },
      { status: 500, body: envelope("internal_error") },
      { status: 201, body: { id: "x" } },
    ]);
    const error = await clientFor(baseUrl, [])
      .createBeneficiary({ body: { beneficiary_type: "person", email: "a@example.com" } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 500, code: "internal_error" });
    expect(seen).toHaveLength(2);
    expect(seen[0]?.idempotencyKey).toBeUndefined();
  });

  it("times out, and repeats a timed-out read but not a timed-out creation without a key", async () => {
    const { baseUrl, seen } = await scriptedServer(["hang", { status: 200, body: { payouts: [], next_cursor: null } }]);
    // The retry must be answered within the same timeout: 2 s, so a loaded machine that takes a few hundred
    // milliseconds over a loopback request does not time it out too (a third attempt would fail the test).
    const client = clientFor(baseUrl, [], { timeoutMs: 2_000 });
    const list = await client.raw.listPayouts();
    expect(list).toMatchObject({ status: 200, attempts: 2 });
    expect(seen).toHaveLength(2);

    seen.length = 0;
    const { baseUrl: hanging, seen: seenHanging } = await (async () => {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => server?.close(() => resolve()));
      return scriptedServer(["hang"]);
    })();
    const error = await clientFor(hanging, [], { timeoutMs: 200 })
      .createBeneficiary({ body: { beneficiary_type: "person", email: "a@example.com" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutsConnectionError);
    expect(error).toMatchObject({ code: "timeout", sent: true });
    expect(seenHanging).toHaveLength(1);
  });

  it("retries a refused connection (nothing was sent) and then reports it", async () => {
    const { baseUrl } = await scriptedServer([{ status: 200, body: {} }]);
    server?.close();
    server = null;
    const waits: number[] = [];
    const error = await clientFor(baseUrl, waits)
      .createBeneficiary({ body: { beneficiary_type: "person", email: "a@example.com" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutsConnectionError);
    expect(error).toMatchObject({ code: "connection_refused", sent: false });
    expect(waits).toHaveLength(3);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:10 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(10_000);
    expect(parseRetryAfter("soon")).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });
});
