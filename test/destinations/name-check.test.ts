// The payee name check recorded on bank accounts (issue 29): checked by the worker after the account is added
// or corrected, or the payee's legal name changes; the sandbox simulator's magic values and the local
// comparator in production; the answer, its source and time on the bank account object.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

let t: TestApp;
let biz: RegisteredBusiness;

beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, "Name Check Tests Ltd");
});
afterAll(async () => t?.close());

/** Valid German IBANs whose last four are the simulator's magic values (and one that is not). */
const NAME_CHECK_IBANS = {
  noMatch: "DE59370400440532010921",
  closeMatch: "DE32370400440532010922",
  notPossible: "DE05370400440532010923",
  plain: "DE62370400440532013001",
} as const;

const account = (iban: string, holder = "Jane Doe") => ({ account_holder_name: holder, country: "DE", currency: "EUR", iban });

async function runWorker(): Promise<void> {
  await t.runtime.createWorker("name-check-test").drain();
}

async function readAccount(key: string, beneficiaryId: string, accountId: string): Promise<Record<string, unknown>> {
  const listed = await t.app.inject({
    method: "GET",
    url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts`,
    headers: bearer(key),
  });
  expect(listed.statusCode, listed.body).toBe(200);
  const found = (listed.json().bank_accounts as Array<Record<string, unknown>>).find((a) => a.id === accountId);
  if (found === undefined) throw new Error("account not listed");
  return found;
}

async function checkedAccount(key: string, holder: string, iban: string, payeeName = "Jane Doe") {
  const beneficiary = await createBeneficiary(t.app, key, { name: payeeName });
  const registered = await registerBankAccount(t.app, key, beneficiary.id, account(iban, holder));
  await runWorker();
  return { beneficiaryId: beneficiary.id, registered, checked: await readAccount(key, beneficiary.id, registered.id) };
}

describe("the payee name check of a new bank account", () => {
  it("is pending when the account is registered and answered by the worker, with its source and time", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const registered = await registerBankAccount(t.app, biz.keys.sandbox, beneficiary.id, account(NAME_CHECK_IBANS.plain));
    expect(registered).toMatchObject({
      name_check_result: null,
      name_check_bank_name: null,
      name_check_source: null,
      name_check_at: null,
    });
    await runWorker();
    expect(await readAccount(biz.keys.sandbox, beneficiary.id, registered.id)).toMatchObject({
      name_check_result: "match",
      name_check_bank_name: null,
      name_check_source: "simulator",
      name_check_at: t.clock.now().toISOString(),
    });
  });

  it("answers by the sandbox simulator's magic last fours", async () => {
    const key = biz.keys.sandbox;
    expect((await checkedAccount(key, "Jane Doe", NAME_CHECK_IBANS.noMatch)).checked).toMatchObject({
      name_check_result: "no_match",
      name_check_bank_name: null,
    });
    expect((await checkedAccount(key, "Jane Doe", NAME_CHECK_IBANS.closeMatch)).checked).toMatchObject({
      name_check_result: "close_match",
      name_check_bank_name: "J. DOE",
    });
    expect((await checkedAccount(key, "Jane Doe", NAME_CHECK_IBANS.notPossible)).checked).toMatchObject({
      name_check_result: "not_possible",
    });
  });

  it("compares the names for any other account: accents and order match, a typo is close, another name is not", async () => {
    const key = biz.keys.sandbox;
    expect((await checkedAccount(key, "Müller Hans", NAME_CHECK_IBANS.plain, "Hans Mueller")).checked).toMatchObject({
      name_check_result: "match",
    });
    expect((await checkedAccount(key, "Jon Doe", NAME_CHECK_IBANS.plain, "John Doe")).checked).toMatchObject({
      name_check_result: "close_match",
      name_check_bank_name: "Jon Doe",
    });
    expect((await checkedAccount(key, "Max Power", NAME_CHECK_IBANS.plain)).checked).toMatchObject({
      name_check_result: "no_match",
    });
  });

  it("in production compares the names locally: the simulator's magic values mean nothing there", async () => {
    const { checked } = await checkedAccount(biz.keys.production, "Jane Doe", NAME_CHECK_IBANS.noMatch);
    expect(checked).toMatchObject({ name_check_result: "match", name_check_source: "local" });
  });
});

describe("a change of the payee's legal name", () => {
  it("checks the payee's accounts again against the new name", async () => {
    const key = biz.keys.sandbox;
    const { beneficiaryId, registered } = await checkedAccount(key, "Jane Doe", NAME_CHECK_IBANS.plain);
    t.clock.advance(60_000);
    const renamed = await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${beneficiaryId}`,
      headers: bearer(key),
      payload: { name: "Oscar Wilde" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await runWorker();
    expect(await readAccount(key, beneficiaryId, registered.id)).toMatchObject({
      name_check_result: "no_match",
      name_check_at: t.clock.now().toISOString(),
    });
  });

  it("a change of another field checks nothing again", async () => {
    const key = biz.keys.sandbox;
    const { beneficiaryId, registered, checked } = await checkedAccount(key, "Jane Doe", NAME_CHECK_IBANS.plain);
    t.clock.advance(60_000);
    const changed = await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${beneficiaryId}`,
      headers: bearer(key),
      payload: { nickname: "JD" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await runWorker();
    expect((await readAccount(key, beneficiaryId, registered.id)).name_check_at).toBe(checked.name_check_at);
  });
});

describe("accounts written by the import", () => {
  it("are checked like those registered one by one", async () => {
    const key = biz.keys.sandbox;
    const row = (email: string, iban: string) => ({
      email,
      first_name: "Jane",
      last_name: "Doe",
      country_of_residence: "DE",
      bank: account(iban),
    });
    const imported = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries/import",
      headers: bearer(key),
      payload: {
        rows: [
          row("import-a@name-check.example.com", NAME_CHECK_IBANS.plain),
          row("import-b@name-check.example.com", NAME_CHECK_IBANS.noMatch),
        ],
      },
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const results = imported.json().results as Array<{ status: string; beneficiary_id: string; bank_account_id: string }>;
    expect(results.map((r) => r.status)).toEqual(["created", "created"]);
    await runWorker();
    const [a, b] = results as [(typeof results)[0], (typeof results)[0]];
    expect(await readAccount(key, a.beneficiary_id, a.bank_account_id)).toMatchObject({ name_check_result: "match" });
    expect(await readAccount(key, b.beneficiary_id, b.bank_account_id)).toMatchObject({ name_check_result: "no_match" });
  });
});
