// The export in the OpenAPI document: a text/csv 200 with its Content-Disposition header and the column
// list in the description, while every error response stays the JSON envelope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

interface Response {
  description: string;
  headers?: Record<string, { schema?: { type?: string } }>;
  content?: Record<string, { schema?: { type?: string; $ref?: string } }>;
}

describe("GET /v1/beneficiaries/export in the OpenAPI document", () => {
  let t: TestApp;
  let operation: { description: string; responses: Record<string, Response> };

  beforeAll(async () => {
    t = await buildTestApp();
    const doc = (await t.app.inject({ method: "GET", url: "/v1/openapi.json" })).json() as {
      paths: Record<string, Record<string, typeof operation>>;
    };
    const found = doc.paths["/v1/beneficiaries/export"]?.get;
    if (found === undefined) throw new Error("the export is not in the document");
    operation = found;
  });
  afterAll(async () => t.close());

  it("answers 200 as text/csv with a Content-Disposition header", () => {
    const ok = operation.responses["200"];
    expect(Object.keys(ok?.content ?? {})).toEqual(["text/csv"]);
    expect(ok?.content?.["text/csv"]?.schema?.type).toBe("string");
    expect(ok?.headers?.["content-disposition"]?.schema?.type).toBe("string");
  });

  it("keeps every error response a JSON envelope", () => {
    const errors = Object.entries(operation.responses).filter(([status]) => /^[45]/.test(status));
    expect(errors.map(([status]) => status)).toEqual(expect.arrayContaining(["401", "429", "500"]));
    for (const [, response] of errors) {
      expect(Object.keys(response.content ?? {})).toEqual(["application/json"]);
      expect(response.content?.["application/json"]?.schema?.$ref).toBe("#/components/schemas/ErrorEnvelope");
    }
  });

  it("documents the columns and the formula escaping", () => {
    for (const column of ["id", "tax_id", "postal_address_line1", "payout_destination_last4", "archived_at"]) {
      expect(operation.description).toContain(`\`${column}\``);
    }
    expect(operation.description).toContain("formula");
  });
});
