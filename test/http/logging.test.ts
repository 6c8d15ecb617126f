// Logs never carry credentials: no API key, no key secret, no password, no Authorization header value,
// even when requests fail. Each request's log line carries its request id.
import { randomBytes } from "node:crypto";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../helpers/factories.js";
import { withFailingInsert } from "../helpers/failing-insert.js";
import { takeRegistrationToken } from "../helpers/mail-queue.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

const PASSWORD = "log-canary password 8d1e";

interface LogLine {
  level: number;
  msg?: string;
  request_id?: string;
  route?: string;
  status?: number;
}

describe("logging", () => {
  let t: TestApp;
  const keys: string[] = [];
  const tokens: string[] = [];
  const responseIds: string[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    const inject = async (options: InjectOptions) => {
      const res = await t.app.inject(options);
      responseIds.push(String(res.headers["x-request-id"]));
      return res;
    };

    const email = `logging-${randomBytes(4).toString("hex")}@example.com`;
    const started = await inject({
      method: "POST",
      url: "/v1/registration",
      payload: { business_name: "Log Watchers", email, password: PASSWORD },
    });
    expect(started.statusCode).toBe(202);
    const token = await takeRegistrationToken(t, email);
    tokens.push(token);
    const registration = await inject({ method: "POST", url: "/v1/registration/verification", payload: { token } });
    expect(registration.statusCode).toBe(201);
    const issued = (registration.json() as { api_keys: Array<{ key: string }> }).api_keys.map((k) => k.key);
    keys.push(...issued);
    const [sandbox, production] = issued as [string, string];

    // Requests that carry the password or a token: a known address again, a used token, a validation
    // failure, malformed JSON.
    expect(
      (await inject({ method: "POST", url: "/v1/registration", payload: { business_name: "Dup", email, password: PASSWORD } }))
        .statusCode,
    ).toBe(202);
    tokens.push(await takeRegistrationToken(t, email));
    expect((await inject({ method: "POST", url: "/v1/registration/verification", payload: { token } })).statusCode).toBe(410);
    expect(
      (
        await inject({
          method: "POST",
          url: "/v1/registration",
          payload: { business_name: "", email: "bad", password: PASSWORD },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await inject({
          method: "POST",
          url: "/v1/registration",
          headers: { "content-type": "application/json" },
          payload: `{"password": "${PASSWORD}",`,
        })
      ).statusCode,
    ).toBe(400);

    // Ordinary use, a new key, its revocation and a use after revocation.
    expect((await inject({ method: "GET", url: "/v1/api-keys", headers: bearer(sandbox) })).statusCode).toBe(200);
    const created = await inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: bearer(sandbox),
      payload: { role: "business_admin", label: "log test" },
    });
    expect(created.statusCode).toBe(201);
    const extra = created.json() as { id: string; key: string };
    keys.push(extra.key);
    expect((await inject({ method: "GET", url: "/v1/api-keys", headers: bearer(extra.key) })).statusCode).toBe(200);
    expect((await inject({ method: "DELETE", url: `/v1/api-keys/${extra.id}`, headers: bearer(sandbox) })).statusCode).toBe(200);
    expect((await inject({ method: "GET", url: "/v1/api-keys", headers: bearer(extra.key) })).statusCode).toBe(401);

    // Keys that do not authenticate: a wrong secret for a real id, a malformed header, a wrong environment.
    const forged = `${production.slice(0, -64)}${randomBytes(32).toString("hex")}`;
    keys.push(forged);
    expect((await inject({ method: "GET", url: "/v1/api-keys", headers: bearer(forged) })).statusCode).toBe(401);
    expect(
      (await inject({ method: "GET", url: "/v1/api-keys", headers: { authorization: `Token ${production}` } })).statusCode,
    ).toBe(401);
    expect(
      (
        await inject({
          method: "GET",
          url: "/v1/api-keys",
          headers: bearer(production.replace("pok_production_", "pok_sandbox_")),
        })
      ).statusCode,
    ).toBe(401);

    // An unexpected failure while a key is being created: the error is logged, the new secret must not be.
    const failed = await withFailingInsert(t.runtime.deps.database.db, "api_keys", "logging test failure", () =>
      inject({ method: "POST", url: "/v1/api-keys", headers: bearer(production), payload: { role: "business_admin" } }),
    );
    expect(failed.statusCode).toBe(500);
  });
  afterAll(async () => t.close());

  it("wrote log lines for the requests (the checks below are not vacuous)", () => {
    expect(t.logLines.length).toBeGreaterThan(responseIds.length);
    expect(t.logLines.some((line) => line.includes("logging test failure"))).toBe(true);
  });

  it("no log line contains an API key, a key secret, a registration token, the password or an Authorization header value", () => {
    const forbidden = [
      PASSWORD,
      ...tokens,
      ...keys,
      ...keys.map((k) => k.split("_")[3] ?? ""),
      ...keys.map((k) => `Bearer ${k}`),
    ];
    for (const needle of forbidden) expect(needle.length).toBeGreaterThan(8);
    for (const line of t.logLines) {
      for (const needle of forbidden) {
        expect(line.includes(needle), `log line leaks a credential: ${line.slice(0, 300)}`).toBe(false);
      }
      expect(line.toLowerCase()).not.toContain("bearer pok_");
    }
  });

  it("every request writes a JSON line carrying its request id", () => {
    const lines = t.logLines.map((line) => JSON.parse(line) as LogLine);
    const requestLines = lines.filter((line) => line.msg === "request completed");
    expect(requestLines.length).toBeGreaterThanOrEqual(responseIds.length);
    for (const line of requestLines) {
      expect(typeof line.request_id).toBe("string");
      expect(line.request_id?.length).toBeGreaterThan(0);
      expect(typeof line.status).toBe("number");
    }
    const logged = new Set(requestLines.map((line) => line.request_id));
    for (const id of responseIds) expect(logged, `no log line for request ${id}`).toContain(id);

    // The error line of the failed request carries the same id the client saw.
    const errorLines = lines.filter((line) => line.level >= 50);
    expect(errorLines.length).toBeGreaterThan(0);
    for (const line of errorLines) expect(responseIds).toContain(line.request_id);
  });
});
