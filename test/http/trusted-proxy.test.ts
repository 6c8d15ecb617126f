// Per-address limits behind a proxy: only the proxies TRUST_PROXY names are believed, so a client that
// writes its own X-Forwarded-For cannot pick the address its requests are counted against. The limits key
// on the address the trusted proxy appended. Runs on PGlite, and on PostgreSQL (shared limiter store) when
// TEST_DATABASE_URL is set.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "./error-envelope.js";

const PASSWORD = "a long enough passphrase";
const PROXY = "10.0.0.2";

function uniqueEmail(): string {
  return `proxy-${randomUUID()}@example.com`;
}

/** A request as the proxy forwards it: the client's own X-Forwarded-For, then the address the proxy saw. */
function viaProxy(t: TestApp, clientAddress: string, clientSentHeader: string | null, proxy = PROXY) {
  return t.app.inject({
    method: "POST",
    url: "/v1/registration",
    payload: { business_name: "Proxied", email: uniqueEmail(), password: PASSWORD },
    remoteAddress: proxy,
    headers: { "x-forwarded-for": clientSentHeader === null ? clientAddress : `${clientSentHeader}, ${clientAddress}` },
  });
}

describe.each([
  ["one trusted hop (TRUST_PROXY=1)", "1"],
  ["the proxy named by address (TRUST_PROXY=10.0.0.2)", PROXY],
  ["the proxy named by range (TRUST_PROXY=10.0.0.0/24)", "10.0.0.0/24"],
])("registration limit behind %s", (_name, trustProxy) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: trustProxy, REGISTRATION_RATE_LIMIT_REQUESTS: "2" } });
  });
  afterAll(async () => t?.close());

  it("a client that sends its own X-Forwarded-For is still counted by the address the proxy appended", async () => {
    const client = "203.0.113.9";
    const first = await viaProxy(t, client, "spoofed");
    const second = await viaProxy(t, client, "198.51.100.1");
    expect(first.statusCode, first.body).toBe(202);
    expect(second.statusCode, second.body).toBe(202);
    // A fresh made-up address each time changes nothing: the count is the client's.
    const third = await viaProxy(t, client, "198.51.100.2, 198.51.100.3");
    expectErrorEnvelope(third, { status: 429, code: "RATE_LIMITED", actor: null });
    const fourth = await viaProxy(t, client, "spoofed-again");
    expect(fourth.statusCode).toBe(429);

    // Another client behind the same proxy has its own count.
    const other = await viaProxy(t, "203.0.113.10", "203.0.113.9");
    expect(other.statusCode, other.body).toBe(202);
  });
});

describe("registration limit with TRUST_PROXY naming the proxy", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: PROXY, REGISTRATION_RATE_LIMIT_REQUESTS: "2" } });
  });
  afterAll(async () => t?.close());

  it("a client that reaches the service directly is counted by its own address, whatever X-Forwarded-For it sends", async () => {
    const direct = "198.51.100.50";
    const statuses: number[] = [];
    for (const header of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
      const response = await viaProxy(t, header, null, direct);
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([202, 202, 429]);
  });
});

describe("collection page limit behind one trusted hop", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: "1", COLLECTION_RATE_LIMIT_REQUESTS: "3" } });
  });
  afterAll(async () => t?.close());

  it("token guessing with a fresh X-Forwarded-For per request is still limited", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await t.app.inject({
        method: "GET",
        url: `/collect/guess-${i}`,
        remoteAddress: PROXY,
        headers: { "x-forwarded-for": `198.51.100.${i}, 203.0.113.9` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
  });
});
