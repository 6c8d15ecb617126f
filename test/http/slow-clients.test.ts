// Slow and malformed clients on a listening server, over raw sockets: requests the HTTP parser refuses and
// requests that never finish are answered in the spec's envelope (or closed) instead of Node's or Fastify's
// own body, and a stalled body no longer holds its connection. Timeouts are shortened for the test; the only
// time assertions are bounded waits ("it ended"), never durations.
import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { DOCS_BASE_URL } from "./error-envelope.js";

interface RawAnswer {
  readonly status: number | null;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly closed: boolean;
}

describe("slow and malformed clients", () => {
  let t: TestApp;
  let port = 0;
  let apiKey = "";

  beforeAll(async () => {
    t = await buildTestApp({ env: { REQUEST_TIMEOUT_MS: "600", HEADERS_TIMEOUT_MS: "400" } });
    apiKey = (await registerBusiness(t.app, "Slow Clients Ltd")).keys.sandbox;
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.address();
    port = typeof address === "object" && address !== null ? address.port : 0;
  });
  afterAll(async () => t.close());

  /** Writes `chunks`, then waits (at most `limitMs`) for the server to close the connection. */
  function exchange(chunks: ReadonlyArray<string | Buffer>, limitMs = 10_000): Promise<RawAnswer> {
    return new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1");
      const received: Buffer[] = [];
      let settled = false;
      const finish = (closed: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(limit);
        socket.destroy();
        const text = Buffer.concat(received).toString("utf8");
        const [head = "", ...rest] = text.split("\r\n\r\n");
        const [statusLine = "", ...headerLines] = head.split("\r\n");
        const headers: Record<string, string> = {};
        for (const line of headerLines) {
          const colon = line.indexOf(":");
          if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
        }
        const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
        resolve({ status: status === undefined ? null : Number(status), headers, body: rest.join("\r\n\r\n"), closed });
      };
      const limit = setTimeout(() => finish(false), limitMs);
      socket.on("data", (chunk) => received.push(chunk));
      socket.on("close", () => finish(true));
      socket.on("error", () => finish(true));
      for (const chunk of chunks) socket.write(chunk);
    });
  }

  function expectEnvelope(answer: RawAnswer, status: number, code: string) {
    expect(answer.closed, "the server closed the connection").toBe(true);
    expect(answer.status, answer.body).toBe(status);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    const body = JSON.parse(answer.body) as { error: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error).toMatchObject({ code, actor: null, docs_url: `${DOCS_BASE_URL}/errors#${code}` });
    expect(typeof body.error.message).toBe("string");
    expect(body.error.request_id).toBe(answer.headers["x-request-id"]);
    expect(String(body.error.request_id)).toMatch(/^[0-9a-f-]{36}$/);
  }

  it("a body that never finishes is answered 408 and closed", async () => {
    const answer = await exchange([
      "POST /v1/registration HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n",
      '{"a":1',
    ]);
    expectEnvelope(answer, 408, "request_timeout");
  });

  it("many stalled bodies at once are all answered and closed", async () => {
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        exchange(["POST /v1/registration HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"]),
      ),
    );
    for (const answer of answers) expectEnvelope(answer, 408, "request_timeout");
  });

  it("headers that never finish are answered 408 and closed", async () => {
    expectEnvelope(await exchange(["GET /v1/payouts HTTP/1.1\r\nHost: x\r\n"]), 408, "request_timeout");
  });

  it("bad header bytes are a 400 in the envelope", async () => {
    expectEnvelope(await exchange(["GET /v1/payouts HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n"]), 400, "bad_request");
  });

  it("a method that is not HTTP is a 400 in the envelope", async () => {
    expectEnvelope(await exchange(["FOO /v1/payouts HTTP/1.1\r\nHost: x\r\n\r\n"]), 400, "bad_request");
  });

  it("a 17 KB Idempotency-Key is a 431 in the envelope", async () => {
    const answer = await exchange([`POST /v1/payouts HTTP/1.1\r\nHost: x\r\nIdempotency-Key: ${"k".repeat(17 * 1024)}\r\n\r\n`]);
    expectEnvelope(answer, 431, "request_header_too_large");
  });

  it("a 20 KB URL is a 431 in the envelope", async () => {
    const answer = await exchange([`GET /v1/payouts?external_ref=${"r".repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expectEnvelope(answer, 431, "request_header_too_large");
  });

  it("QUERY on a known path is a 405 with Allow over the wire too", async () => {
    const answer = await exchange(["QUERY /v1/payouts HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow?.split(", ")).toEqual(expect.arrayContaining(["GET", "POST"]));
  });

  it("a UTF-8 Idempotency-Key header reaches validation as UTF-8, not Latin-1", async () => {
    // 255 characters of "é" is 510 bytes: read as Latin-1 it would be 510 characters and answer too_long.
    const header = Buffer.from(`Idempotency-Key: ${"é".repeat(255)}\r\n`, "utf8");
    // A valid body naming no Beneficiary of ours: past validation, the payout is refused as not found.
    const body = JSON.stringify({ beneficiary_id: randomUUID(), amount_minor: 100, currency: "EUR" });
    const answer = await exchange([
      `POST /v1/payouts HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n`,
      header,
      `\r\n${body}`,
    ]);
    expect(answer.status, answer.body).toBe(404);
  });
});
