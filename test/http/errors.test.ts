// Every error class through real requests: each answer is the spec's envelope, with the request id of
// the X-Request-Id header, the caller (or null), and a docs_url pointing at the error reference.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLATFORM_ERRORS } from "../../src/platform/errors.js";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { withFailingInsert } from "../helpers/failing-insert.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { detailCodes, type ExpectedActor, expectErrorEnvelope } from "./error-envelope.js";

function adminActor(biz: RegisteredBusiness, environment: "sandbox" | "production"): ExpectedActor {
  return { user_id: biz.userId, membership_id: biz.membershipId, role: "business_admin", environment };
}

let registrationCounter = 0;
function registrationBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  registrationCounter += 1;
  return {
    business_name: "Errors Ltd",
    email: `errors-${registrationCounter}-${randomBytes(4).toString("hex")}@example.com`,
    password: "a perfectly long password",
    ...overrides,
  };
}

describe("error envelope", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;

  beforeAll(async () => {
    t = await buildTestApp();
    biz = await registerBusiness(t.app, "Errors Ltd");
  });
  afterAll(async () => t.close());

  describe("routing", () => {
    it("an unknown route answers 404 not_found", async () => {
      const res = await t.app.inject({ method: "GET", url: "/v1/no-such-thing" });
      expectErrorEnvelope(res, { status: 404, code: "not_found", actor: null });

      const outside = await t.app.inject({ method: "POST", url: "/definitely/not/here", payload: {} });
      expectErrorEnvelope(outside, { status: 404, code: "not_found", actor: null });
    });

    it("a wrong method on a known path answers 405 method_not_allowed with Allow", async () => {
      const res = await t.app.inject({ method: "PUT", url: "/v1/api-keys", headers: bearer(biz.keys.sandbox) });
      expectErrorEnvelope(res, { status: 405, code: "method_not_allowed", actor: null });
      const allowed = String(res.headers.allow)
        .split(",")
        .map((m) => m.trim());
      expect(allowed).toEqual(expect.arrayContaining(["GET", "POST"]));
      expect(allowed).not.toContain("PUT");

      const onItem = await t.app.inject({ method: "PATCH", url: `/v1/api-keys/${randomUUID()}` });
      expectErrorEnvelope(onItem, { status: 405, code: "method_not_allowed", actor: null });
      expect(onItem.headers.allow).toBe("DELETE");
    });
  });

  describe("request bodies", () => {
    it("malformed JSON answers 400 bad_request", async () => {
      const anonymous = await t.app.inject({
        method: "POST",
        url: "/v1/registration",
        headers: { "content-type": "application/json" },
        payload: '{"business_name": "Acme",',
      });
      expectErrorEnvelope(anonymous, { status: 400, code: "bad_request", actor: null });

      const authenticated = await t.app.inject({
        method: "POST",
        url: "/v1/api-keys",
        headers: { ...bearer(biz.keys.sandbox), "content-type": "application/json" },
        payload: "{role: business_admin}",
      });
      expectErrorEnvelope(authenticated, { status: 400, code: "bad_request", actor: adminActor(biz, "sandbox") });
    });

    it("a body that is not JSON answers 415 unsupported_media_type", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/registration",
        headers: { "content-type": "text/plain" },
        payload: "business_name=Acme",
      });
      expectErrorEnvelope(res, { status: 415, code: "unsupported_media_type", actor: null });

      const form = await t.app.inject({
        method: "POST",
        url: "/v1/api-keys",
        headers: { ...bearer(biz.keys.production), "content-type": "application/x-www-form-urlencoded" },
        payload: "role=business_admin",
      });
      expectErrorEnvelope(form, { status: 415, code: "unsupported_media_type", actor: adminActor(biz, "production") });
    });
  });

  describe("validation", () => {
    async function register(body: Record<string, unknown>) {
      return t.app.inject({ method: "POST", url: "/v1/registration", payload: body });
    }

    it("a missing field is `required`", async () => {
      const res = await t.app.inject({ method: "POST", url: "/v1/api-keys", headers: bearer(biz.keys.sandbox), payload: {} });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: adminActor(biz, "sandbox") });
      expect(detailCodes(error)).toEqual(["role:required"]);
    });

    it("a wrong JSON type is `invalid_type` (no coercion of bodies)", async () => {
      const res = await register(registrationBody({ password: 123456789012345 }));
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
      expect(detailCodes(error)).toEqual(["password:invalid_type"]);

      const query = await t.app.inject({ method: "GET", url: "/v1/api-keys?limit=many", headers: bearer(biz.keys.sandbox) });
      const queryError = expectErrorEnvelope(query, {
        status: 400,
        code: "validation_failed",
        actor: adminActor(biz, "sandbox"),
      });
      expect(detailCodes(queryError)).toEqual(["limit:invalid_type"]);
    });

    it("a value outside an enumeration is `invalid_enum`", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/api-keys",
        headers: bearer(biz.keys.sandbox),
        payload: { role: "owner" },
      });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: adminActor(biz, "sandbox") });
      expect(detailCodes(error)).toEqual(["role:invalid_enum"]);
      expect(error.details?.[0]?.message).toContain("business_read_only");
    });

    it("too long and too short strings are `too_long` and `too_short`", async () => {
      const res = await register(registrationBody({ business_name: "x".repeat(201), password: "short" }));
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
      expect(detailCodes(error)).toEqual(["business_name:too_long", "password:too_short"]);

      const label = await t.app.inject({
        method: "POST",
        url: "/v1/api-keys",
        headers: bearer(biz.keys.sandbox),
        payload: { role: "business_admin", label: "" },
      });
      const labelError = expectErrorEnvelope(label, {
        status: 400,
        code: "validation_failed",
        actor: adminActor(biz, "sandbox"),
      });
      expect(detailCodes(labelError)).toEqual(["label:too_short"]);
    });

    it("an unexpected field is `unknown_field`", async () => {
      const res = await register(registrationBody({ plan: "enterprise" }));
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
      expect(detailCodes(error)).toEqual(["plan:unknown_field"]);
    });

    it("a malformed e-mail address is `invalid_format`", async () => {
      const res = await register(registrationBody({ email: "not-an-email" }));
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
      expect(detailCodes(error)).toEqual(["email:invalid_format"]);
    });

    it("every problem of a body is reported at once", async () => {
      const res = await register({ business_name: "", email: "not-an-email", password: 42, extra: true });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
      expect(detailCodes(error)).toEqual([
        "business_name:too_short",
        "email:invalid_format",
        "extra:unknown_field",
        "password:invalid_type",
      ]);
    });

    it("a malformed path id answers 400 bad_request naming the parameter", async () => {
      const res = await t.app.inject({ method: "DELETE", url: "/v1/api-keys/not-a-uuid", headers: bearer(biz.keys.sandbox) });
      // A path parameter is checked like a body field, so it carries its detail too.
      const error = expectErrorEnvelope(res, {
        status: 400,
        code: "bad_request",
        actor: adminActor(biz, "sandbox"),
        details: true,
      });
      expect(detailCodes(error)).toEqual(["id:invalid_uuid"]);
    });

    it("a path that does not decode or an absurdly long path id answers 400 bad_request", async () => {
      const undecodable = await t.app.inject({ method: "DELETE", url: "/v1/api-keys/%zz", headers: bearer(biz.keys.sandbox) });
      expectErrorEnvelope(undecodable, { status: 400, code: "bad_request", actor: null });

      const tooLong = await t.app.inject({
        method: "DELETE",
        url: `/v1/api-keys/${"a".repeat(300)}`,
        headers: bearer(biz.keys.sandbox),
      });
      expectErrorEnvelope(tooLong, { status: 400, code: "bad_request", actor: null });
    });
  });

  describe("authentication (401, actor null)", () => {
    const cases: Array<[string, (biz: RegisteredBusiness) => Record<string, string>]> = [
      ["no Authorization header", () => ({})],
      ["a non-Bearer scheme", (b) => ({ authorization: `Basic ${Buffer.from(`${b.keys.sandbox}:`).toString("base64")}` })],
      ["Bearer without a key", () => ({ authorization: "Bearer " })],
      ["a malformed key", () => ({ authorization: "Bearer not-an-api-key" })],
      [
        "a well-formed key that does not exist",
        () => ({ authorization: `Bearer pok_sandbox_${randomBytes(16).toString("hex")}_${randomBytes(32).toString("hex")}` }),
      ],
      [
        "a real key id with a wrong secret",
        (b) => ({ authorization: `Bearer ${b.keys.sandbox.slice(0, -64)}${randomBytes(32).toString("hex")}` }),
      ],
      [
        "a real key presented under the other environment",
        (b) => ({ authorization: `Bearer ${b.keys.sandbox.replace("pok_sandbox_", "pok_production_")}` }),
      ],
    ];

    for (const [name, headers] of cases) {
      it(`${name} answers 401 unauthorized`, async () => {
        const res = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: headers(biz) });
        expectErrorEnvelope(res, { status: 401, code: "unauthorized", actor: null });
      });
    }

    it("a revoked key answers 401 unauthorized", async () => {
      const doomed = await createApiKey(t.app, biz.keys.sandbox, "business_admin", "doomed");
      const revoke = await t.app.inject({
        method: "DELETE",
        url: `/v1/api-keys/${doomed.id}`,
        headers: bearer(biz.keys.sandbox),
      });
      expect(revoke.statusCode).toBe(200);
      const res = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(doomed.key) });
      expectErrorEnvelope(res, { status: 401, code: "unauthorized", actor: null });
    });

    it("the Bearer scheme name is case-insensitive (RFC 7235)", async () => {
      const res = await t.app.inject({
        method: "GET",
        url: "/v1/api-keys",
        headers: { authorization: `bearer ${biz.keys.sandbox}` },
      });
      expect(res.statusCode).toBe(200);
    });

    it("an unauthenticated caller learns nothing about the body (401 before validation)", async () => {
      const res = await t.app.inject({ method: "POST", url: "/v1/api-keys", payload: { role: "owner" } });
      expectErrorEnvelope(res, { status: 401, code: "unauthorized", actor: null });
    });
  });

  describe("authorization (403, actor filled)", () => {
    for (const environment of ["sandbox", "production"] as const) {
      it(`a business_read_only ${environment} key cannot write`, async () => {
        const readOnly = await createApiKey(t.app, biz.keys[environment], "business_read_only");
        const countKeys = async () => {
          const list = await t.app.inject({ method: "GET", url: "/v1/api-keys?limit=200", headers: bearer(readOnly.key) });
          expect(list.statusCode).toBe(200);
          return (list.json() as { api_keys: unknown[] }).api_keys.length;
        };
        const before = await countKeys();
        const res = await t.app.inject({
          method: "POST",
          url: "/v1/api-keys",
          headers: bearer(readOnly.key),
          payload: { role: "business_admin" },
        });
        expectErrorEnvelope(res, {
          status: 403,
          code: "forbidden",
          actor: { user_id: biz.userId, membership_id: biz.membershipId, role: "business_read_only", environment },
        });
        // Nothing was created.
        expect(await countKeys()).toBe(before);
      });
    }
  });

  describe("unexpected failures", () => {
    it("an unexpected exception answers 500 internal_error with nothing internal, and stores nothing", async () => {
      const res = await withFailingInsert(t.runtime.deps.database.db, "api_keys", "internal detail: boom in trigger", () =>
        t.app.inject({
          method: "POST",
          url: "/v1/api-keys",
          headers: bearer(biz.keys.production),
          payload: { role: "business_admin", label: "will fail" },
        }),
      );
      const error = expectErrorEnvelope(res, {
        status: 500,
        code: "internal_error",
        actor: adminActor(biz, "production"),
        message: PLATFORM_ERRORS.internal_error.message,
      });
      for (const leak of ["boom", "trigger", "api_keys", "insert", "select", "Drizzle", "Error:", "    at ", ".ts:", ".js:"]) {
        expect(res.body).not.toContain(leak);
      }
      // The operator can find the failure by the request id the client quotes.
      const logged = t.logLines.filter((line) => line.includes(error.request_id) && line.includes('"level":50'));
      expect(logged.length).toBeGreaterThan(0);

      const list = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(biz.keys.production) });
      const labels = (list.json() as { api_keys: Array<{ label: string | null }> }).api_keys.map((k) => k.label);
      expect(labels).not.toContain("will fail");
    });

    it("a process that is shutting down answers 503 service_unavailable on readiness", async () => {
      const ready = await t.app.inject({ method: "GET", url: "/readyz" });
      expect(ready.statusCode).toBe(200);
      // Only readiness depends on this flag; requests keep being served while connections drain.
      t.runtime.beginShutdown();
      const res = await t.app.inject({ method: "GET", url: "/readyz" });
      expectErrorEnvelope(res, { status: 503, code: "service_unavailable", actor: null });
    });
  });

  describe("request ids and the error reference", () => {
    it("every response carries a distinct X-Request-Id, errors and successes alike", async () => {
      const responses = await Promise.all([
        t.app.inject({ method: "GET", url: "/healthz" }),
        t.app.inject({ method: "GET", url: "/v1/openapi.json" }),
        t.app.inject({ method: "GET", url: "/docs/errors" }),
        t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(biz.keys.sandbox) }),
        t.app.inject({ method: "GET", url: "/v1/api-keys" }),
        t.app.inject({ method: "GET", url: "/nowhere" }),
      ]);
      const ids = responses.map((r) => r.headers["x-request-id"]);
      for (const id of ids) expect(typeof id === "string" && id.length > 0).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it("the error reference has an entry, with its status, for every error code", async () => {
      const res = await t.app.inject({ method: "GET", url: "/docs/errors" });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      const ids = new Set([...res.body.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
      for (const [code, info] of Object.entries(t.runtime.deps.modules.errorCodes)) {
        const anchor = code.toLowerCase();
        expect(ids, `missing anchor for ${code}`).toContain(anchor);
        const section = new RegExp(`<section id="${anchor}">([\\s\\S]*?)</section>`).exec(res.body)?.[1] ?? "";
        expect(section).toContain(code);
        expect(section).toContain(`HTTP ${info.status}`);
      }
    });
  });
});

describe("body size limit", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;

  beforeAll(async () => {
    t = await buildTestApp({ env: { BODY_LIMIT_BYTES: "1024" } });
    biz = await registerBusiness(t.app, "Small Bodies");
  });
  afterAll(async () => t.close());

  it("a body over BODY_LIMIT_BYTES answers 413 payload_too_large", async () => {
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/v1/registration",
      payload: registrationBody({ business_name: "x".repeat(2000) }),
    });
    expectErrorEnvelope(anonymous, { status: 413, code: "payload_too_large", actor: null });

    const authenticated = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: bearer(biz.keys.sandbox),
      payload: { role: "business_admin", label: "y".repeat(2000) },
    });
    expectErrorEnvelope(authenticated, { status: 413, code: "payload_too_large", actor: adminActor(biz, "sandbox") });
  });

  it("a body under the limit is accepted", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: bearer(biz.keys.sandbox),
      payload: { role: "business_read_only", label: "z".repeat(100) },
    });
    expect(res.statusCode).toBe(201);
  });
});
