// Approved production payouts wait for their rail's cut-off, leave in one file built in one transaction
// (payout.disbursement_submitted), and the file is delivered after commit: here to a local folder (the
// operator-allowed delivery); the SFTP test delivers to a real OpenSSH server.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankFiles } from "../../src/modules/bank-rails/bank-rails.schema.js";
import { readNachaFile } from "../../src/rails/bank-files/nacha-reader.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide, getPayout, newKey, payoutEvents, postPayout } from "../payouts/payout-fixtures.js";
import { epcSchemaAvailable, epcSchemaErrors } from "../unit/bank-files/xsd.js";
import { achConfig, localFolder, sepaConfig, US_ACCOUNT } from "./bank-rail-fixtures.js";

const ADDRESS = { line1: "Calle Mayor 5", city: "Madrid", postal_code: "28013", country: "ES" };

let t: TestApp;
let root: string;
let business: RegisteredBusiness;
let key: string;
const db = () => t.runtime.deps.database.db;

async function drain(): Promise<void> {
  await t.runtime.createWorker(`w-${Math.random()}`).drain();
}

async function payee(account: Record<string, unknown>, fields: Record<string, unknown> = {}): Promise<string> {
  const beneficiary = await createBeneficiary(t.app, key, {
    first_name: "Ana",
    last_name: "Pérez",
    country_of_residence: "ES",
    postal_address: ADDRESS,
    ...fields,
  });
  await registerBankAccount(t.app, key, beneficiary.id, account);
  const ack = await t.app.inject({
    method: "POST",
    url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`,
    headers: bearer(key),
  });
  expect(ack.statusCode, ack.body).toBe(200);
  return beneficiary.id;
}

async function approved(beneficiaryId: string, amount: number, currency = "EUR"): Promise<string> {
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: amount, currency });
  expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
  return payout.payout_id;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "bank-rail-local-"));
  t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root } });
  business = await registerBusiness(t.app);
  key = business.keys.production;
  const delivery = { kind: "local_directory", outbound_directory: "sepa/out", inbound_directory: "sepa/in" };
  const sepa = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/sepa",
    headers: bearer(key),
    payload: sepaConfig({ delivery }),
  });
  expect(sepa.statusCode, sepa.body).toBe(201);
  const ach = await t.app.inject({ method: "PUT", url: "/v1/bank-rails/ach", headers: bearer(key), payload: achConfig() });
  expect(ach.statusCode, ach.body).toBe(201);
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("SEPA cut-off", () => {
  it("queues approved payouts, builds one valid pain.001 at the cut-off, records the submission and delivers it", async () => {
    const ana = await payee({
      account_holder_name: "Ana Pérez",
      country: "ES",
      currency: "EUR",
      iban: "ES9121000418450200051332",
    });
    const first = await approved(ana, 1_000);
    const second = await approved(ana, 2_345);
    await drain();
    // Before the cut-off: waiting, no file, no submission event yet.
    expect(await getPayout(t.app, key, first)).toMatchObject({ status: "approved", rail: "sepa", disbursement_status: "queued" });
    expect((await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files).toEqual([]);

    // The test clock starts 2026-05-27T12:00Z: the next Berlin cut-off (09:30, 15:00) is 13:00Z.
    t.clock.set(new Date("2026-05-27T13:00:00.000Z"));
    await drain();
    const list = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json();
    expect(list.bank_files).toHaveLength(1);
    const file = list.bank_files[0];
    expect(file).toMatchObject({
      rail: "sepa",
      format: "pain.001.001.09",
      cutoff_at: "2026-05-27T13:00:00.000Z",
      entry_count: 2,
      control_sum_minor: 3_345,
      currency: "EUR",
      status: "uploaded",
      alerts: [],
    });
    expect(file.uploaded_at).not.toBeNull();

    for (const id of [first, second]) {
      const payout = await getPayout(t.app, key, id);
      expect(payout).toMatchObject({ status: "approved", rail: "sepa", disbursement_status: "submitted" });
      expect(String(payout.rail_ref)).toContain(file.file_name);
      expect((await payoutEvents(db(), id)).map((e) => e.type)).toEqual(["payout.disbursement_submitted"]);
    }

    // The bytes on disk are the bytes of the API, and they are a valid EPC file.
    const delivered = readFileSync(path.join(localFolder(root, business.businessId, "sepa/out"), file.file_name), "utf8");
    const content = await t.app.inject({ method: "GET", url: `/v1/bank-files/${file.id}/content`, headers: bearer(key) });
    expect(content.statusCode).toBe(200);
    expect(content.headers["content-type"]).toContain("application/xml");
    expect(content.body).toBe(delivered);
    if (epcSchemaAvailable()) expect(await epcSchemaErrors(delivered)).toEqual([]);
    expect(delivered).toContain("<TwnNm>Madrid</TwnNm>");
    expect(delivered).toContain("<Dt>2026-05-27</Dt>");
    expect(readdirSync(localFolder(root, business.businessId, "sepa/out")).filter((n) => n.startsWith("."))).toEqual([]);
    // At rest the file is encrypted: the creditor's IBAN is in the file, never in clear in the database.
    expect(delivered).toContain("ES9121000418450200051332");
    const stored = await db().select().from(bankFiles);
    expect(JSON.stringify(stored)).not.toContain("ES9121000418450200051332");

    const detail = (await t.app.inject({ method: "GET", url: `/v1/bank-files/${file.id}`, headers: bearer(key) })).json();
    expect(detail.payouts.map((p: { payout_id: string }) => p.payout_id).sort()).toEqual([first, second].sort());
    expect(detail.payouts[0].reference).toMatch(/^[0-9a-f]{32}$/);
  });

  it("never puts a payout in a second file, and a repeated cut-off builds nothing", async () => {
    await drain();
    t.clock.set(new Date("2026-05-28T07:30:00.000Z"));
    await drain();
    const list = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json();
    expect(list.bank_files).toHaveLength(1);
  });

  it("refuses at creation a SEPA payout to a Beneficiary without a structured address, naming what is missing", async () => {
    const noAddress = await payee(
      { account_holder_name: "Piet Jansen", country: "NL", currency: "EUR", iban: "NL91ABNA0417164300" },
      { postal_address: null, country_of_residence: "NL" },
    );
    const response = await postPayout(t.app, key, {
      beneficiary_id: noAddress,
      amount_minor: 700,
      currency: "EUR",
      idempotency_key: newKey(),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatchObject({
      code: "SEPA_ADDRESS_NOT_STRUCTURED",
      details: [
        { field: "postal_address.city", code: "required" },
        { field: "postal_address.country", code: "required" },
      ],
    });
    // A name nothing can transliterate (Greek and Cyrillic are written in Latin letters) is refused as soon
    // as the account is registered for a Business whose SEPA rail would pay it.
    const chinese = await createBeneficiary(t.app, key, { postal_address: ADDRESS });
    const refused = await t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${chinese.id}/bank-accounts`,
      headers: bearer(key),
      payload: { account_holder_name: "王小明", country: "GR", currency: "EUR", iban: "GR1601101250000000012300695" },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe("SEPA_NAME_NOT_REPRESENTABLE");
  });

  it("fails at the cut-off a payout whose Beneficiary lost its address after creation, and says why", async () => {
    const moving = await payee({
      account_holder_name: "Piet Jansen",
      country: "NL",
      currency: "EUR",
      iban: "NL91ABNA0417164300",
    });
    const bad = await approved(moving, 700);
    const patched = await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${moving}`,
      headers: bearer(key),
      payload: { postal_address: null },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await drain();
    t.clock.set(new Date("2026-05-28T13:00:00.000Z"));
    await drain();
    const payout = await getPayout(t.app, key, bad);
    expect(payout.status).toBe("failed");
    expect(String(payout.failure_reason)).toContain("SEPA_ADDRESS_NOT_STRUCTURED");
  });

  it("keeps the content admin-only", async () => {
    const files = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
    const readOnly = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: bearer(key),
      payload: { role: "business_read_only" },
    });
    const response = await t.app.inject({
      method: "GET",
      url: `/v1/bank-files/${files[0].id}/content`,
      headers: bearer(readOnly.json().key),
    });
    expect(response.statusCode).toBe(403);
    const other = await registerBusiness(t.app);
    const foreign = await t.app.inject({
      method: "GET",
      url: `/v1/bank-files/${files[0].id}`,
      headers: bearer(other.keys.production),
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe("ACH cut-off", () => {
  it("builds a NACHA file the independent reader accepts, with PPD entries and the effective date on a Fed business day", async () => {
    const jane = await payee(US_ACCOUNT, { country_of_residence: "US", postal_address: null });
    t.clock.set(new Date("2026-05-29T18:00:00.000Z"));
    const payoutId = await approved(jane, 12_345, "USD");
    await drain();
    // New York cut-off 16:00 on Friday 2026-05-29 = 20:00Z; the effective date is Monday 2026-06-01.
    t.clock.set(new Date("2026-05-29T20:00:00.000Z"));
    await drain();
    const files = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
    const file = files.find((f: { rail: string }) => f.rail === "ach");
    expect(file).toMatchObject({ status: "uploaded", entry_count: 1, control_sum_minor: 12_345, currency: "USD" });
    const content = readFileSync(path.join(localFolder(root, business.businessId, "ach/out"), file.file_name), "utf8");
    const parsed = readNachaFile(content);
    expect(parsed.control).toMatchObject({ batchCount: 1, entryAddendaCount: 1, totalCreditMinor: 12_345, totalDebitMinor: 0 });
    expect(parsed.batches[0]).toMatchObject({ secCode: "PPD", entryDescription: "PAYOUT", effectiveDate: "2026-06-01" });
    expect(parsed.batches[0]?.entries[0]).toMatchObject({
      transactionCode: "22",
      receivingRouting: "021000021",
      accountNumber: "123456789",
      amountMinor: 12_345,
    });
    const payout = await getPayout(t.app, key, payoutId);
    expect(payout).toMatchObject({ rail: "ach", disbursement_status: "submitted" });
    expect(String(payout.rail_ref)).toContain(parsed.batches[0]?.entries[0]?.traceNumber);
  });
});
