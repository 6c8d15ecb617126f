// The API rate limit applies per Business and environment (spec: Limits): RATE_LIMIT_REQUESTS per window,
// then 429 RATE_LIMITED with Retry-After; every counted response describes the window in RateLimit-* headers.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "../../src/modules/api-keys/api-keys.schema.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "./error-envelope.js";

const LIMIT = 3;
const WINDOW_SECONDS = 60;

function positiveInteger(value: string | string[] | number | undefined): number {
  const n = Number(value);
  expect(Number.isInteger(n), `not an integer: ${String(value)}`).toBe(true);
  expect(n).toBeGreaterThan(0);
  return n;
}

describe("tenant rate limit", () => {
  let t: TestApp;
  let a: RegisteredBusiness;
  let b: RegisteredBusiness;

  beforeAll(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_REQUESTS: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) } });
    a = await registerBusiness(t.app, "Busy Business");
    b = await registerBusiness(t.app, "Quiet Business");
  });
  afterAll(async () => t.close());

  const listKeys = (key: string) => t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(key) });

  it("allows RATE_LIMIT_REQUESTS requests, each describing the window, then answers 429 RATE_LIMITED", async () => {
    for (let i = 1; i <= LIMIT; i += 1) {
      const res = await listKeys(a.keys.sandbox);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["ratelimit-limit"]).toBe(String(LIMIT));
      expect(res.headers["ratelimit-remaining"]).toBe(String(LIMIT - i));
      expect(positiveInteger(res.headers["ratelimit-reset"])).toBeLessThanOrEqual(WINDOW_SECONDS);
      expect(res.headers["retry-after"]).toBeUndefined();
    }

    const limited = await listKeys(a.keys.sandbox);
    expectErrorEnvelope(limited, {
      status: 429,
      code: "RATE_LIMITED",
      actor: { user_id: a.userId, membership_id: a.membershipId, role: "business_admin", environment: "sandbox" },
    });
    expect(positiveInteger(limited.headers["retry-after"])).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(limited.headers["ratelimit-limit"]).toBe(String(LIMIT));
    expect(limited.headers["ratelimit-remaining"]).toBe("0");
    expect(positiveInteger(limited.headers["ratelimit-reset"])).toBeLessThanOrEqual(WINDOW_SECONDS);
  });

  it("the limit covers every endpoint of the tenant, writes included, and a throttled write does nothing", async () => {
    const write = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: bearer(a.keys.sandbox),
      payload: { role: "business_read_only", label: "throttled" },
    });
    expectErrorEnvelope(write, {
      status: 429,
      code: "RATE_LIMITED",
      actor: { user_id: a.userId, membership_id: a.membershipId, role: "business_admin", environment: "sandbox" },
    });
    const stored = await t.runtime.deps.database.db.select().from(apiKeys).where(eq(apiKeys.label, "throttled"));
    expect(stored).toEqual([]);
  });

  it("the same Business's other environment has its own budget", async () => {
    const res = await listKeys(a.keys.production);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["ratelimit-limit"]).toBe(String(LIMIT));
    expect(res.headers["ratelimit-remaining"]).toBe(String(LIMIT - 1));
  });

  it("another Business is unaffected", async () => {
    for (const environment of ["sandbox", "production"] as const) {
      const res = await listKeys(b.keys[environment]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["ratelimit-remaining"]).toBe(String(LIMIT - 1));
    }
  });

  it("public documents are not counted against anyone", async () => {
    for (let i = 0; i < LIMIT + 2; i += 1) {
      const res = await t.app.inject({ method: "GET", url: "/v1/openapi.json" });
      expect(res.statusCode).toBe(200);
    }
    const res = await listKeys(b.keys.sandbox);
    expect(res.statusCode).toBe(200);
    expect(res.headers["ratelimit-remaining"]).toBe(String(LIMIT - 2));
  });
});
