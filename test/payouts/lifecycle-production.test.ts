// The whole production lifecycle through the job handlers, with a scripted rail injected for production
// (tests only) and outcomes driven by enqueuing PAYOUT_RAIL_OUTCOME_JOBs as the simulator's control
// endpoint does, then draining the worker. Time-driven steps (the return window) move the injected clock.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYOUT_RAIL_OUTCOME_JOB, PAYOUT_SETTLE_JOB } from "../../src/modules/payouts/index.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import type { RailOutcome } from "../../src/rails/rail.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import {
  createPayout,
  createScriptedRail,
  decide,
  enqueueOutcome,
  getPayout,
  jobCounts,
  payableBeneficiary,
  payoutEvents,
  railsWithProduction,
  type ScriptedRail,
} from "./payout-fixtures.js";

const HOUR = 3_600_000;
let t: TestApp;
let rail: ScriptedRail;
let business: RegisteredBusiness;
let key: string;
let beneficiaryId: string;
const db = () => t.runtime.deps.database.db;

beforeAll(async () => {
  rail = createScriptedRail();
  t = await buildTestApp({ rails: railsWithProduction(rail), env: { PAYOUT_RETURN_WINDOW_HOURS: "48" } });
  business = await registerBusiness(t.app);
  key = business.keys.production;
  beneficiaryId = (await payableBeneficiary(t.app, key)).beneficiaryId;
});
afterAll(async () => t?.close());

async function drain(): Promise<void> {
  await t.runtime.createWorker(`w-${Math.random()}`).drain();
}

/** A production payout approved and submitted to the scripted rail. */
async function submitted(extra: Record<string, unknown> = {}): Promise<string> {
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, external_ref: "ext-1", ...extra });
  expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
  await drain();
  return payout.payout_id;
}

async function outcome(payoutId: string, value: RailOutcome): Promise<void> {
  await enqueueOutcome(db(), payoutId, value, t.clock.now());
  await drain();
}

async function status(payoutId: string): Promise<unknown> {
  return (await getPayout(t.app, key, payoutId)).status;
}

async function types(payoutId: string): Promise<string[]> {
  return (await payoutEvents(db(), payoutId)).map((e) => e.type);
}

describe("production lifecycle", () => {
  it("submits once with our idempotency key and records rail_ref with payout.disbursement_submitted", async () => {
    const before = rail.submissions.length;
    const payoutId = await submitted();
    const calls = rail.submissions.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ payoutId, idempotencyKey: `payout_${payoutId}_1`, amountMinor: 1234, currency: "EUR" });
    expect(calls[0]?.destination.iban).toBe("DE89370400440532013000");
    const payout = await getPayout(t.app, key, payoutId);
    expect(payout).toMatchObject({
      status: "approved",
      rail: "scripted_test_rail",
      rail_ref: `ref_payout_${payoutId}_1`,
      disbursement_status: "submitted",
    });
    const [event] = await payoutEvents(db(), payoutId);
    expect(event).toMatchObject({ type: "payout.disbursement_submitted" });
    expect(event?.data).toMatchObject({ status: "approved", rail_ref: `ref_payout_${payoutId}_1`, amount: "12.34" });
  });

  it("walks acknowledged, estimated arrival (and its update), disbursed, delivered (and a correction), settled, late return", async () => {
    const payoutId = await submitted();
    await outcome(payoutId, { type: "acknowledged" });
    const eta = new Date(t.clock.now().getTime() + 24 * HOUR);
    await outcome(payoutId, { type: "estimated_arrival", estimatedArrivalAt: eta });
    await outcome(payoutId, { type: "estimated_arrival", estimatedArrivalAt: eta }); // repeat: no event
    const later = new Date(eta.getTime() + 6 * HOUR);
    await outcome(payoutId, { type: "estimated_arrival", estimatedArrivalAt: later });
    expect((await getPayout(t.app, key, payoutId)).estimated_arrival_at).toBe(later.toISOString());
    await outcome(payoutId, { type: "disbursed" });
    expect(await status(payoutId)).toBe("disbursed");

    const arrival = new Date(t.clock.now().getTime() - 60_000);
    await outcome(payoutId, { type: "delivered", deliveredAt: arrival });
    const corrected = new Date(arrival.getTime() + 30_000);
    await outcome(payoutId, { type: "delivered", deliveredAt: corrected });
    await outcome(payoutId, { type: "delivered", deliveredAt: corrected }); // repeat: no event
    const payout = await getPayout(t.app, key, payoutId);
    expect(payout).toMatchObject({ status: "disbursed", delivered_at: corrected.toISOString() });

    // The return window closes: settled.
    t.clock.advance(48 * HOUR - 1_000);
    await drain();
    expect(await status(payoutId)).toBe("disbursed");
    t.clock.advance(2_000);
    await drain();
    expect(await status(payoutId)).toBe("settled");

    // A late rail return after settlement.
    await outcome(payoutId, { type: "returned", reason: "Beneficiary bank returned the funds" });
    expect(await getPayout(t.app, key, payoutId)).toMatchObject({
      status: "returned",
      failure_reason: "Beneficiary bank returned the funds",
    });

    const events = await payoutEvents(db(), payoutId);
    expect(events.map((e) => e.type)).toEqual([
      "payout.disbursement_submitted",
      "payout.acknowledged",
      "payout.estimated_arrival_at",
      "payout.estimated_arrival_at",
      "payout.disbursed",
      "payout.delivered",
      "payout.delivered",
      "payout.settled",
      "payout.returned",
    ]);
    const [firstDelivered, correction] = events.filter((e) => e.type === "payout.delivered");
    // Spec ordering exception: occurred_at is the arrival, which may precede payout.disbursed; the
    // correction is the one with the higher sequence.
    expect(firstDelivered?.occurredAt.toISOString()).toBe(arrival.toISOString());
    expect(firstDelivered?.data).toMatchObject({ delivered_at: arrival.toISOString(), status: "disbursed" });
    expect(correction?.data).toMatchObject({ delivered_at: corrected.toISOString() });
    expect(correction?.sequence).toBeGreaterThan(firstDelivered?.sequence ?? Number.POSITIVE_INFINITY);
    const disbursedEvent = events.find((e) => e.type === "payout.disbursed");
    expect(firstDelivered?.occurredAt.getTime()).toBeLessThan(disbursedEvent?.occurredAt.getTime() ?? 0);
    expect(events.find((e) => e.type === "payout.estimated_arrival_at")?.data.estimated_arrival_at).toBe(eta.toISOString());
    expect(events.at(-1)?.data).toMatchObject({ status: "returned", failure_reason: "Beneficiary bank returned the funds" });
    expect(events.find((e) => e.type === "payout.settled")?.data).toMatchObject({ status: "settled" });
  });

  it("returns a disbursed payout before the window closes; the later settlement is ignored", async () => {
    const payoutId = await submitted();
    await outcome(payoutId, { type: "disbursed" });
    await outcome(payoutId, { type: "returned", reason: "Account closed" });
    t.clock.advance(49 * HOUR);
    await drain();
    expect(await status(payoutId)).toBe("returned");
    expect(await types(payoutId)).toEqual(["payout.disbursement_submitted", "payout.disbursed", "payout.returned"]);
    expect((await jobCounts(db(), PAYOUT_SETTLE_JOB.type)).dead ?? 0).toBe(0);
  });

  it("fails on a rail failure, with failure_reason; later outcomes are ignored without error loops", async () => {
    const payoutId = await submitted();
    await outcome(payoutId, { type: "failed", reason: "Beneficiary account frozen" });
    await outcome(payoutId, { type: "disbursed" });
    expect(await getPayout(t.app, key, payoutId)).toMatchObject({
      status: "failed",
      failure_reason: "Beneficiary account frozen",
    });
    const events = await payoutEvents(db(), payoutId);
    expect(events.map((e) => e.type)).toEqual(["payout.disbursement_submitted", "payout.failed"]);
    expect(events[1]?.data).toMatchObject({ status: "failed", failure_reason: "Beneficiary account frozen" });
    expect((await jobCounts(db(), PAYOUT_RAIL_OUTCOME_JOB.type)).dead ?? 0).toBe(0);
    expect((await jobCounts(db(), PAYOUT_RAIL_OUTCOME_JOB.type)).pending ?? 0).toBe(0);
  });

  it("fails at once when the rail refuses the submission", async () => {
    rail.script = () => ({ accepted: false, reason: "Destination not reachable on this rail" });
    try {
      const payoutId = await submitted();
      expect(await getPayout(t.app, key, payoutId)).toMatchObject({
        status: "failed",
        disbursement_status: "refused",
        failure_reason: "Destination not reachable on this rail",
        rail_ref: null,
      });
      expect(await types(payoutId)).toEqual(["payout.failed"]);
    } finally {
      rail.script = (request) => ({ accepted: true, railRef: `ref_${request.idempotencyKey}`, scheduledOutcomes: [] });
    }
  });

  it("is canceled by the rail before funds move", async () => {
    const payoutId = await submitted();
    await outcome(payoutId, { type: "canceled", reason: "Canceled by the provider" });
    expect(await status(payoutId)).toBe("canceled");
    const events = await payoutEvents(db(), payoutId);
    expect(events.at(-1)).toMatchObject({ type: "payout.canceled" });
    expect(events.at(-1)?.data).toMatchObject({ status: "canceled", reason: "Canceled by the provider", canceled_by: "rail" });
  });

  it("holds for compliance and returns to the state held before, from approved and from disbursed", async () => {
    const fromApproved = await submitted();
    await outcome(fromApproved, { type: "compliance_hold", reason: "Sanctions screening" });
    expect(await getPayout(t.app, key, fromApproved)).toMatchObject({ status: "compliance_hold", held_from_status: "approved" });
    await outcome(fromApproved, { type: "compliance_hold_cleared" });
    expect(await getPayout(t.app, key, fromApproved)).toMatchObject({ status: "approved", held_from_status: null });
    await outcome(fromApproved, { type: "disbursed" });
    expect(await status(fromApproved)).toBe("disbursed");

    const fromDisbursed = await submitted();
    await outcome(fromDisbursed, { type: "disbursed" });
    await outcome(fromDisbursed, { type: "compliance_hold", reason: "AML review" });
    // The window closes during the hold: no settlement while held.
    t.clock.advance(49 * HOUR);
    await drain();
    expect(await status(fromDisbursed)).toBe("compliance_hold");
    // Cleared after the window closed: back to disbursed, then settled at once (the same drain).
    await outcome(fromDisbursed, { type: "compliance_hold_cleared" });
    expect(await status(fromDisbursed)).toBe("settled");
    expect((await types(fromDisbursed)).slice(-2)).toEqual(["payout.disbursed", "payout.settled"]);

    const heldThenFailed = await submitted();
    await outcome(heldThenFailed, { type: "compliance_hold", reason: "Sanctions hit" });
    await outcome(heldThenFailed, { type: "failed", reason: "Blocked by sanctions review" });
    expect(await status(heldThenFailed)).toBe("failed");
  });

  it("applies the rail's scheduled outcomes in order, at their times", async () => {
    const scheduled = createScriptedRail([
      { afterMs: 0, outcome: { type: "acknowledged" } },
      { afterMs: 0, outcome: { type: "disbursed" } },
      { afterMs: 2 * HOUR, outcome: { type: "delivered", deliveredAt: new Date("2026-01-01T00:00:00Z") } },
    ]);
    const original = rail.script;
    rail.script = (request) => scheduled.script(request);
    try {
      const payoutId = await submitted();
      expect(await types(payoutId)).toEqual(["payout.disbursement_submitted", "payout.acknowledged", "payout.disbursed"]);
      t.clock.advance(2 * HOUR);
      await drain();
      expect(await types(payoutId)).toEqual([
        "payout.disbursement_submitted",
        "payout.acknowledged",
        "payout.disbursed",
        "payout.delivered",
      ]);
    } finally {
      rail.script = original;
    }
  });

  it("resumes after a failure between the rail call and its record without a second payout at the rail", async () => {
    let calls = 0;
    const original = rail.script;
    rail.script = (request) => {
      calls += 1;
      // The rail took the payout, but the answer never reached us (a timeout): the job retries.
      if (calls === 1) throw new Error("socket hang up");
      return original(request);
    };
    try {
      const before = rail.submissions.length;
      const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
      await decide(t.app, key, payout.payout_id, "approve");
      await drain();
      expect(await getPayout(t.app, key, payout.payout_id)).toMatchObject({
        status: "approved",
        disbursement_status: "submitting",
      });
      t.clock.advance(10 * 60_000);
      await drain();
      const calls2 = rail.submissions.slice(before);
      expect(calls2).toHaveLength(2);
      expect(new Set(calls2.map((c) => c.idempotencyKey))).toEqual(new Set([`payout_${payout.payout_id}_1`]));
      expect(await getPayout(t.app, key, payout.payout_id)).toMatchObject({ disbursement_status: "submitted" });
      expect(await types(payout.payout_id)).toEqual(["payout.disbursement_submitted"]);
    } finally {
      rail.script = original;
    }
  });

  it("still sends an approved payout whose destination was deleted, and keeps its last four", async () => {
    const payee = await payableBeneficiary(t.app, key);
    const payout = await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId });
    await decide(t.app, key, payout.payout_id, "approve");
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/v1/beneficiaries/${payee.beneficiaryId}/bank-accounts/${payee.destinationId}`,
      headers: bearer(key),
    });
    expect(deleted.statusCode).toBe(204);
    await drain();
    expect(rail.submissions.at(-1)?.destination).toMatchObject({
      destinationId: payee.destinationId,
      iban: "DE89370400440532013000",
    });
    expect(await getPayout(t.app, key, payout.payout_id)).toMatchObject({
      disbursement_status: "submitted",
      destination_last4: "3000",
      bank_account_id: payee.destinationId,
    });
  });

  it("buries a malformed outcome job at once instead of retrying it", async () => {
    const now = t.clock.now();
    const id = crypto.randomUUID();
    await db()
      .insert(jobs)
      .values({
        id,
        type: PAYOUT_RAIL_OUTCOME_JOB.type,
        payload: { payoutId: "x", outcome: { type: "teleported" } },
        status: "pending",
        runAt: now,
        maxAttempts: 5,
        createdAt: now,
        updatedAt: now,
      });
    await drain();
    const [row] = await db().select().from(jobs).where(eq(jobs.id, id));
    expect(row?.status).toBe("dead");
  });
});

describe("logs", () => {
  it("never carry the account numbers the rail received", () => {
    const logs = t.logLines.join("\n");
    expect(rail.submissions.length).toBeGreaterThan(0);
    expect(logs).not.toContain("DE89370400440532013000");
    expect(logs).not.toContain("370400440532013000");
  });
});

describe("sandbox payouts of the same service", () => {
  it("ignore production-only outcomes: they stop at disbursed", async () => {
    const sandboxKey = business.keys.sandbox;
    const payee = await payableBeneficiary(t.app, sandboxKey);
    const payout = await createPayout(t.app, sandboxKey, { beneficiary_id: payee.beneficiaryId });
    await decide(t.app, sandboxKey, payout.payout_id, "approve");
    await drain();
    await outcome(payout.payout_id, { type: "delivered", deliveredAt: t.clock.now() });
    await outcome(payout.payout_id, { type: "returned", reason: "x" });
    t.clock.advance(100 * HOUR);
    await drain();
    expect((await getPayout(t.app, sandboxKey, payout.payout_id)).status).toBe("disbursed");
    expect(await types(payout.payout_id)).toEqual(["payout.disbursement_submitted", "payout.acknowledged", "payout.disbursed"]);
  });
});
