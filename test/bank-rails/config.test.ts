// Bank-rail configuration through the API (production, admin role; secrets write-only and encrypted) and the
// routing rule payout creation applies once a Business has a bank rail.
import { generateKeyPairSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankRailConfigs } from "../../src/modules/bank-rails/bank-rails.schema.js";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { newKey, payableBeneficiary, postPayout } from "../payouts/payout-fixtures.js";
import { achConfig, FINGERPRINT, sepaConfig, sepaPayee, US_ACCOUNT, uniqueSepaOriginator } from "./bank-rail-fixtures.js";

describe("bank rail configuration", () => {
  let t: TestApp;
  let business: RegisteredBusiness;
  let key: string;

  beforeAll(async () => {
    t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: "/tmp/bank-rail-root-test" } });
    business = await registerBusiness(t.app);
    key = business.keys.production;
  });
  afterAll(async () => {
    await t.close();
  });

  it("creates, reads and replaces the SEPA rail; the password is never returned and is stored encrypted", async () => {
    const created = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      rail: "sepa",
      file_format: "pain.001.001.09",
      cutoff_times: ["09:30", "15:00"],
      time_zone: "Europe/Berlin",
      status_report_timeout_hours: 24,
      originator: { iban: "DE89370400440532013000", bic: "COBADEFFXXX" },
      delivery: {
        kind: "sftp",
        host: "sftp.bank.example",
        port: 2222,
        has_password: true,
        has_private_key: false,
        host_key_fingerprint: FINGERPRINT,
      },
    });
    expect(created.body).not.toContain("s3cret-sftp-password");
    const [row] = await t.testDatabase.database.db
      .select()
      .from(bankRailConfigs)
      .where(eq(bankRailConfigs.businessId, business.businessId));
    expect(JSON.stringify(row)).not.toContain("s3cret-sftp-password");
    expect(row?.secretsEncrypted).toBeTruthy();

    // A later PUT without the password keeps it.
    const replaced = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({
        file_format: "pain.001.001.03",
        delivery: { ...(sepaConfig().delivery as object), password: undefined },
      }),
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ file_format: "pain.001.001.03", delivery: { has_password: true } });
    const read = await t.app.inject({ method: "GET", url: "/v1/bank-rails/sepa", headers: bearer(key) });
    expect(read.json().file_format).toBe("pain.001.001.03");
    expect(t.logLines.join("\n")).not.toContain("s3cret-sftp-password");
  });

  it("takes an SSH private key, and refuses one that is not a key", async () => {
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const delivery = { ...(sepaConfig().delivery as object), password: undefined, private_key: privateKey };
    const ok = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({ delivery }),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().delivery).toMatchObject({ has_private_key: true, has_password: false });
    expect(ok.body).not.toContain("PRIVATE KEY");
    const bad = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({ delivery: { ...delivery, private_key: "not a key" } }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0]).toMatchObject({ field: "delivery.private_key" });
  });

  it("configures ACH with the PAYROLL description for wage payouts, and refuses reserved descriptions otherwise", async () => {
    const payroll = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/ach",
      headers: bearer(key),
      payload: achConfig({ originator: { ...(achConfig().originator as object), payout_purpose: "payroll" } }),
    });
    expect(payroll.statusCode, payroll.body).toBe(201);
    expect(payroll.json()).toMatchObject({
      file_format: "nacha",
      originator: { entry_description: "PAYROLL" },
      delivery: { kind: "local_directory" },
    });
    const reserved = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/ach",
      headers: bearer(key),
      payload: achConfig({ originator: { ...(achConfig().originator as object), entry_description: "PAYROLL" } }),
    });
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json().error.details[0].field).toBe("originator.entry_description");
  });

  it("refuses wrong originators, time zones and host keys with the field named", async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["sepa", sepaConfig({ originator: { name: "Acme", iban: "DE89370400440532013001" } }), "originator.iban"],
      [
        "sepa",
        sepaConfig({ originator: { name: "Acme", iban: "GB29NWBK60161331926819".replace("GB", "BR") } }),
        "originator.iban",
      ],
      ["sepa", sepaConfig({ time_zone: "Mars/Olympus" }), "time_zone"],
      [
        "sepa",
        sepaConfig({ delivery: { ...(sepaConfig().delivery as object), host_key_fingerprint: "MD5:aa:bb" } }),
        "/delivery",
      ],
      ["sepa", sepaConfig({ delivery: { ...(sepaConfig().delivery as object), outbound_directory: "../etc" } }), "/delivery"],
      [
        "ach",
        achConfig({ originator: { ...(achConfig().originator as object), odfi_routing_number: "091000018" } }),
        "originator.odfi_routing_number",
      ],
      ["ach", achConfig({ cutoff_times: ["25:00"] }), "cutoff_times"],
    ];
    for (const [rail, payload, field] of cases) {
      const response = await t.app.inject({ method: "PUT", url: `/v1/bank-rails/${rail}`, headers: bearer(key), payload });
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      expect(JSON.stringify(response.json().error.details)).toContain(field.replace(/^\//, ""));
    }
  });

  it("needs a secret for SFTP the first time", async () => {
    const other = await registerBusiness(t.app);
    const delivery = { ...(sepaConfig().delivery as object), password: undefined };
    const response = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(other.keys.production),
      payload: sepaConfig({ delivery }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0]).toMatchObject({ field: "delivery.password", code: "required" });
  });

  it("is production only and admin only", async () => {
    const sandbox = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(business.keys.sandbox),
      payload: sepaConfig(),
    });
    expect(sandbox.statusCode).toBe(403);
    const readOnly = await createApiKey(t.app, key, "business_read_only");
    const write = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(readOnly.key),
      payload: sepaConfig(),
    });
    expect(write.statusCode).toBe(403);
    const list = await t.app.inject({ method: "GET", url: "/v1/bank-rails", headers: bearer(readOnly.key) });
    expect(list.statusCode).toBe(200);
    expect(list.json().bank_rails.map((r: { rail: string }) => r.rail)).toEqual(["ach", "sepa"]);
  });

  it("keeps another Business's rails invisible", async () => {
    const other = await registerBusiness(t.app);
    const list = await t.app.inject({ method: "GET", url: "/v1/bank-rails", headers: bearer(other.keys.production) });
    expect(list.json()).toEqual({ bank_rails: [] });
    const one = await t.app.inject({ method: "GET", url: "/v1/bank-rails/sepa", headers: bearer(other.keys.production) });
    expect(one.statusCode).toBe(404);
  });
});

describe("local-directory delivery needs the operator's permission", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("is refused with BANK_RAIL_LOCAL_DELIVERY_NOT_ALLOWED when BANK_RAIL_LOCAL_ROOT is not set", async () => {
    const business = await registerBusiness(t.app);
    const response = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/ach",
      headers: bearer(business.keys.production),
      payload: achConfig(),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe("BANK_RAIL_LOCAL_DELIVERY_NOT_ALLOWED");
  });
});

describe("routing of production payouts", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: "/tmp/bank-rail-root-test" } });
  });
  afterAll(async () => {
    await t.close();
  });

  it("keeps the simulator for a Business with no bank rail, whatever the destination", async () => {
    const business = await registerBusiness(t.app);
    const key = business.keys.production;
    const payee = await payableBeneficiary(t.app, key, US_ACCOUNT);
    const response = await postPayout(t.app, key, {
      beneficiary_id: payee.beneficiaryId,
      amount_minor: 500,
      currency: "USD",
      idempotency_key: newKey(),
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it("once SEPA is configured: EUR to a SEPA IBAN is taken, USD to a US account is refused with NO_RAIL_FOR_DESTINATION", async () => {
    const business = await registerBusiness(t.app);
    const key = business.keys.production;
    const configured = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig(),
    });
    expect(configured.statusCode).toBe(201);
    const euro = await sepaPayee(t.app, key);
    const ok = await postPayout(t.app, key, {
      beneficiary_id: euro.beneficiaryId,
      amount_minor: 500,
      currency: "EUR",
      idempotency_key: newKey(),
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const dollar = await payableBeneficiary(t.app, key, US_ACCOUNT);
    const refused = await postPayout(t.app, key, {
      beneficiary_id: dollar.beneficiaryId,
      amount_minor: 500,
      currency: "USD",
      idempotency_key: newKey(),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe("NO_RAIL_FOR_DESTINATION");
    // The bulk path refuses the same row the same way.
    const bulk = await t.app.inject({
      method: "POST",
      url: "/v1/payouts/bulk",
      headers: bearer(key),
      payload: {
        uploadId: newKey("upload"),
        rows: [
          { beneficiary_id: euro.beneficiaryId, amount_minor: 100, currency: "EUR", idempotency_key: newKey() },
          { beneficiary_id: dollar.beneficiaryId, amount_minor: 100, currency: "USD", idempotency_key: newKey() },
        ],
      },
    });
    expect(bulk.statusCode, bulk.body).toBeLessThan(300);
    expect(JSON.stringify(bulk.json())).toContain("NO_RAIL_FOR_DESTINATION");
    // Sandbox is never routed to a bank rail.
    const sandboxPayee = await payableBeneficiary(t.app, business.keys.sandbox, US_ACCOUNT);
    const sandbox = await postPayout(t.app, business.keys.sandbox, {
      beneficiary_id: sandboxPayee.beneficiaryId,
      amount_minor: 500,
      currency: "USD",
      idempotency_key: newKey(),
    });
    expect(sandbox.statusCode).toBe(201);
  });

  it("once ACH is configured too, the USD payout is taken; removing a rail brings the refusal back", async () => {
    const business = await registerBusiness(t.app);
    const key = business.keys.production;
    // Its own debtor account: another Business of this file already has the fixture's IBAN.
    const sepa = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({ originator: uniqueSepaOriginator() }),
    });
    expect(sepa.statusCode, sepa.body).toBe(201);
    const ach = await t.app.inject({ method: "PUT", url: "/v1/bank-rails/ach", headers: bearer(key), payload: achConfig() });
    expect(ach.statusCode, ach.body).toBe(201);
    const dollar = await payableBeneficiary(t.app, key, US_ACCOUNT);
    const ok = await postPayout(t.app, key, {
      beneficiary_id: dollar.beneficiaryId,
      amount_minor: 500,
      currency: "USD",
      idempotency_key: newKey(),
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const removed = await t.app.inject({ method: "DELETE", url: "/v1/bank-rails/ach", headers: bearer(key) });
    expect(removed.statusCode).toBe(204);
    const refused = await postPayout(t.app, key, {
      beneficiary_id: dollar.beneficiaryId,
      amount_minor: 500,
      currency: "USD",
      idempotency_key: newKey(),
    });
    expect(refused.json().error.code).toBe("NO_RAIL_FOR_DESTINATION");
  });
});

describe("the routing check of a bulk creation", () => {
  let t: TestApp;
  afterAll(async () => {
    await t.close();
  });

  it("gives each row its own verdict, in order, whatever rows around it decide", async () => {
    t = await buildTestApp();
    const business = await registerBusiness(t.app);
    const key = business.keys.production;
    const put = await t.app.inject({ method: "PUT", url: "/v1/bank-rails/sepa", headers: bearer(key), payload: sepaConfig() });
    expect(put.statusCode, put.body).toBe(201);
    const payable = await sepaPayee(t.app, key);
    const noAddress = await payableBeneficiary(t.app, key);
    const dollar = await payableBeneficiary(t.app, key, US_ACCOUNT);
    const plan = [payable, noAddress, dollar, payable, noAddress, payable];
    const bulk = await t.app.inject({
      method: "POST",
      url: "/v1/payouts/bulk",
      headers: bearer(key),
      payload: {
        uploadId: newKey("upload"),
        rows: plan.map((payee) => ({
          beneficiary_id: payee.beneficiaryId,
          amount_minor: 100,
          currency: payee === dollar ? "USD" : "EUR",
          idempotency_key: newKey(),
        })),
      },
    });
    expect(bulk.statusCode, bulk.body).toBeLessThan(300);
    const results = bulk.json().results as Array<{ index: number; status: string; error: { code: string } | null }>;
    expect(results.map((r) => [r.index, r.status, r.error?.code ?? null])).toEqual([
      [0, "created", null],
      [1, "failed", "SEPA_ADDRESS_NOT_STRUCTURED"],
      [2, "failed", "NO_RAIL_FOR_DESTINATION"],
      [3, "created", null],
      [4, "failed", "SEPA_ADDRESS_NOT_STRUCTURED"],
      [5, "created", null],
    ]);
  });
});
