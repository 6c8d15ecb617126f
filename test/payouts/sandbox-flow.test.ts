// The sandbox path end to end with the real sandbox rail: create, approve, the disbursement job, and the
// events up to payout.disbursed (spec, What the service does 5).
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide, getPayout, payableBeneficiary, payoutEvents } from "./payout-fixtures.js";

let t: TestApp;
let business: RegisteredBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  business = await registerBusiness(t.app);
});
afterAll(async () => t?.close());

it("an approved sandbox payout is disbursed by the sandbox rail and stops there", async () => {
  const key = business.keys.sandbox;
  const { beneficiaryId, destinationId } = await payableBeneficiary(t.app, key);
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, external_ref: "inv-1" });
  expect(payout).toMatchObject({ status: "pending_approval", bank_account_id: destinationId, amount: "12.34", channel: "api" });

  const approved = await decide(t.app, key, payout.payout_id, "approve");
  expect(approved.statusCode).toBe(201);
  expect(approved.json().payout.status).toBe("approved");

  await t.runtime.createWorker("w").drain();
  const after = await getPayout(t.app, key, payout.payout_id);
  expect(after).toMatchObject({ status: "disbursed", rail: "sandbox", disbursement_status: "submitted" });
  expect(after.rail_ref).toMatch(/^sbx_/);

  const events = await payoutEvents(t.runtime.deps.database.db, payout.payout_id);
  expect(events.map((e) => e.type)).toEqual(["payout.disbursement_submitted", "payout.acknowledged", "payout.disbursed"]);
  expect(events[2]?.data).toMatchObject({
    payout_id: payout.payout_id,
    external_ref: "inv-1",
    beneficiary_id: beneficiaryId,
    amount: "12.34",
    currency: "EUR",
    rail_ref: after.rail_ref,
    status: "disbursed",
  });
});
