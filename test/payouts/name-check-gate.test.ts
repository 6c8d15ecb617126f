// The name check's policy at payout creation (issue 29): under `warn` a no-match account is still paid (the
// answer is shown), under `block` its payouts are refused with 422 NAME_CHECK_NO_MATCH, alone or per bulk row,
// while accounts whose check matched (or has not run, or could not be made) are paid as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { newKey, PERSON_IDENTITY, postPayout } from "./payout-fixtures.js";

const NO_MATCH_IBAN = "DE59370400440532010921";
const NOT_POSSIBLE_IBAN = "DE05370400440532010923";
const PLAIN_IBAN = "DE62370400440532013001";

async function appWithMode(mode: "warn" | "block"): Promise<{ t: TestApp; biz: RegisteredBusiness }> {
  const t = await buildTestApp();
  const biz = await registerBusiness(t.app, `Name Check ${mode} Ltd`);
  // The destination policy's name_check (tightening it from the default `off` is allowed to a key).
  const set = await t.app.inject({
    method: "PUT",
    url: "/v1/destination-policy",
    headers: bearer(biz.keys.sandbox),
    payload: { name_check: mode },
  });
  expect(set.statusCode, set.body).toBe(200);
  return { t, biz };
}

/** A compliant Beneficiary with one account, its name check answered by the worker. */
async function payeeWith(t: TestApp, key: string, iban: string, runWorker = true) {
  const beneficiary = await createBeneficiary(t.app, key, PERSON_IDENTITY);
  const destination = await registerBankAccount(t.app, key, beneficiary.id, {
    account_holder_name: "Jane Doe",
    country: "DE",
    currency: "EUR",
    iban,
  });
  const ack = await t.app.inject({
    method: "POST",
    url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`,
    headers: bearer(key),
  });
  expect(ack.statusCode, ack.body).toBe(200);
  if (runWorker) await t.runtime.createWorker("name-check-gate").drain();
  return { beneficiaryId: beneficiary.id, destinationId: destination.id };
}

const actorOf = (biz: RegisteredBusiness) =>
  ({ user_id: biz.userId, membership_id: biz.membershipId, role: "business_admin", environment: "sandbox" }) as const;

const payoutOf = (payee: { beneficiaryId: string; destinationId: string }) => ({
  beneficiary_id: payee.beneficiaryId,
  bank_account_id: payee.destinationId,
  amount_minor: 1234,
  currency: "EUR",
  idempotency_key: newKey(),
});

describe("name_check: warn", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;
  beforeAll(async () => {
    ({ t, biz } = await appWithMode("warn"));
  });
  afterAll(async () => t?.close());

  it("pays a no-match account: the answer is shown on the account, the payout is created", async () => {
    const payee = await payeeWith(t, biz.keys.sandbox, NO_MATCH_IBAN);
    const created = await postPayout(t.app, biz.keys.sandbox, payoutOf(payee));
    expect(created.statusCode, created.body).toBe(201);
    // The approver reading the payout sees the answer beside the masked account.
    expect(created.json().payee.destination).toMatchObject({ name_check_result: "no_match", name_check_bank_name: null });
    const listed = await t.app.inject({
      method: "GET",
      url: `/v1/beneficiaries/${payee.beneficiaryId}/bank-accounts`,
      headers: bearer(biz.keys.sandbox),
    });
    expect(listed.json().bank_accounts[0]).toMatchObject({ name_check_result: "no_match", payout_usable: true });
  });
});

describe("name_check: block", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;
  beforeAll(async () => {
    ({ t, biz } = await appWithMode("block"));
  });
  afterAll(async () => t?.close());

  it("refuses a payout to a no-match account with 422 NAME_CHECK_NO_MATCH, named or resolved", async () => {
    const key = biz.keys.sandbox;
    const payee = await payeeWith(t, key, NO_MATCH_IBAN);
    expectErrorEnvelope(await postPayout(t.app, key, payoutOf(payee)), {
      status: 422,
      code: "NAME_CHECK_NO_MATCH",
      actor: actorOf(biz),
    });
    // Without naming the account: the Beneficiary's only account is resolved, and refused the same way.
    const { bank_account_id: _named, ...unnamed } = payoutOf(payee);
    expectErrorEnvelope(await postPayout(t.app, key, unnamed), { status: 422, code: "NAME_CHECK_NO_MATCH", actor: actorOf(biz) });
  });

  it("pays accounts whose check matched, could not be made, or has not run yet", async () => {
    const key = biz.keys.sandbox;
    for (const payee of [
      await payeeWith(t, key, PLAIN_IBAN),
      await payeeWith(t, key, NOT_POSSIBLE_IBAN),
      await payeeWith(t, key, NO_MATCH_IBAN, false),
    ]) {
      const created = await postPayout(t.app, key, payoutOf(payee));
      expect(created.statusCode, created.body).toBe(201);
    }
  });

  it("refuses bulk rows to a no-match account one by one, and creates the others", async () => {
    const key = biz.keys.sandbox;
    const blocked = await payeeWith(t, key, NO_MATCH_IBAN);
    const fine = await payeeWith(t, key, PLAIN_IBAN);
    const row = (payee: typeof fine, i: number) => ({
      beneficiary_id: payee.beneficiaryId,
      bank_account_id: payee.destinationId,
      amount_minor: 100 + i,
      currency: "EUR",
      external_ref: `row-${i}`,
    });
    const response = await t.app.inject({
      method: "POST",
      url: "/v1/payouts/bulk",
      headers: bearer(key),
      payload: { uploadId: newKey("upload"), rows: [row(fine, 0), row(blocked, 1), row(fine, 2)] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json().results as Array<{ index: number; status: string; error: { code: string } | null }>;
    expect(results.map((r) => [r.index, r.status, r.error?.code ?? null])).toEqual([
      [0, "created", null],
      [1, "failed", "NAME_CHECK_NO_MATCH"],
      [2, "created", null],
    ]);
  });
});
