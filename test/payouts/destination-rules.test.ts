// Destination rules with payouts (spec: Rules tied to states 2, DELETE bank account 4): a destination a
// payout awaiting approval heads to cannot be deleted; rejecting that payout first lets it go.
import { afterAll, beforeAll, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { createPayout, decide, getPayout, payableBeneficiary } from "./payout-fixtures.js";

let t: TestApp;
let business: RegisteredBusiness;
let key: string;
beforeAll(async () => {
  t = await buildTestApp();
  business = await registerBusiness(t.app);
  key = business.keys.sandbox;
});
afterAll(async () => t?.close());

const remove = (beneficiaryId: string, destinationId: string) =>
  t.app.inject({
    method: "DELETE",
    url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts/${destinationId}`,
    headers: bearer(key),
  });

it("refuses deleting a destination while a pending payout heads to it, and allows it after the reject", async () => {
  const { beneficiaryId, destinationId } = await payableBeneficiary(t.app, key);
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
  const refused = await remove(beneficiaryId, destinationId);
  expectErrorEnvelope(refused, {
    status: 409,
    code: "DESTINATION_HAS_PENDING_PAYOUT",
    actor: { user_id: business.userId, membership_id: business.membershipId, role: "business_admin", environment: "sandbox" },
  });
  const listed = await t.app.inject({
    method: "GET",
    url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts`,
    headers: bearer(key),
  });
  expect(listed.json().bank_accounts).toHaveLength(1);

  expect((await decide(t.app, key, payout.payout_id, "reject")).statusCode).toBe(201);
  expect((await remove(beneficiaryId, destinationId)).statusCode).toBe(204);
  expect(await getPayout(t.app, key, payout.payout_id)).toMatchObject({
    destination_last4: "3000",
    bank_account_id: destinationId,
  });
});

it("does not block deletion for approved payouts, which are still sent", async () => {
  const { beneficiaryId, destinationId } = await payableBeneficiary(t.app, key);
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
  await decide(t.app, key, payout.payout_id, "approve");
  expect((await remove(beneficiaryId, destinationId)).statusCode).toBe(204);
  await t.runtime.createWorker("w").drain();
  expect(await getPayout(t.app, key, payout.payout_id)).toMatchObject({ status: "disbursed", destination_last4: "3000" });
});
