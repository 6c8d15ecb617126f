// The OpenAPI document as a contract SDK generators and new users can rely on: stable operationIds, declared
// tags, every request body and success response a named component with a valid example, error codes per
// response that agree with the code table, declared response headers, webhook payloads open to new fields,
// no non-standard keywords, and a reference that explains the state machines and the simulator itself.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYOUT_STATUSES } from "../../src/modules/payouts/payouts.state.js";
import { SIMULATOR_SCENARIOS } from "../../src/rails/production-simulator.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;
type Json = Record<string, unknown>;

interface Response extends Json {
  content?: Record<string, { schema: Json }>;
  headers?: Record<string, { $ref?: string }>;
  "x-error-codes"?: string[];
}
interface Operation extends Json {
  operationId?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, Response>;
}
interface Document extends Json {
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: { schemas: Record<string, Json>; headers: Record<string, Json> };
}

function* walk(node: unknown, path = "$"): Generator<[string, Json]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* walk(item, `${path}[${i}]`);
    return;
  }
  if (node === null || typeof node !== "object") return;
  yield [path, node as Json];
  for (const [key, value] of Object.entries(node)) {
    if (key !== "examples" && key !== "enum") yield* walk(value, `${path}.${key}`);
  }
}

describe("the OpenAPI document as a contract", () => {
  let t: TestApp;
  let doc: Document;
  let operations: Array<{ name: string; path: string; method: string; op: Operation }>;

  beforeAll(async () => {
    // With the operator's simulator control on, so its operation is checked too.
    t = await buildTestApp({ env: { SIMULATOR_CONTROL_TOKEN: "operator-token-for-the-contract-test-0123456789" } });
    doc = (await t.app.inject({ method: "GET", url: "/v1/openapi.json" })).json() as Document;
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      HTTP_METHODS.filter((m) => item[m] !== undefined).map((method) => ({
        name: `${method.toUpperCase()} ${path}`,
        path,
        method,
        op: item[method] as Operation,
      })),
    );
  });
  afterAll(async () => t.close());

  it("gives every operation a unique camelCase operationId, and the names SDKs are generated from", () => {
    const ids = operations.map(({ name, op }) => {
      expect(op.operationId, name).toMatch(/^[a-z][a-zA-Z0-9]+$/);
      return op.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    const byName = Object.fromEntries(operations.map(({ name, op }) => [name, op.operationId]));
    expect(byName).toMatchObject({
      "POST /v1/payouts": "createPayout",
      "GET /v1/payouts": "listPayouts",
      "GET /v1/payouts/{payoutId}": "getPayout",
      "POST /v1/payouts/{payoutId}/approve": "approvePayout",
      "POST /v1/payouts/{payoutId}/reject": "rejectPayout",
      "POST /v1/beneficiaries": "createBeneficiary",
      "POST /v1/beneficiaries/import": "importBeneficiaries",
      "POST /operator/simulator/payouts/{payoutId}/outcomes": "pushSimulatorOutcome",
    });
    for (const [type, item] of Object.entries(doc.webhooks))
      expect(item.post.operationId, type).toMatch(/^[a-z][a-zA-Z0-9]+Event$/);
  });

  it("declares every tag it uses, and serves from where it is (relative servers)", () => {
    const declared = new Set(doc.tags.map((tag) => tag.name));
    for (const { name, op } of operations)
      for (const tag of op.tags ?? []) expect(declared.has(tag), `${name}: ${tag}`).toBe(true);
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })]);
  });

  it("publishes every request body and success response as a named component with an example that matches it", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: "openapi.json" } as object);
    const named = new Set<string>();
    for (const { name, op } of operations) {
      const body = op.requestBody?.content["application/json"]?.schema;
      if (body !== undefined) {
        expect(body.$ref, `${name} request body`).toMatch(/^#\/components\/schemas\/\w+$/);
        named.add(String(body.$ref));
      }
      for (const [status, response] of Object.entries(op.responses)) {
        const schema = response.content?.["application/json"]?.schema;
        if (Number(status) >= 300 || schema === undefined) continue;
        expect(schema.$ref, `${name} ${status}`).toMatch(/^#\/components\/schemas\/\w+$/);
        named.add(String(schema.$ref));
      }
    }
    expect(named.size).toBeGreaterThan(30);
    for (const ref of named) {
      const component = doc.components.schemas[ref.split("/").pop() ?? ""];
      expect(component?.examples, `${ref} has no example`).toHaveLength(1);
    }
    let checked = 0;
    for (const [componentName, schema] of Object.entries(doc.components.schemas)) {
      for (const example of (schema.examples ?? []) as unknown[]) {
        const validate = ajv.getSchema(`openapi.json#/components/schemas/${componentName}`);
        expect(validate?.(example), `${componentName}: ${JSON.stringify(validate?.errors)}`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(named.size);
  });

  it("lists the error codes of each error response, each with that status in the code table", () => {
    let responses = 0;
    for (const { name, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        responses += 1;
        expect(response.content?.["application/json"]?.schema.$ref, `${name} ${status}`).toBe(
          "#/components/schemas/ErrorEnvelope",
        );
        const codes = response["x-error-codes"] ?? [];
        expect(codes.length, `${name} ${status} lists no code`).toBeGreaterThan(0);
        for (const code of codes)
          expect(t.runtime.deps.modules.errorCodes[code]?.status, `${name} ${status} ${code}`).toBe(Number(status));
      }
    }
    expect(responses).toBeGreaterThan(operations.length * 3);
  });

  it("declares X-Request-Id on every response, the rate-limit headers, Retry-After on 429, and Idempotent-Replayed on a replay", () => {
    for (const { name, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.headers?.["X-Request-Id"]?.$ref, `${name} ${status}`).toBe("#/components/headers/XRequestId");
        if (status === "429") expect(response.headers?.["Retry-After"], `${name} 429`).toBeDefined();
        if (status === "200") expect(response.headers?.["RateLimit-Remaining"], `${name} 200`).toBeDefined();
      }
    }
    const create = doc.paths["/v1/payouts"]?.post;
    expect(create?.responses["200"]?.headers?.["Idempotent-Replayed"]?.$ref).toBe("#/components/headers/IdempotentReplayed");
    expect(create?.responses["201"]?.headers?.["Idempotent-Replayed"]).toBeUndefined();
    expect(Object.keys(doc.components.headers).sort()).toEqual(
      ["IdempotentReplayed", "RateLimitLimit", "RateLimitRemaining", "RateLimitReset", "RetryAfter", "XRequestId"].sort(),
    );
  });

  it("requires the idempotency key on payout creation, and no body on approve, reject and cancel", () => {
    const create = doc.paths["/v1/payouts"]?.post;
    expect(create?.parameters?.find((p) => p.name.toLowerCase() === "idempotency-key")).toMatchObject({
      in: "header",
      required: true,
    });
    for (const action of ["approve", "reject", "cancel"]) {
      const op = doc.paths[`/v1/payouts/{payoutId}/${action}`]?.post;
      expect(op?.requestBody?.required, action).toBe(false);
      expect(op?.requestBody?.content["application/json"]?.schema.$ref, action).toBe("#/components/schemas/PayoutActionRequest");
    }
  });

  it("types the rows of an import and of a bulk upload", () => {
    const importRows = doc.components.schemas.BeneficiaryImportRequest?.properties as Record<string, Json>;
    expect(importRows.rows?.items).toMatchObject({ $ref: "#/components/schemas/BeneficiaryImportRow" });
    const bulkRows = doc.components.schemas.BulkPayoutRequest?.properties as Record<string, Json>;
    expect(bulkRows.rows?.items).toMatchObject({ $ref: "#/components/schemas/BulkPayoutRow" });
    expect(JSON.stringify(doc)).not.toMatch(/see BulkRow/);
  });

  it("lets webhook payloads grow: no object in an event payload forbids added fields", () => {
    expect(Object.keys(doc.webhooks).length).toBeGreaterThan(10);
    for (const [type, item] of Object.entries(doc.webhooks)) {
      for (const [path, node] of walk(item.post.requestBody?.content["application/json"]?.schema)) {
        expect(node.additionalProperties, `${type} ${path}`).not.toBe(false);
      }
    }
  });

  it("uses no non-standard keyword: pattern messages are x- extensions", () => {
    let patterns = 0;
    for (const [path, node] of walk(doc)) {
      expect(node, path).not.toHaveProperty("patternMessage");
      expect(node, path).not.toHaveProperty("patternCode");
      if (typeof node.pattern === "string") patterns += 1;
    }
    expect(patterns).toBeGreaterThan(0);
    expect(doc.components.schemas.CreateBeneficiaryRequest).toMatchObject({
      properties: { phone: { "x-pattern-message": "Expected an E.164 phone number, e.g. +4915123456789." } },
    });
  });

  it("explains itself: the state machines, the sandbox and every simulator scenario, and no pointer to a spec users do not have", () => {
    const tag = (name: string) => doc.tags.find((t) => t.name === name)?.description ?? "";
    for (const status of PAYOUT_STATUSES) expect(tag("Payouts"), status).toContain(status);
    expect(tag("Payouts")).toContain("pending_approval ───");
    for (const scenario of SIMULATOR_SCENARIOS) {
      if (scenario.amountMinor !== null) expect(tag("Payouts"), scenario.name).toContain(`\`${scenario.amountMinor}\``);
    }
    expect(tag("Payouts")).toContain("+refuse_enrollment");
    expect(tag("Payouts")).toContain("**Sandbox**");
    for (const status of [
      "suspended",
      "reacknowledgment_required",
      "pending_details",
      "pending_kyc",
      "action_required",
      "ready",
    ]) {
      expect(tag("Beneficiaries"), status).toContain(status);
    }
    for (const state of ["consumed", "cancelled", "superseded", "expired"])
      expect(tag("Collection links"), state).toContain(state);
    expect(JSON.stringify(doc)).not.toMatch(/the spec's|see the spec/i);
  });

  describe("answers that say what a field expects", () => {
    let biz: RegisteredBusiness;
    beforeAll(async () => {
      biz = await registerBusiness(t.app);
    });

    it('a lowercase currency gets the expected format in words, not "Invalid format."', async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/payouts",
        headers: { ...bearer(biz.keys.sandbox), "idempotency-key": "k-currency" },
        payload: { beneficiary_id: "0196f1a3-0a1b-7c20-8e55-8091a2b3c4d6", amount_minor: 100, currency: "eur" },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toContainEqual({
        field: "currency",
        code: "invalid_format",
        message: "Expected an ISO 4217 currency code in capitals, e.g. EUR.",
      });
      expect(res.body).not.toContain("Invalid format.");
    });

    it("approve needs no body", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/payouts/0196f1a4-1c2d-7e30-a077-a2b3c4d5e6f8/approve",
        headers: bearer(biz.keys.sandbox),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe("not_found");
    });
  });

  it("the reference page and the document the start banner names answer", async () => {
    expect((await t.app.inject({ method: "GET", url: "/docs" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/v1/openapi.json" })).statusCode).toBe(200);
  });
});
