// End to end in production through the real production simulator (no rail injected): each magic amount drives
// its payout through the states and events of src/rails/README.md, by moving the injected clock and draining the
// worker. Plus the operator control endpoint on a held payout, and enrollment refusals blocking payouts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import {
  createPayout,
  decide,
  getPayout,
  newKey,
  PERSON_IDENTITY,
  payableBeneficiary,
  payoutEvents,
  postPayout,
  type StoredEvent,
} from "../payouts/payout-fixtures.js";

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const D = 24 * H;
const TOKEN = "operator-e2e-token-0123456789abcdef0123456789";

let t: TestApp;
let business: RegisteredBusiness;
let key: string;
let beneficiaryId: string;
const db = () => t.runtime.deps.database.db;

beforeAll(async () => {
  t = await buildTestApp({ env: { PAYOUT_RETURN_WINDOW_HOURS: "48", SIMULATOR_CONTROL_TOKEN: TOKEN } });
  business = await registerBusiness(t.app, "Simulator E2E");
  key = business.keys.production;
  beneficiaryId = (await payableBeneficiary(t.app, key)).beneficiaryId;
});
afterAll(async () => t?.close());

async function drain(): Promise<void> {
  await t.runtime.createWorker(`e2e-${Math.random()}`).drain();
}

/** A payout of `amountMinor` EUR approved and submitted; returns its id and the submission instant. */
async function submitted(amountMinor: number): Promise<{ id: string; at: number; advanceTo: (ms: number) => Promise<void> }> {
  const payout = await createPayout(t.app, key, {
    beneficiary_id: beneficiaryId,
    amount_minor: amountMinor,
    external_ref: `sim-${amountMinor}`,
  });
  expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
  const at = t.clock.now().getTime();
  await drain();
  return {
    id: payout.payout_id,
    at,
    /** Moves the clock to `ms` after submission (never backwards) and runs every due job. */
    advanceTo: async (ms: number) => {
      const target = at + ms;
      if (target > t.clock.now().getTime()) t.clock.set(new Date(target));
      await drain();
    },
  };
}

const status = async (id: string) => (await getPayout(t.app, key, id)).status;
const types = async (id: string) => (await payoutEvents(db(), id)).map((e) => e.type);
const iso = (ms: number) => new Date(ms).toISOString();
const only = (events: StoredEvent[], type: string) => events.filter((e) => e.type === type);

describe("production simulator, end to end", () => {
  it("default amount: acknowledged, estimated arrival, disbursed, delivered, then settled when the return window closes", async () => {
    const p = await submitted(50_00);
    expect(await status(p.id)).toBe("approved");
    expect(await types(p.id)).toEqual(["payout.disbursement_submitted", "payout.acknowledged"]);
    await p.advanceTo(S);
    expect((await getPayout(t.app, key, p.id)).estimated_arrival_at).toBe(iso(p.at + 2 * D));
    await p.advanceTo(5 * MIN - 1);
    expect(await status(p.id)).toBe("approved");
    await p.advanceTo(5 * MIN);
    expect(await status(p.id)).toBe("disbursed");
    await p.advanceTo(2 * H);
    expect(await getPayout(t.app, key, p.id)).toMatchObject({ status: "disbursed", delivered_at: iso(p.at + 2 * H) });
    await p.advanceTo(5 * MIN + 48 * H - 1);
    expect(await status(p.id)).toBe("disbursed");
    await p.advanceTo(5 * MIN + 48 * H);
    expect(await status(p.id)).toBe("settled");
    const events = await payoutEvents(db(), p.id);
    expect(events.map((e) => e.type)).toEqual([
      "payout.disbursement_submitted",
      "payout.acknowledged",
      "payout.estimated_arrival_at",
      "payout.disbursed",
      "payout.delivered",
      "payout.settled",
    ]);
    const railRef = (await getPayout(t.app, key, p.id)).rail_ref;
    expect(railRef).toMatch(/^sim_[0-9a-f]{24}$/);
    for (const event of events) {
      expect(event.data).toMatchObject({ payout_id: p.id, amount: "50.00", currency: "EUR", external_ref: "sim-5000" });
    }
    expect(only(events, "payout.disbursed")[0]?.data).toMatchObject({ rail_ref: railRef, status: "disbursed" });
    expect(only(events, "payout.delivered")[0]?.data).toMatchObject({ delivered_at: iso(p.at + 2 * H) });
    expect((await getPayout(t.app, key, p.id)).rail).toBe("production_simulator");
  });

  it("100001: refused at submission, failed at once with the rail's reason", async () => {
    const p = await submitted(100_001);
    expect(await getPayout(t.app, key, p.id)).toMatchObject({
      status: "failed",
      failure_reason: "The receiving bank refused the payment: the account number is invalid.",
      rail_ref: null,
    });
    const events = await payoutEvents(db(), p.id);
    expect(events.map((e) => e.type)).toEqual(["payout.failed"]);
    expect(events[0]?.data).toMatchObject({ amount: "1000.01", status: "failed" });
  });

  it("100002: acknowledged, then failed after 5 minutes", async () => {
    const p = await submitted(100_002);
    expect(await status(p.id)).toBe("approved");
    await p.advanceTo(5 * MIN);
    expect(await getPayout(t.app, key, p.id)).toMatchObject({
      status: "failed",
      failure_reason: "The receiving bank could not credit the account; no funds left the service.",
    });
    expect(await types(p.id)).toEqual(["payout.disbursement_submitted", "payout.acknowledged", "payout.failed"]);
    await p.advanceTo(10 * D);
    expect(await status(p.id)).toBe("failed");
  });

  it("100003: acknowledged, then canceled by the rail", async () => {
    const p = await submitted(100_003);
    await p.advanceTo(5 * MIN);
    expect(await status(p.id)).toBe("canceled");
    expect(await types(p.id)).toEqual(["payout.disbursement_submitted", "payout.acknowledged", "payout.canceled"]);
  });

  it("100004: delivered, then returned inside the return window; the window's close changes nothing", async () => {
    const p = await submitted(100_004);
    await p.advanceTo(2 * H);
    expect(await status(p.id)).toBe("disbursed");
    await p.advanceTo(D);
    expect(await getPayout(t.app, key, p.id)).toMatchObject({
      status: "returned",
      failure_reason: "The receiving bank returned the funds: account closed.",
    });
    await p.advanceTo(5 * D);
    expect(await status(p.id)).toBe("returned");
    expect(await types(p.id)).toEqual([
      "payout.disbursement_submitted",
      "payout.acknowledged",
      "payout.estimated_arrival_at",
      "payout.disbursed",
      "payout.delivered",
      "payout.returned",
    ]);
  });

  it("100005: settled when the window closes, then returned late after 60 days", async () => {
    const p = await submitted(100_005);
    // Step by step: a job runs when the clock is moved past its time, and disbursed_at is when it ran.
    for (const ms of [S, 5 * MIN, 2 * H]) await p.advanceTo(ms);
    await p.advanceTo(5 * MIN + 48 * H);
    expect(await status(p.id)).toBe("settled");
    await p.advanceTo(60 * D - 1);
    expect(await status(p.id)).toBe("settled");
    await p.advanceTo(60 * D);
    expect(await getPayout(t.app, key, p.id)).toMatchObject({
      status: "returned",
      failure_reason: "The receiving bank returned the funds after settlement: payment disputed as unauthorized.",
    });
    expect((await types(p.id)).slice(-2)).toEqual(["payout.settled", "payout.returned"]);
  });

  it("100006: compliance hold after 1 minute, cleared after 1 hour back to approved, then the default path", async () => {
    const p = await submitted(100_006);
    await p.advanceTo(MIN);
    expect(await getPayout(t.app, key, p.id)).toMatchObject({ status: "compliance_hold", held_from_status: "approved" });
    await p.advanceTo(H);
    expect(await status(p.id)).toBe("approved");
    await p.advanceTo(H + 5 * MIN);
    expect(await status(p.id)).toBe("disbursed");
    await p.advanceTo(3 * H);
    expect((await getPayout(t.app, key, p.id)).delivered_at).toBe(iso(p.at + 3 * H));
    await p.advanceTo(H + 5 * MIN + 48 * H);
    expect(await status(p.id)).toBe("settled");
  });

  it("100007: held until the operator clears it through the control endpoint, then the operator drives it on", async () => {
    const p = await submitted(100_007);
    await p.advanceTo(10 * D);
    expect(await status(p.id)).toBe("compliance_hold");
    const push = (payload: Record<string, unknown>) =>
      t.app.inject({ method: "POST", url: `/operator/simulator/payouts/${p.id}/outcomes`, headers: bearer(TOKEN), payload });
    expect((await push({ type: "compliance_hold_cleared" })).statusCode).toBe(202);
    await drain();
    expect(await status(p.id)).toBe("approved");
    expect((await push({ type: "disbursed" })).statusCode).toBe(202);
    await drain();
    expect(await status(p.id)).toBe("disbursed");
    const events = await payoutEvents(db(), p.id);
    expect(events.map((e) => e.type)).toContain("payout.disbursed");
  });

  it("100008: the estimated arrival is given, then updated", async () => {
    const p = await submitted(100_008);
    await p.advanceTo(S);
    expect((await getPayout(t.app, key, p.id)).estimated_arrival_at).toBe(iso(p.at + 2 * D));
    await p.advanceTo(H);
    expect((await getPayout(t.app, key, p.id)).estimated_arrival_at).toBe(iso(p.at + 4 * D));
    const etas = only(await payoutEvents(db(), p.id), "payout.estimated_arrival_at");
    expect(etas.map((e) => e.data.estimated_arrival_at)).toEqual([iso(p.at + 2 * D), iso(p.at + 4 * D)]);
    await p.advanceTo(4 * D);
    expect(await getPayout(t.app, key, p.id)).toMatchObject({ status: "disbursed", delivered_at: iso(p.at + 4 * D) });
  });

  it("100009: delivered_at is corrected; the correction has the higher sequence", async () => {
    const p = await submitted(100_009);
    await p.advanceTo(3 * H);
    expect(await getPayout(t.app, key, p.id)).toMatchObject({ status: "disbursed", delivered_at: iso(p.at + 90 * MIN) });
    const [first, correction] = only(await payoutEvents(db(), p.id), "payout.delivered");
    expect(first?.data.delivered_at).toBe(iso(p.at + 2 * H));
    expect(correction?.data.delivered_at).toBe(iso(p.at + 90 * MIN));
    expect(correction?.occurredAt.toISOString()).toBe(iso(p.at + 90 * MIN));
    expect(correction?.sequence).toBeGreaterThan(first?.sequence ?? Number.POSITIVE_INFINITY);
  });

  it("100010: payout.delivered occurred before payout.disbursed (the spec's ordering exception)", async () => {
    const p = await submitted(100_010);
    for (const ms of [S, 2 * H, 2 * H + S]) await p.advanceTo(ms);
    const events = await payoutEvents(db(), p.id);
    const disbursed = only(events, "payout.disbursed")[0];
    const delivered = only(events, "payout.delivered")[0];
    expect(delivered?.occurredAt.toISOString()).toBe(iso(p.at + 30 * MIN));
    expect(disbursed?.occurredAt.toISOString()).toBe(iso(p.at + 2 * H));
    expect(delivered?.sequence).toBeGreaterThan(disbursed?.sequence ?? Number.POSITIVE_INFINITY);
    expect(await getPayout(t.app, key, p.id)).toMatchObject({ status: "disbursed", delivered_at: iso(p.at + 30 * MIN) });
  });

  it("100011: acknowledged, then nothing until the operator acts", async () => {
    const p = await submitted(100_011);
    await p.advanceTo(30 * D);
    expect(await status(p.id)).toBe("approved");
    expect(await types(p.id)).toEqual(["payout.disbursement_submitted", "payout.acknowledged"]);
  });

  it("sandbox payouts of a magic amount still just succeed and stop at disbursed", async () => {
    const sandboxKey = business.keys.sandbox;
    const { beneficiaryId: sandboxBeneficiary } = await payableBeneficiary(t.app, sandboxKey);
    const payout = await createPayout(t.app, sandboxKey, { beneficiary_id: sandboxBeneficiary, amount_minor: 100_001 });
    expect((await decide(t.app, sandboxKey, payout.payout_id, "approve")).statusCode).toBe(201);
    await drain();
    t.clock.advance(70 * D);
    await drain();
    expect((await getPayout(t.app, sandboxKey, payout.payout_id)).status).toBe("disbursed");
  });
});

describe("enrollment refusals through the simulator block payouts", () => {
  it("a Beneficiary refused person-level cannot be paid until re-enrollment succeeds", async () => {
    const beneficiary = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries",
      headers: bearer(key),
      payload: { beneficiary_type: "person", email: `e2e+refuse_enrollment-${newKey()}@example.com`, ...PERSON_IDENTITY },
    });
    const id = (beneficiary.json() as { id: string }).id;
    const account = await t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${id}/bank-accounts`,
      headers: bearer(key),
      payload: { account_holder_name: "Jane Doe", country: "DE", currency: "EUR", iban: "DE89370400440532013000" },
    });
    expect(account.statusCode).toBe(201);
    const ack = await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${id}/acknowledge`, headers: bearer(key) });
    expect(ack.json()).toMatchObject({ enrollment_status: "rejected", status: "action_required" });
    const refused = await postPayout(t.app, key, {
      beneficiary_id: id,
      amount_minor: 100,
      currency: "EUR",
      idempotency_key: newKey(),
    });
    expectErrorEnvelope(refused, { status: 422, code: "BENEFICIARY_ENROLLMENT_REJECTED", actor: expect.anything() as never });
  });
});
