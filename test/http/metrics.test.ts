// /metrics is for the operator: on the API port only behind METRICS_TOKEN, or on its own listener
// (METRICS_PORT, loopback by default); with neither it is not served (404 envelope). Health and readiness
// stay open for orchestrators either way. Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMetricsApp } from "../../src/app.js";
import type { AppInstance } from "../../src/platform/http/types.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "./error-envelope.js";

const TOKEN = "metrics-token-0123456789abcdef0123456789abcdef";

async function expectProbesOpen(t: TestApp): Promise<void> {
  const health = await t.app.inject({ method: "GET", url: "/healthz" });
  expect(health.statusCode).toBe(200);
  expect(health.json()).toEqual({ status: "ok" });
  const ready = await t.app.inject({ method: "GET", url: "/readyz" });
  expect(ready.statusCode, ready.body).toBe(200);
  expect(ready.json()).toMatchObject({ status: "ready" });
}

describe("without METRICS_TOKEN or METRICS_PORT", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it("does not serve /metrics on the API port: 404 in the error envelope", async () => {
    const response = await t.app.inject({ method: "GET", url: "/metrics" });
    expectErrorEnvelope(response, { status: 404, code: "not_found", actor: null });
    expect(response.body).not.toContain("http_requests_total");
  });

  it("keeps /healthz and /readyz open", async () => expectProbesOpen(t));
});

describe("with METRICS_TOKEN on the API port", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => t?.close());

  const scrape = (authorization?: string) =>
    t.app.inject({ method: "GET", url: "/metrics", ...(authorization === undefined ? {} : { headers: { authorization } }) });

  it("refuses a scrape without the token: 401 in the error envelope, no figures", async () => {
    const response = await scrape();
    expectErrorEnvelope(response, {
      status: 401,
      code: "unauthorized",
      actor: null,
      message: "A valid metrics token is required: send `Authorization: Bearer <METRICS_TOKEN>`.",
    });
    expect(response.body).not.toContain("http_requests_total");
  });

  it("refuses a wrong token, a token of another length, another scheme and an API key", async () => {
    const wrong = `${TOKEN.slice(0, -1)}x`;
    for (const authorization of [
      `Bearer ${wrong}`,
      `Bearer ${TOKEN}x`,
      "Bearer short",
      `Basic ${TOKEN}`,
      `Bearer  ${TOKEN} extra`,
    ]) {
      const response = await scrape(authorization);
      expectErrorEnvelope(response, { status: 401, code: "unauthorized", actor: null });
      expect(response.body).not.toContain("http_requests_total");
    }
  });

  it("serves Prometheus text with the token (any case of the scheme)", async () => {
    for (const scheme of ["Bearer", "bearer"]) {
      const response = await scrape(`${scheme} ${TOKEN}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/plain/);
      expect(response.body).toContain("# TYPE http_requests_total counter");
      expect(response.body).toContain("jobs_pending");
    }
  });

  it("keeps /healthz and /readyz open without a token", async () => expectProbesOpen(t));
});

describe("with METRICS_PORT (its own listener)", () => {
  let t: TestApp;
  let metricsApp: AppInstance;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_PORT: "0", METRICS_TOKEN: TOKEN } });
    metricsApp = await buildMetricsApp(t.runtime.deps);
    await metricsApp.listen({ port: 0, host: t.config.metrics.host });
    const address = metricsApp.server.address();
    if (address === null || typeof address === "string") throw new Error("metrics listener has no port");
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await metricsApp?.close();
    await t?.close();
  });

  it("binds to loopback by default", () => {
    expect(t.config.metrics.host).toBe("127.0.0.1");
    expect((metricsApp.server.address() as { address: string }).address).toBe("127.0.0.1");
  });

  it("serves /metrics there, with the token, and counts the API's requests", async () => {
    await t.app.inject({ method: "GET", url: "/healthz" });
    const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/healthz",status_code="200"\} \d+/);
  });

  it("refuses a scrape without the token there too, in the error envelope", async () => {
    const missing = await metricsApp.inject({ method: "GET", url: "/metrics" });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error.code).toBe("unauthorized");
    const wrong = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer not-the-token" } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  });

  it("serves nothing else: the API is not on the metrics listener", async () => {
    const response = await metricsApp.inject({ method: "GET", url: "/v1/openapi.json" });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("not_found");
  });

  it("the API port does not serve /metrics, even with the token", async () => {
    const response = await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
    expectErrorEnvelope(response, { status: 404, code: "not_found", actor: null });
  });

  it("keeps /healthz and /readyz open on the API port", async () => expectProbesOpen(t));
});

describe("with METRICS_PORT and no token", () => {
  let t: TestApp;
  let metricsApp: AppInstance;
  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_PORT: "0" } });
    metricsApp = await buildMetricsApp(t.runtime.deps);
  });
  afterAll(async () => {
    await metricsApp?.close();
    await t?.close();
  });

  it("the metrics listener serves without a token; the API port still does not", async () => {
    const scraped = await metricsApp.inject({ method: "GET", url: "/metrics" });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain("http_requests_total");
    const api = await t.app.inject({ method: "GET", url: "/metrics" });
    expectErrorEnvelope(api, { status: 404, code: "not_found", actor: null });
  });
});
