// Who gets paid, on every payout the API answers: the `payee` summary (display name, country, the destination
// masked with its type, scheme, country and currency) on the list, a retrieve, a creation, a Decision and a
// cancellation, without revealing a full account number; and GET /v1/payouts?payee= finding payouts by the
// payee's name or nickname, ignoring case, never matching another Business's or the other environment's payees.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { createPayout, decide, PERSON_IDENTITY } from "./payout-fixtures.js";

interface PayoutWithPayee {
  payout_id: string;
  beneficiary_id: string;
  bank_account_id: string;
  payee: {
    beneficiary_id: string;
    display_name: string;
    country: string | null;
    destination: Record<string, unknown>;
  };
}

const FULL_IBAN = GERMAN_IBAN_ACCOUNT.iban;

let t: TestApp;
let a: RegisteredBusiness;
let b: RegisteredBusiness;

/** A payable Beneficiary named `name` (compliant, one German IBAN account). */
async function payee(key: string, name: string, fields: Record<string, unknown> = {}) {
  const beneficiary = await createBeneficiary(t.app, key, { ...PERSON_IDENTITY, name, ...fields });
  const destination = await registerBankAccount(t.app, key, beneficiary.id, GERMAN_IBAN_ACCOUNT);
  const ack = await t.app.inject({
    method: "POST",
    url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`,
    headers: bearer(key),
  });
  expect(ack.statusCode, ack.body).toBe(200);
  return { beneficiaryId: beneficiary.id, destinationId: destination.id };
}

async function list(key: string, query: string): Promise<PayoutWithPayee[]> {
  const response = await t.app.inject({ method: "GET", url: `/v1/payouts?${query}`, headers: bearer(key) });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.body).not.toContain(FULL_IBAN);
  return (response.json() as { payouts: PayoutWithPayee[] }).payouts;
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp();
  a = await registerBusiness(t.app);
  b = await registerBusiness(t.app);
  const anna = await payee(a.keys.sandbox, "Anna Schmidt");
  const bert = await payee(a.keys.sandbox, "Bert Bauer", { nickname: "Bertie (supplier)" });
  const percent = await payee(a.keys.sandbox, "100% Ltd");
  ids.annaBeneficiary = anna.beneficiaryId;
  ids.annaDestination = anna.destinationId;
  ids.anna = (await createPayout(t.app, a.keys.sandbox, { beneficiary_id: anna.beneficiaryId, external_ref: "A-1" })).payout_id;
  ids.bert = (await createPayout(t.app, a.keys.sandbox, { beneficiary_id: bert.beneficiaryId, external_ref: "B-1" })).payout_id;
  ids.percent = (await createPayout(t.app, a.keys.sandbox, { beneficiary_id: percent.beneficiaryId })).payout_id;
  // The same name at another Business, and in A's other environment: neither may match A's sandbox search.
  const otherBusiness = await payee(b.keys.sandbox, "Anna Schmidt");
  ids.otherBusiness = (await createPayout(t.app, b.keys.sandbox, { beneficiary_id: otherBusiness.beneficiaryId })).payout_id;
  // B's other payee: B's search must filter, not merely list B's payouts.
  await createPayout(t.app, b.keys.sandbox, { beneficiary_id: (await payee(b.keys.sandbox, "Zoe Zimmer")).beneficiaryId });
  const otherEnvironment = await payee(a.keys.production, "Anna Schmidt");
  ids.otherEnvironment = (
    await createPayout(t.app, a.keys.production, { beneficiary_id: otherEnvironment.beneficiaryId })
  ).payout_id;
});

afterAll(async () => {
  await t?.close();
});

describe("the payee summary", () => {
  it("names the payee and its masked destination on every payout of the list", async () => {
    const payouts = await list(a.keys.sandbox, "limit=10");
    const anna = payouts.find((p) => p.payout_id === ids.anna);
    expect(anna?.payee).toEqual({
      beneficiary_id: ids.annaBeneficiary,
      display_name: "Anna Schmidt",
      country: "DE",
      // The destination policy's screening is off by default: nothing screened.
      screening_status: "not_screened",
      destination: {
        bank_account_id: ids.annaDestination,
        type: "bank_account",
        scheme: "iban",
        country: "DE",
        currency: "EUR",
        last4: "3000",
        deleted: false,
        approval_status: "approved",
        details_changed_at: expect.any(String),
        first_payout: true,
        // No worker ran in this file: the account's payee name check has not answered yet.
        name_check_result: null,
        name_check_bank_name: null,
      },
    });
    // The nickname, when set, is the display name (as the Beneficiary's own `display_name`).
    expect(payouts.find((p) => p.payout_id === ids.bert)?.payee.display_name).toBe("Bertie (supplier)");
    for (const p of payouts) {
      expect(p.payee.beneficiary_id).toBe(p.beneficiary_id);
      expect(p.payee.destination.bank_account_id).toBe(p.bank_account_id);
    }
  });

  it("is on a retrieve, a creation, a Decision and a cancellation too", async () => {
    const retrieved = await t.app.inject({ method: "GET", url: `/v1/payouts/${ids.anna}`, headers: bearer(a.keys.sandbox) });
    expect(retrieved.json().payee.display_name).toBe("Anna Schmidt");
    expect(retrieved.body).not.toContain(FULL_IBAN);

    const created = await createPayout(t.app, a.keys.sandbox, { beneficiary_id: ids.annaBeneficiary });
    expect((created.payee as PayoutWithPayee["payee"]).display_name).toBe("Anna Schmidt");

    const decided = await decide(t.app, a.keys.sandbox, created.payout_id, "reject", { reason: "Duplicate" });
    expect(decided.statusCode, decided.body).toBe(201);
    expect(decided.json().payout.payee.destination).toMatchObject({ scheme: "iban", last4: "3000" });

    const pending = await createPayout(t.app, a.keys.production, {
      beneficiary_id: (await payee(a.keys.production, "Cara Cancel")).beneficiaryId,
    });
    const canceled = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${pending.payout_id}/cancel`,
      headers: bearer(a.keys.production),
      payload: {},
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().payee.display_name).toBe("Cara Cancel");
  });

  it("follows the Beneficiary's current name", async () => {
    const renamed = await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${ids.annaBeneficiary}`,
      headers: bearer(a.keys.sandbox),
      payload: { nickname: "Anna (freelance)" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const retrieved = await t.app.inject({ method: "GET", url: `/v1/payouts/${ids.anna}`, headers: bearer(a.keys.sandbox) });
    expect(retrieved.json().payee.display_name).toBe("Anna (freelance)");
    const reset = await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${ids.annaBeneficiary}`,
      headers: bearer(a.keys.sandbox),
      payload: { nickname: null },
    });
    expect(reset.statusCode, reset.body).toBe(200);
  });
});

describe("searching payouts by payee", () => {
  it("finds the payouts of payees whose name or nickname contains the text, ignoring case", async () => {
    expect((await list(a.keys.sandbox, "payee=schmidt")).map((p) => p.payout_id)).toContain(ids.anna);
    expect((await list(a.keys.sandbox, "payee=ANNA")).every((p) => p.payee.display_name.includes("Anna"))).toBe(true);
    expect((await list(a.keys.sandbox, "payee=bertie")).map((p) => p.payout_id)).toEqual([ids.bert]);
    expect((await list(a.keys.sandbox, "payee=bauer")).map((p) => p.payout_id)).toEqual([ids.bert]);
    // It combines with the other filters.
    expect((await list(a.keys.sandbox, "payee=anna&external_ref=A-1")).map((p) => p.payout_id)).toEqual([ids.anna]);
    expect(await list(a.keys.sandbox, "payee=nobody-is-called-this")).toEqual([]);
  });

  it("never matches another Business's or the other environment's payee of the same name", async () => {
    const found = (await list(a.keys.sandbox, "payee=anna schmidt")).map((p) => p.payout_id);
    expect(found).toContain(ids.anna);
    expect(found).not.toContain(ids.otherBusiness);
    expect(found).not.toContain(ids.otherEnvironment);
    expect((await list(b.keys.sandbox, "payee=anna schmidt")).map((p) => p.payout_id)).toEqual([ids.otherBusiness]);
    expect((await list(a.keys.production, "payee=anna schmidt")).map((p) => p.payout_id)).toEqual([ids.otherEnvironment]);
  });

  it("takes % and _ as themselves, not as patterns", async () => {
    expect((await list(a.keys.sandbox, `payee=${encodeURIComponent("100%")}`)).map((p) => p.payout_id)).toEqual([ids.percent]);
    expect(await list(a.keys.sandbox, `payee=${encodeURIComponent("%")}&external_ref=A-1`)).toEqual([]);
    expect(await list(a.keys.sandbox, "payee=_")).toEqual([]);
  });

  it("refuses a blank search", async () => {
    const response = await t.app.inject({ method: "GET", url: "/v1/payouts?payee=%20%20", headers: bearer(a.keys.sandbox) });
    const error = expectErrorEnvelope(response, {
      status: 400,
      code: "validation_failed",
      actor: { user_id: a.userId, membership_id: a.membershipId, role: "business_admin", environment: "sandbox" },
    });
    expect(error.details?.map((d) => d.field)).toEqual(["payee"]);
  });
});
