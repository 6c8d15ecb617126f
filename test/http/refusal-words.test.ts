// Refusals that used to mislead (issue 30): each answer names what is wrong and what to do next.
// Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { achConfig, sepaConfig } from "../bank-rails/bank-rail-fixtures.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { newKey, PERSON_IDENTITY, postPayout } from "../payouts/payout-fixtures.js";

describe("refusals in words", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;

  beforeAll(async () => {
    t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: "/tmp/refusal-words-root" } });
    biz = await registerBusiness(t.app, "Refusal Words Ltd");
  });
  afterAll(async () => t.close());

  it("valid JSON holding __proto__ is refused as such, not as invalid JSON", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries",
      headers: { ...bearer(biz.keys.sandbox), "content-type": "application/json" },
      payload: '{"name":"Ann","__proto__":{"admin":true}}',
    });
    expect(response.statusCode).toBe(400);
    const error = response.json().error;
    expect(error.code).toBe("bad_request");
    expect(error.message).toContain('"__proto__"');
    expect(error.message).toContain("valid JSON but");
    expect(error.message).not.toContain("not valid JSON");

    const broken = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries",
      headers: { ...bearer(biz.keys.sandbox), "content-type": "application/json" },
      payload: '{"name":"Ann",',
    });
    expect(broken.json().error.message).toContain("not valid JSON");
  });

  it("an API key sent with a disagreeing X-Environment is 400 ENVIRONMENT_MISMATCH; an agreeing one is served", async () => {
    const mismatch = await t.app.inject({
      method: "GET",
      url: "/v1/payouts",
      headers: { ...bearer(biz.keys.sandbox), "x-environment": "production" },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.code).toBe("ENVIRONMENT_MISMATCH");
    expect(mismatch.json().error.message).toContain("sandbox key");
    expect(mismatch.json().error.docs_url).toMatch(/#environment_mismatch$/);

    const unknown = await t.app.inject({
      method: "GET",
      url: "/v1/payouts",
      headers: { ...bearer(biz.keys.production), "x-environment": "staging" },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe("ENVIRONMENT_MISMATCH");

    const agreeing = await t.app.inject({
      method: "GET",
      url: "/v1/payouts",
      headers: { ...bearer(biz.keys.production), "x-environment": "Production" },
    });
    expect(agreeing.statusCode, agreeing.body).toBe(200);

    const errorsPage = await t.app.inject({ method: "GET", url: "/docs/errors" });
    expect(errorsPage.body).toContain("ENVIRONMENT_MISMATCH");
  });

  it("an approval rule whose minimum exceeds its maximum is 422 naming the field", async () => {
    const response = await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      headers: bearer(biz.keys.sandbox),
      payload: {
        rules: [
          { name: "Small ones", outcome: "approve", max_amount_minor: 5000 },
          { name: "Never", outcome: "reject", min_amount_minor: 10000, max_amount_minor: 500 },
          { name: "Old payees", outcome: "reject", min_beneficiary_age_hours: 48, max_beneficiary_age_hours: 24 },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(422);
    const error = response.json().error;
    expect(error.code).toBe("POLICY_RULE_NEVER_MATCHES");
    expect(error.details).toEqual([
      expect.objectContaining({ field: "rules[1].min_amount_minor", code: "out_of_range" }),
      expect.objectContaining({ field: "rules[2].min_beneficiary_age_hours", code: "out_of_range" }),
    ]);
    expect(error.details[0].message).toContain("at most 500");
    // Nothing was stored.
    const policy = await t.app.inject({ method: "GET", url: "/v1/approval-policy", headers: bearer(biz.keys.sandbox) });
    expect(policy.json().rules).toEqual([]);
  });

  it("BENEFICIARY_NOT_COMPLIANT says how to fix it", async () => {
    const pending = await createBeneficiary(t.app, biz.keys.sandbox, PERSON_IDENTITY);
    await registerBankAccount(t.app, biz.keys.sandbox, pending.id);
    const refused = await postPayout(
      t.app,
      biz.keys.sandbox,
      { beneficiary_id: pending.id, amount_minor: 1000, currency: "EUR" },
      { "idempotency-key": newKey() },
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe("BENEFICIARY_NOT_COMPLIANT");
    expect(refused.json().error.message).toContain("acknowledge it first");
    expect(refused.json().error.message).toContain("/acknowledge");
  });

  it("bank-rail validation names the field and the value expected, never a regular expression", async () => {
    const bodies: Array<[string, Record<string, unknown>]> = [
      ["sepa", sepaConfig({ cutoff_times: ["25:00"], delivery: { kind: "ftp" } })],
      [
        "sepa",
        sepaConfig({
          originator: { name: "A", iban: "DE89370400440532013000", bic: "bad", address: { town_name: "B", country: "DE" } },
          delivery: {
            kind: "sftp",
            host: "a b",
            username: "a b",
            host_key_fingerprint: "x",
            outbound_directory: "../x",
            inbound_directory: "in",
          },
        }),
      ],
      [
        "ach",
        achConfig({
          originator: {
            odfi_routing_number: "12",
            immediate_destination: "x",
            immediate_destination_name: "a",
            immediate_origin: "x",
            immediate_origin_name: "a",
            company_name: "c",
            company_identification: "x",
            entry_description: "lower",
          },
        }),
      ],
    ];
    const details: Array<{ field: string; code: string; message: string }> = [];
    for (const [rail, payload] of bodies) {
      const response = await t.app.inject({
        method: "PUT",
        url: `/v1/bank-rails/${rail}`,
        headers: bearer(biz.keys.production),
        payload,
      });
      expect(response.statusCode, response.body).toBe(400);
      details.push(...response.json().error.details);
    }
    const fields = details.map((d) => d.field).sort();
    expect(fields).toEqual(
      [
        "cutoff_times[0]",
        "delivery.kind",
        "originator.bic",
        "delivery.host",
        "delivery.username",
        "delivery.host_key_fingerprint",
        "delivery.outbound_directory",
        "originator.odfi_routing_number",
        "originator.immediate_destination",
        "originator.immediate_origin",
        "originator.company_identification",
        "originator.entry_description",
      ].sort(),
    );
    for (const detail of details) {
      expect(detail.message, detail.field).not.toMatch(/regular expression|\^|\$|not one of the allowed values/);
      expect(detail.message, detail.field).toMatch(/Expected/);
    }
    expect(details.find((d) => d.field === "delivery.kind")?.message).toBe("Expected one of: sftp, local_directory.");
    expect(details.find((d) => d.field === "cutoff_times[0]")?.message).toContain("HH:MM");

    const timeZone = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/ach",
      headers: bearer(biz.keys.production),
      payload: achConfig({ time_zone: "Mars/Base" }),
    });
    expect(timeZone.json().error.details[0]).toMatchObject({ field: "time_zone" });
    expect(timeZone.json().error.details[0].message).toContain('"Mars/Base"');
  });

  it("a private SFTP host's refusal names the setting that allows it", async () => {
    const response = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(biz.keys.production),
      payload: sepaConfig({
        delivery: { ...(sepaConfig().delivery as object), host: "127.0.0.1" },
      }),
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error.code).toBe("BANK_RAIL_HOST_NOT_PUBLIC");
    expect(response.json().error.message).toContain("BANK_RAIL_ALLOW_PRIVATE_HOSTS=true");
  });
});
