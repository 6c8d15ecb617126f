// A sanctions hit on a payout waiting for its bank file (issue 29): two approved production payouts wait for the
// SEPA cut-off; a list load then names one payee (a potential match). At the cut-off the file carries only the
// other payout: the held ones are not written, go back to "not dispatched" (no rail, no disbursement status) and
// stay approved, so the Business may cancel one. Clearing the hit queues it again, and the next cut-off's file carries it. A payout already in
// a delivered file is not recalled: it stays submitted, and its `payee.screening_status` shows the hit.
// Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide, getPayout } from "../payouts/payout-fixtures.js";
import type { ListedParty } from "../screening/list-writers.js";
import { loadEuXmlList } from "../screening/operator-lists.js";
import { localFolder, sepaConfig } from "./bank-rail-fixtures.js";

const OPERATOR_TOKEN = "op-bank-hold-".padEnd(40, "x");
const ADDRESS = { line1: "Calle Mayor 5", city: "Madrid", postal_code: "28013", country: "ES" };
const OLGA: ListedParty = { ref: "13", kind: "individual", name: "Olga Vasilyevna Sorokina" };
const DIMA: ListedParty = { ref: "14", kind: "individual", name: "Dmitri Ivanovich Volkov" };

let t: TestApp;
let root: string;
let business: RegisteredBusiness;
let key: string;

const drain = () => t.runtime.createWorker(`w-${Math.random()}`).drain();
const bankFiles = async () =>
  (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files as Array<{
    id: string;
    file_name: string;
    entry_count: number;
    status: string;
  }>;
const filePayouts = async (fileId: string) =>
  (
    (await t.app.inject({ method: "GET", url: `/v1/bank-files/${fileId}`, headers: bearer(key) })).json().payouts as Array<{
      payout_id: string;
    }>
  ).map((p) => p.payout_id);
const loadEu = (parties: ListedParty[]) => loadEuXmlList(t.app, OPERATOR_TOKEN, parties);

async function payee(first: string, last: string, iban: string): Promise<string> {
  const name = `${first} ${last}`;
  const beneficiary = await createBeneficiary(t.app, key, {
    first_name: first,
    last_name: last,
    name,
    country_of_residence: "ES",
    postal_address: ADDRESS,
  });
  await registerBankAccount(t.app, key, beneficiary.id, { account_holder_name: name, country: "ES", currency: "EUR", iban });
  const ack = await t.app.inject({
    method: "POST",
    url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`,
    headers: bearer(key),
  });
  expect(ack.statusCode, ack.body).toBe(200);
  return beneficiary.id;
}

async function approved(beneficiaryId: string, amount: number): Promise<string> {
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: amount, currency: "EUR" });
  expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
  return payout.payout_id;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "bank-rail-hold-"));
  t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root, OPERATOR_TOKEN } });
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
  const policy = await t.app.inject({
    method: "PUT",
    url: "/v1/destination-policy",
    headers: bearer(key),
    payload: { screening: "on" },
  });
  expect(policy.statusCode, policy.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("a sanctions hit on a payout waiting for its bank file", () => {
  it("is held out of the file at the cut-off, and goes in the next file once the hit is cleared", async () => {
    const olga = await payee("Olga", "Sorokina", "ES9121000418450200051332");
    const ana = await payee("Ana", "Pérez", "ES7921000813610123456789");
    const held = await approved(olga, 1_000);
    const canceled = await approved(olga, 1_500);
    const sent = await approved(ana, 2_000);
    await drain();
    expect(await getPayout(t.app, key, held)).toMatchObject({ status: "approved", rail: "sepa", disbursement_status: "queued" });

    // The list names Olga while her payout waits for the cut-off.
    await loadEu([OLGA]);
    await drain();
    const listed = (await t.app.inject({ method: "GET", url: `/v1/beneficiaries/${olga}`, headers: bearer(key) })).json();
    expect(listed.screening_status).toBe("potential_match");

    // The test clock starts 2026-05-27T12:00Z: the next Berlin cut-off (09:30, 15:00) is 13:00Z.
    t.clock.set(new Date("2026-05-27T13:00:00.000Z"));
    await drain();
    const [first] = await bankFiles();
    expect(first).toMatchObject({ entry_count: 1, status: "uploaded" });
    expect(await filePayouts(first?.id ?? "")).toEqual([sent]);
    const delivered = readFileSync(path.join(localFolder(root, business.businessId, "sepa/out"), first?.file_name ?? ""), "utf8");
    expect(delivered).not.toContain("ES9121000418450200051332");
    expect(await getPayout(t.app, key, held)).toMatchObject({
      status: "approved",
      rail: null,
      disbursement_status: null,
      payee: { screening_status: "potential_match" },
    });

    // No bank has it: the Business may cancel a held payout (here the second one).
    const cancel = await t.app.inject({ method: "POST", url: `/v1/payouts/${canceled}/cancel`, headers: bearer(key) });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({ status: "canceled" });

    // Cleared by an admin (a reload's hit: any admin may decide): queued again, in the next cut-off's file.
    const cleared = await t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${olga}/screening/clear`,
      headers: bearer(key),
      payload: { reason: "Different person: date of birth differs" },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    await drain();
    expect(await getPayout(t.app, key, held)).toMatchObject({ status: "approved", rail: "sepa", disbursement_status: "queued" });
    t.clock.set(new Date("2026-05-28T07:30:00.000Z"));
    await drain();
    const files = await bankFiles();
    expect(files).toHaveLength(2);
    const second = files.find((f) => f.id !== first?.id);
    expect(await filePayouts(second?.id ?? "")).toEqual([held]);
    expect(await getPayout(t.app, key, held)).toMatchObject({
      status: "approved",
      rail: "sepa",
      disbursement_status: "submitted",
    });
    expect(readdirSync(localFolder(root, business.businessId, "sepa/out"))).toHaveLength(2);
  });

  it("a payout already in a delivered file is not recalled: it stays submitted and shows the hit", async () => {
    const dima = await payee("Dmitri", "Volkov", "ES6000491500051234567892");
    const payout = await approved(dima, 3_000);
    await drain();
    t.clock.set(new Date("2026-05-28T13:00:00.000Z"));
    await drain();
    expect(await getPayout(t.app, key, payout)).toMatchObject({ disbursement_status: "submitted" });

    await loadEu([OLGA, DIMA]);
    await drain();
    expect(await getPayout(t.app, key, payout)).toMatchObject({
      status: "approved",
      rail: "sepa",
      disbursement_status: "submitted",
      payee: { screening_status: "potential_match" },
    });
  });
});
