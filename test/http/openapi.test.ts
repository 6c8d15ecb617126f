// GET /v1/openapi.json: a valid OpenAPI 3.1 document, version 0.0.1, describing bearer authentication and
// declaring, for every operation, the error statuses it can answer with the shared ErrorEnvelope.
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
const WRITE_METHODS = new Set(["put", "post", "delete", "patch"]);
const ENVELOPE_REF = "#/components/schemas/ErrorEnvelope";

interface Operation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  security?: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; scheme?: string }>;
    schemas: Record<string, { properties?: Record<string, { required?: string[] }> }>;
  };
}

describe("OpenAPI document", () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let operations: Array<{ path: string; method: string; op: Operation }>;

  beforeAll(async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: "GET", url: "/v1/openapi.json" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    doc = res.json() as OpenApiDocument;
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      HTTP_METHODS.filter((m) => item[m] !== undefined).map((method) => ({ path, method, op: item[method] as Operation })),
    );
  });
  afterAll(async () => t.close());

  it("is served without an API key and validates as OpenAPI", async () => {
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("is OpenAPI 3.1 with interface version 0.0.1", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe("0.0.1");
  });

  it("describes the API operations and nothing operational", () => {
    const names = operations.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        "POST /v1/registration",
        "POST /v1/registration/verification",
        "GET /v1/sandbox/emails",
        "GET /v1/sandbox/emails/{id}",
        "POST /v1/api-keys",
        "GET /v1/api-keys",
        "DELETE /v1/api-keys/{id}",
      ]),
    );
    for (const { path } of operations) expect(path.startsWith("/v1/")).toBe(true);
    expect(Object.keys(doc.paths)).not.toContain("/v1/openapi.json");
  });

  const PUBLIC_OPERATIONS = new Set([
    "POST /v1/registration",
    "POST /v1/registration/verification",
    "POST /v1/session",
    "POST /v1/password-resets",
    "POST /v1/password-resets/confirmation",
    "POST /v1/invitations/acceptance",
  ]);

  it("declares bearer authentication or a session cookie, one of them required by default", () => {
    const bearerSchemes = Object.entries(doc.components.securitySchemes)
      .filter(([, scheme]) => scheme.type === "http" && scheme.scheme?.toLowerCase() === "bearer")
      .map(([name]) => name);
    expect(bearerSchemes).toHaveLength(1);
    expect(doc.security).toEqual([{ [bearerSchemes[0] ?? ""]: [] }, { sessionCookie: [] }]);
  });

  it("public operations need no key and declare 429; session operations take the cookie alone; every other operation declares 401, writes also 403", () => {
    const bearerName =
      Object.entries(doc.components.securitySchemes).find(([, scheme]) => scheme.scheme?.toLowerCase() === "bearer")?.[0] ?? "";
    expect(bearerName).not.toBe("");
    for (const { path, method, op } of operations) {
      const name = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(op.responses);
      if (PUBLIC_OPERATIONS.has(name)) {
        expect(op.security, name).toEqual([]);
        expect(statuses, name).toContain("429");
        continue;
      }
      if (path.startsWith("/v1/session")) {
        expect(op.security, name).toEqual([{ sessionCookie: [] }]);
        expect(statuses, name).toContain("401");
        continue;
      }
      const effective = op.security ?? doc.security ?? [];
      expect(
        effective.some((requirement) => bearerName in requirement),
        `${name} does not require the bearer scheme`,
      ).toBe(true);
      expect(statuses, `${name} does not declare 401`).toContain("401");
      expect(statuses, `${name} does not declare 429`).toContain("429");
      if (WRITE_METHODS.has(method)) expect(statuses, `${name} does not declare 403`).toContain("403");
    }
  });

  it("every declared 4xx and 5xx response is the ErrorEnvelope", () => {
    let checked = 0;
    for (const { path, method, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (!/^[45]\d\d$/.test(status)) continue;
        checked += 1;
        expect(response.content?.["application/json"]?.schema?.$ref, `${method.toUpperCase()} ${path} ${status}`).toBe(
          ENVELOPE_REF,
        );
      }
    }
    expect(checked).toBeGreaterThan(operations.length);
  });

  describe("the published ErrorEnvelope matches real error responses", () => {
    let biz: RegisteredBusiness;
    let validateEnvelope: (data: unknown) => boolean;
    let lastErrors: () => unknown;

    beforeAll(async () => {
      biz = await registerBusiness(t.app);
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema({ ...doc, $id: "openapi.json" } as object);
      const validate = ajv.getSchema(`openapi.json${ENVELOPE_REF}`);
      if (validate === undefined) throw new Error("ErrorEnvelope not found in the document");
      validateEnvelope = (data) => validate(data) as boolean;
      lastErrors = () => validate.errors;
    });

    it("requires every envelope field of the spec", () => {
      const required = doc.components.schemas.ErrorEnvelope?.properties?.error?.required ?? [];
      expect([...required].sort()).toEqual(["actor", "code", "docs_url", "message", "occurred_at", "request_id"]);
    });

    it("accepts the 401, 403, 400 and 404 bodies the service sends, and rejects a wrong shape", async () => {
      const readOnly = await t.app.inject({
        method: "POST",
        url: "/v1/api-keys",
        headers: bearer(biz.keys.sandbox),
        payload: { role: "business_read_only" },
      });
      const readOnlyKey = (readOnly.json() as { key: string }).key;
      const responses = await Promise.all([
        t.app.inject({ method: "GET", url: "/v1/api-keys" }),
        t.app.inject({ method: "POST", url: "/v1/api-keys", headers: bearer(readOnlyKey), payload: { role: "business_admin" } }),
        t.app.inject({ method: "POST", url: "/v1/api-keys", headers: bearer(biz.keys.sandbox), payload: { role: 7 } }),
        t.app.inject({ method: "GET", url: "/v1/nothing-here" }),
      ]);
      expect(responses.map((r) => r.statusCode)).toEqual([401, 403, 400, 404]);
      for (const res of responses) {
        expect(validateEnvelope(res.json()), `${res.body}\n${JSON.stringify(lastErrors())}`).toBe(true);
      }
      expect(validateEnvelope({ error: { code: "not_found", message: "x" } })).toBe(false);
    });
  });
});
