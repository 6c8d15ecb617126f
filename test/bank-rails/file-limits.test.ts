// What a bank file cannot carry is refused at creation, never cut at the cut-off: amounts beyond the format's
// field, names, references and address parts beyond their lengths after transliteration, a SEPA account
// outside the EEA without the BIC the EPC rulebook requires, an IBAN with another country's BIC. Greek and
// Cyrillic names reach the pain.001 in Latin letters. Only where a bank-file rail would carry the payout or
// the account: the sandbox and a Business without bank rails are not held to a file's limits.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createBeneficiary, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { decide, newKey, postPayout } from "../payouts/payout-fixtures.js";
import { epcSchemaAvailable, epcSchemaErrors } from "../unit/bank-files/xsd.js";
import { achConfig, sepaConfig, US_ACCOUNT, uniqueAchOriginator, uniqueSepaOriginator } from "./bank-rail-fixtures.js";

const ADDRESS = { line1: "Calle Mayor 5", city: "Madrid", postal_code: "28013", country: "ES" };
const SPANISH_ACCOUNT = { account_holder_name: "Ana Pérez", country: "ES", currency: "EUR", iban: "ES9121000418450200051332" };
const SWISS_ACCOUNT = { account_holder_name: "Urs Meier", country: "CH", currency: "EUR", iban: "CH9300762011623852957" };

let t: TestApp;
let root: string;
/** SEPA and ACH configured before anything else. */
let business: RegisteredBusiness;
let key: string;

/** A Business whose accounts are registered before its rails are configured: payout creation must refuse. */
async function lateBusiness(): Promise<string> {
  return (await registerBusiness(t.app)).keys.production;
}

/** Where a written file is: in its Business's own folder under the root (file names are unique). */
function writtenFile(name: string): string {
  const found = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((entry) => path.basename(entry) === name);
  if (found.length !== 1 || found[0] === undefined) throw new Error(`${name}: ${found.length} files under the root`);
  return path.join(root, found[0]);
}

async function drain(): Promise<void> {
  await t.runtime.createWorker(`w-${Math.random()}`).drain();
}

async function configureRails(k: string, folder: string): Promise<void> {
  const delivery = { kind: "local_directory", outbound_directory: `${folder}/sepa/out`, inbound_directory: `${folder}/sepa/in` };
  const sepa = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/sepa",
    headers: bearer(k),
    payload: sepaConfig({ originator: uniqueSepaOriginator(), delivery }),
  });
  expect(sepa.statusCode, sepa.body).toBe(201);
  const achDelivery = { kind: "local_directory", outbound_directory: `${folder}/ach/out`, inbound_directory: `${folder}/ach/in` };
  const ach = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/ach",
    headers: bearer(k),
    payload: achConfig({ originator: uniqueAchOriginator(), delivery: achDelivery }),
  });
  expect(ach.statusCode, ach.body).toBe(201);
}

function registerAccount(k: string, beneficiaryId: string, account: Record<string, unknown>) {
  return t.app.inject({
    method: "POST",
    url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts`,
    headers: bearer(k),
    payload: account,
  });
}

/** A compliant Beneficiary with `account`; the account must be accepted. */
async function payee(k: string, account: Record<string, unknown>, fields: Record<string, unknown> = {}): Promise<string> {
  const beneficiary = await createBeneficiary(t.app, k, {
    first_name: "Ana",
    last_name: "Pérez",
    country_of_residence: "ES",
    postal_address: ADDRESS,
    ...fields,
  });
  const registered = await registerAccount(k, beneficiary.id, account);
  expect(registered.statusCode, registered.body).toBe(201);
  const ack = await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(k) });
  expect(ack.statusCode, ack.body).toBe(200);
  return beneficiary.id;
}

function pay(k: string, beneficiaryId: string, amount: number, currency = "EUR", extra: Record<string, unknown> = {}) {
  return postPayout(t.app, k, {
    beneficiary_id: beneficiaryId,
    amount_minor: amount,
    currency,
    idempotency_key: newKey(),
    ...extra,
  });
}

function errorOf(response: { json(): unknown }): { code: string; message: string; details?: Array<Record<string, string>> } {
  return (response.json() as { error: { code: string; message: string; details?: Array<Record<string, string>> } }).error;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "bank-file-limits-"));
  t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root } });
  business = await registerBusiness(t.app);
  key = business.keys.production;
  await configureRails(key, "early");
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("SEPA to a SEPA country outside the EEA: the BIC", () => {
  it("an account without its BIC is refused at registration, naming swift_bic; with it, accepted", async () => {
    const beneficiary = await createBeneficiary(t.app, key, {
      postal_address: { line1: "Bahnhofstrasse 1", city: "Zürich", country: "CH" },
    });
    const refused = await registerAccount(key, beneficiary.id, SWISS_ACCOUNT);
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toMatchObject({
      code: "SEPA_BIC_REQUIRED",
      details: [{ field: "swift_bic", code: "required" }],
    });
    const accepted = await registerAccount(key, beneficiary.id, { ...SWISS_ACCOUNT, swift_bic: "UBSWCHZH80A" });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({ swift_bic: "UBSWCHZH80A" });
  });

  it("is not asked where no bank-file rail would carry the account: sandbox, a CHF account, a Business without rails", async () => {
    const sandbox = await createBeneficiary(t.app, business.keys.sandbox);
    expect((await registerAccount(business.keys.sandbox, sandbox.id, SWISS_ACCOUNT)).statusCode).toBe(201);
    const francs = await createBeneficiary(t.app, key);
    expect((await registerAccount(key, francs.id, { ...SWISS_ACCOUNT, currency: "CHF" })).statusCode).toBe(201);
    const noRails = await registerBusiness(t.app);
    const other = await createBeneficiary(t.app, noRails.keys.production);
    expect((await registerAccount(noRails.keys.production, other.id, SWISS_ACCOUNT)).statusCode).toBe(201);
  });

  it("an IBAN with a BIC of another country's bank is refused everywhere, naming swift_bic", async () => {
    const beneficiary = await createBeneficiary(t.app, business.keys.sandbox);
    const refused = await registerAccount(business.keys.sandbox, beneficiary.id, {
      ...SPANISH_ACCOUNT,
      swift_bic: "COBADEFFXXX",
    });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toMatchObject({
      code: "validation_failed",
      details: [{ field: "swift_bic", code: "bic_country_mismatch" }],
    });
  });

  it("a payout to such an account registered before the rail was configured is refused at creation; with a BIC it goes, BIC in CdtrAgt", async () => {
    const lateKey = await lateBusiness();
    const without = await payee(lateKey, SWISS_ACCOUNT, {
      postal_address: { line1: "Bahnhofstrasse 1", city: "Zürich", country: "CH" },
    });
    const withBic = await payee(
      lateKey,
      { ...SWISS_ACCOUNT, swift_bic: "UBSWCHZH80A" },
      {
        postal_address: { line1: "Bahnhofstrasse 1", city: "Zürich", country: "CH" },
      },
    );
    await configureRails(lateKey, "late");
    const refused = await pay(lateKey, without, 1_000);
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toMatchObject({
      code: "SEPA_BIC_REQUIRED",
      details: [{ field: "bank_account.swift_bic", code: "required" }],
    });
    const created = await pay(lateKey, withBic, 1_000);
    expect(created.statusCode, created.body).toBe(201);
    expect((await decide(t.app, lateKey, created.json().payout_id, "approve")).statusCode).toBe(201);
    await drain();
    t.clock.set(new Date("2026-05-27T13:00:00.000Z"));
    await drain();
    const files = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(lateKey) })).json().bank_files;
    const file = files.find((f: { rail: string }) => f.rail === "sepa");
    const content = readFileSync(writtenFile(file.file_name), "utf8");
    const tx = new XMLParser({ parseTagValue: false }).parse(content).Document.CstmrCdtTrfInitn.PmtInf.CdtTrfTxInf;
    expect(tx.CdtrAgt.FinInstnId.BICFI).toBe("UBSWCHZH80A");
    if (epcSchemaAvailable()) expect(await epcSchemaErrors(content)).toEqual([]);
  });
});

describe("amounts beyond the format's amount field", () => {
  it("SEPA: 999,999,999.99 EUR accepted, 1,000,000,000.00 refused naming amount_minor", async () => {
    const ana = await payee(key, SPANISH_ACCOUNT);
    expect((await pay(key, ana, 99_999_999_999)).statusCode).toBe(201);
    const refused = await pay(key, ana, 100_000_000_000);
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toMatchObject({
      code: "SEPA_AMOUNT_OUT_OF_RANGE",
      details: [{ field: "amount_minor", code: "out_of_range" }],
    });
    expect(errorOf(refused).details?.[0]?.message).toContain("99999999999");
  });

  it("ACH: 99,999,999.99 USD accepted, 100,000,000.00 refused naming amount_minor", async () => {
    const jane = await payee(key, US_ACCOUNT, { country_of_residence: "US", postal_address: null });
    expect((await pay(key, jane, 9_999_999_999, "USD")).statusCode).toBe(201);
    const refused = await pay(key, jane, 10_000_000_000, "USD");
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toMatchObject({
      code: "ACH_AMOUNT_OUT_OF_RANGE",
      details: [{ field: "amount_minor", code: "out_of_range" }],
    });
  });

  it("the sandbox is not held to a file's amount field", async () => {
    const sandboxKey = business.keys.sandbox;
    const ana = await payee(sandboxKey, SPANISH_ACCOUNT);
    expect((await pay(sandboxKey, ana, 100_000_000_000)).statusCode).toBe(201);
  });
});

describe("names beyond their field, after transliteration", () => {
  it("SEPA: a 70-character holder name accepted, 71 refused at registration naming account_holder_name and 70", async () => {
    const beneficiary = await createBeneficiary(t.app, key, { postal_address: ADDRESS });
    const refused = await registerAccount(key, beneficiary.id, { ...SPANISH_ACCOUNT, account_holder_name: "a".repeat(71) });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toMatchObject({
      code: "SEPA_FIELD_TOO_LONG",
      details: [{ field: "account_holder_name", code: "too_long" }],
    });
    expect(errorOf(refused).details?.[0]?.message).toContain("At most 70 characters");
    // 35 × "ß" is 35 characters typed and 70 written ("ss"): at the limit.
    expect(
      (await registerAccount(key, beneficiary.id, { ...SPANISH_ACCOUNT, account_holder_name: "ß".repeat(35) })).statusCode,
    ).toBe(201);
    // One more letter: 36 typed, 71 written: refused.
    const measured = await registerAccount(key, beneficiary.id, {
      ...SPANISH_ACCOUNT,
      iban: "ES7921000813610123456789",
      account_holder_name: `${"ß".repeat(35)}a`,
    });
    expect(errorOf(measured).code).toBe("SEPA_FIELD_TOO_LONG");
  });

  it("ACH: a 22-character holder name accepted, 23 refused at registration naming account_holder_name and 22", async () => {
    const beneficiary = await createBeneficiary(t.app, key, { country_of_residence: "US" });
    const refused = await registerAccount(key, beneficiary.id, { ...US_ACCOUNT, account_holder_name: "Christopher Montgomery-" });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toMatchObject({
      code: "ACH_FIELD_TOO_LONG",
      details: [{ field: "account_holder_name", code: "too_long" }],
    });
    expect(errorOf(refused).details?.[0]?.message).toContain("At most 22 characters");
    expect(
      (await registerAccount(key, beneficiary.id, { ...US_ACCOUNT, account_holder_name: "C Montgomery-Williams" })).statusCode,
    ).toBe(201);
  });

  it("a payout to an account registered before the rail was configured is refused naming bank_account.account_holder_name", async () => {
    const lateKey = await lateBusiness();
    const longSepa = await payee(lateKey, { ...SPANISH_ACCOUNT, account_holder_name: "b".repeat(71) });
    const longAch = await payee(lateKey, { ...US_ACCOUNT, account_holder_name: "c".repeat(23) }, { country_of_residence: "US" });
    await configureRails(lateKey, "late-names");
    const sepa = await pay(lateKey, longSepa, 100);
    expect(errorOf(sepa)).toMatchObject({
      code: "SEPA_FIELD_TOO_LONG",
      details: [{ field: "bank_account.account_holder_name", code: "too_long" }],
    });
    const ach = await pay(lateKey, longAch, 100, "USD");
    expect(errorOf(ach)).toMatchObject({
      code: "ACH_FIELD_TOO_LONG",
      details: [{ field: "bank_account.account_holder_name", code: "too_long" }],
    });
  });

  it("a name in a script nothing can transliterate is refused at registration (SEPA and ACH)", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    expect(errorOf(await registerAccount(key, beneficiary.id, { ...SPANISH_ACCOUNT, account_holder_name: "王小明" })).code).toBe(
      "SEPA_NAME_NOT_REPRESENTABLE",
    );
    expect(errorOf(await registerAccount(key, beneficiary.id, { ...US_ACCOUNT, account_holder_name: "王小明" })).code).toBe(
      "ACH_NAME_NOT_REPRESENTABLE",
    );
  });
});

describe("the reference and the address parts beyond their field (SEPA)", () => {
  it("external_ref: 140 characters accepted, 141 refused naming external_ref and 140", async () => {
    const ana = await payee(key, SPANISH_ACCOUNT);
    expect((await pay(key, ana, 100, "EUR", { external_ref: "r".repeat(140) })).statusCode).toBe(201);
    const refused = await pay(key, ana, 100, "EUR", { external_ref: "r".repeat(141) });
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toMatchObject({
      code: "SEPA_FIELD_TOO_LONG",
      details: [{ field: "external_ref", code: "too_long" }],
    });
    expect(errorOf(refused).details?.[0]?.message).toContain("At most 140 characters");
    // ACH carries no reference: nothing of it can be cut, so nothing is refused.
    const jane = await payee(key, US_ACCOUNT, { country_of_residence: "US", postal_address: null });
    expect((await pay(key, jane, 100, "USD", { external_ref: "r".repeat(200) })).statusCode).toBe(201);
  });

  const parts: Array<[string, number]> = [
    ["line1", 70],
    ["line2", 35],
    ["postal_code", 16],
    ["city", 35],
    ["state", 35],
  ];
  it.each(parts)("postal_address.%s: %i characters accepted, one more refused naming the field", async (part, limit) => {
    const atLimit = await payee(key, SPANISH_ACCOUNT, { postal_address: { ...ADDRESS, [part]: "a".repeat(limit) } });
    expect((await pay(key, atLimit, 100)).statusCode).toBe(201);
    const past = await payee(key, SPANISH_ACCOUNT, { postal_address: { ...ADDRESS, [part]: "a".repeat(limit + 1) } });
    const refused = await pay(key, past, 100);
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toMatchObject({
      code: "SEPA_FIELD_TOO_LONG",
      details: [{ field: `postal_address.${part}`, code: "too_long" }],
    });
    expect(errorOf(refused).details?.[0]?.message).toContain(`At most ${limit} characters`);
  });

  it("the town of the issue, cut before, is refused with its field", async () => {
    const garmisch = await payee(key, SPANISH_ACCOUNT, {
      postal_address: { line1: "Zugspitzstraße 12", city: "Garmisch-Partenkirchen im schönen Oberland", country: "DE" },
    });
    expect(errorOf(await pay(key, garmisch, 100))).toMatchObject({
      code: "SEPA_FIELD_TOO_LONG",
      details: [{ field: "postal_address.city" }],
    });
  });
});

describe("bulk creation", () => {
  it("a row past a limit gets its own error naming the field; the others are created", async () => {
    const ana = await payee(key, SPANISH_ACCOUNT);
    const jane = await payee(key, US_ACCOUNT, { country_of_residence: "US", postal_address: null });
    const rows = [
      { beneficiary_id: ana, amount_minor: 100, currency: "EUR", external_ref: "ok" },
      { beneficiary_id: ana, amount_minor: 100, currency: "EUR", external_ref: "r".repeat(141) },
      { beneficiary_id: ana, amount_minor: 100_000_000_000, currency: "EUR" },
      { beneficiary_id: jane, amount_minor: 10_000_000_000, currency: "USD" },
      { beneficiary_id: jane, amount_minor: 100, currency: "USD" },
    ].map((row) => ({ ...row, idempotency_key: newKey() }));
    const response = await t.app.inject({
      method: "POST",
      url: "/v1/payouts/bulk",
      headers: bearer(key),
      payload: { uploadId: newKey("upload"), rows },
    });
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json().results as Array<{
      index: number;
      status: string;
      error: { code: string; details?: Array<{ field: string }> } | null;
    }>;
    expect(results.map((r) => [r.index, r.status, r.error?.code ?? null, r.error?.details?.[0]?.field ?? null])).toEqual([
      [0, "created", null, null],
      [1, "failed", "SEPA_FIELD_TOO_LONG", "external_ref"],
      [2, "failed", "SEPA_AMOUNT_OUT_OF_RANGE", "amount_minor"],
      [3, "failed", "ACH_AMOUNT_OUT_OF_RANGE", "amount_minor"],
      [4, "created", null, null],
    ]);
  });
});

describe("Greek and Cyrillic names in the written pain.001", () => {
  it("are transliterated (not dropped to '( )') and the file validates against the EPC schema", async () => {
    const greek = await payee(
      key,
      { account_holder_name: "Ελένη Παπαδοπούλου", country: "GR", currency: "EUR", iban: "GR1601101250000000012300695" },
      { postal_address: { line1: "Οδός Ερμού 12", city: "Αθήνα", postal_code: "10563", country: "GR" } },
    );
    const cyrillic = await payee(
      key,
      { account_holder_name: "Мария Иванова", country: "BG", currency: "EUR", iban: "BG80BNBG96611020345678" },
      { postal_address: { line1: "ул. Витоша 1", city: "София", country: "BG" } },
    );
    for (const beneficiaryId of [greek, cyrillic]) {
      const created = await pay(key, beneficiaryId, 2_500);
      expect(created.statusCode, created.body).toBe(201);
      expect((await decide(t.app, key, created.json().payout_id, "approve")).statusCode).toBe(201);
    }
    await drain();
    // Past the next Berlin cut-off (09:30 or 15:00 local) whatever the clock's time now.
    t.clock.set(new Date(t.clock.now().getTime() + 24 * 3_600_000));
    await drain();
    const files = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
    const sepaFiles = files.filter((f: { rail: string }) => f.rail === "sepa");
    expect(sepaFiles, JSON.stringify(files)).toHaveLength(1);
    const file = sepaFiles[0];
    expect(file.entry_count).toBe(2);
    const content = readFileSync(writtenFile(file.file_name), "utf8");
    if (epcSchemaAvailable()) expect(await epcSchemaErrors(content)).toEqual([]);
    const parsed = new XMLParser({ parseTagValue: false }).parse(content);
    const blocks = [parsed.Document.CstmrCdtTrfInitn.PmtInf].flat();
    const txs = blocks.flatMap((b: { CdtTrfTxInf: unknown }) => [b.CdtTrfTxInf].flat()) as Array<{
      Cdtr: { Nm: string; PstlAdr: { StrtNm?: string; TwnNm: string } };
    }>;
    const names = txs.map((tx) => tx.Cdtr.Nm);
    expect(names).toContain("Eleni Papadopoulou");
    expect(names).toContain("Mariya Ivanova");
    expect(txs.map((tx) => tx.Cdtr.PstlAdr.TwnNm)).toEqual(expect.arrayContaining(["Athina", "Sofiya"]));
    expect(content).not.toContain("( )");
  });
});
