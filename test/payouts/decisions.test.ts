// Decisions: the canonical route and its aliases, idempotent repeats, clean conflicts, history newest
// first, automated Validators, the per-environment approval policy and maker-checker.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYOUT_DISBURSE_JOB } from "../../src/modules/payouts/index.js";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { asPerson } from "../helpers/sessions.js";
import { addTeamMember } from "../helpers/team.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import {
  createPayout,
  decide,
  getPayout,
  jobCounts,
  newKey,
  payableBeneficiary,
  payoutEvents,
  postPayout,
} from "./payout-fixtures.js";

let t: TestApp;
let business: RegisteredBusiness;
let key: string;
let beneficiaryId: string;
const db = () => t.runtime.deps.database.db;
const actor = (environment: "sandbox" | "production" = "sandbox") => ({
  user_id: business.userId,
  membership_id: business.membershipId,
  role: "business_admin" as const,
  environment,
});

beforeAll(async () => {
  t = await buildTestApp();
  business = await registerBusiness(t.app);
  key = business.keys.sandbox;
  beneficiaryId = (await payableBeneficiary(t.app, key)).beneficiaryId;
});
afterAll(async () => t?.close());

describe("decisions", () => {
  it("approves through the decisions route, records the human Validator and dispatches the disbursement", async () => {
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
    const jobsBefore = (await jobCounts(db(), PAYOUT_DISBURSE_JOB.type)).pending ?? 0;
    const response = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${payout.payout_id}/decisions`,
      headers: bearer(key),
      payload: { outcome: "approve", reason: "Looks right" },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.payout.status).toBe("approved");
    expect(body.decision).toMatchObject({
      payout_id: payout.payout_id,
      outcome: "approve",
      reason: "Looks right",
      validator: { type: "human", name: null, api_key_id: business.keyIds.sandbox, user_id: business.userId, policy_rule: null },
    });
    expect((await jobCounts(db(), PAYOUT_DISBURSE_JOB.type)).pending).toBe(jobsBefore + 1);
  });

  it("rejects through the alias with payout.rejected carrying the reason", async () => {
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, external_ref: "r-1" });
    const response = await decide(t.app, key, payout.payout_id, "reject", { reason: "Duplicate invoice" });
    expect(response.statusCode).toBe(201);
    expect(response.json().payout.status).toBe("rejected");
    const events = await payoutEvents(db(), payout.payout_id);
    expect(events.map((e) => e.type)).toEqual(["payout.rejected"]);
    expect(events[0]?.data).toMatchObject({
      payout_id: payout.payout_id,
      status: "rejected",
      reason: "Duplicate invoice",
      amount: "12.34",
      rail_ref: null,
      external_ref: "r-1",
    });
  });

  it("answers a repeated decision with the same Decision (200) and nothing new", async () => {
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
    const first = await decide(t.app, key, payout.payout_id, "approve");
    const jobs = await jobCounts(db(), PAYOUT_DISBURSE_JOB.type);
    const again = await decide(t.app, key, payout.payout_id, "approve");
    expect(again.statusCode).toBe(200);
    expect(again.json().decision).toEqual(first.json().decision);
    const viaCanonical = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${payout.payout_id}/decisions`,
      headers: bearer(key),
      payload: { outcome: "approve" },
    });
    expect(viaCanonical.statusCode).toBe(200);
    expect(await jobCounts(db(), PAYOUT_DISBURSE_JOB.type)).toEqual(jobs);
    const history = await t.app.inject({ method: "GET", url: `/v1/payouts/${payout.payout_id}/decisions`, headers: bearer(key) });
    expect(history.json().decisions).toHaveLength(1);
  });

  it("refuses the other outcome on a decided payout with a clean 409", async () => {
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
    await decide(t.app, key, payout.payout_id, "reject");
    const conflict = await decide(t.app, key, payout.payout_id, "approve");
    expectErrorEnvelope(conflict, { status: 409, code: "PAYOUT_ALREADY_DECIDED", actor: actor() });
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/payouts/${payout.payout_id}`, headers: bearer(key) })).json().status,
    ).toBe("rejected");
  });

  it("records an automated Validator by name, and requires the name", async () => {
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
    const unnamed = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${payout.payout_id}/decisions`,
      headers: bearer(key),
      payload: { outcome: "approve", validator: { type: "automated" } },
    });
    expectErrorEnvelope(unnamed, { status: 400, code: "validation_failed", actor: actor() });
    const named = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${payout.payout_id}/decisions`,
      headers: bearer(key),
      payload: { outcome: "approve", validator: { type: "automated", name: "risk-engine" } },
    });
    expect(named.json().decision.validator).toMatchObject({ type: "automated", name: "risk-engine" });
  });

  it("validates the body and answers 404 for an unknown payout", async () => {
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
    const bad = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${payout.payout_id}/decisions`,
      headers: bearer(key),
      payload: { outcome: "maybe" },
    });
    expectErrorEnvelope(bad, { status: 400, code: "validation_failed", actor: actor() });
    const missing = await decide(t.app, key, "01900000-0000-7000-8000-000000000000", "approve");
    expectErrorEnvelope(missing, { status: 404, code: "not_found", actor: actor() });
    const history = await t.app.inject({
      method: "GET",
      url: "/v1/payouts/01900000-0000-7000-8000-000000000000/decisions",
      headers: bearer(key),
    });
    expectErrorEnvelope(history, { status: 404, code: "not_found", actor: actor() });
  });
});

describe("approval policy", () => {
  it("starts empty, and a read-only key cannot change it", async () => {
    const fresh = await registerBusiness(t.app, "Policy Co");
    const read = await t.app.inject({ method: "GET", url: "/v1/approval-policy", headers: bearer(fresh.keys.production) });
    expect(read.json()).toEqual({ environment: "production", rules: [], maker_checker: false, updated_at: null });
    const readOnly = await createApiKey(t.app, fresh.keys.production, "business_read_only");
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      headers: bearer(readOnly.key),
      payload: { rules: [] },
    });
    expect(put.statusCode).toBe(403);
  });

  it("decides at creation with the first matching rule and records it; other payouts wait for a person", async () => {
    const policyBusiness = await registerBusiness(t.app, "Auto Co");
    const k = policyBusiness.keys.sandbox;
    const payee = await payableBeneficiary(t.app, k);
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      // An approve rule loosens the policy: a person sets it, not a key (CONTROL_WEAKENING_NEEDS_PERSON).
      headers: await asPerson(t.app, policyBusiness.email),
      payload: {
        rules: [
          { name: "small-eur", outcome: "approve", currency: "EUR", max_amount_minor: 10_000 },
          { name: "huge", outcome: "reject", min_amount_minor: 1_000_000 },
        ],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().rules).toHaveLength(2);

    const small = await createPayout(t.app, k, { beneficiary_id: payee.beneficiaryId, amount_minor: 5_000 });
    expect(small.status).toBe("approved");
    const decisions = await t.app.inject({ method: "GET", url: `/v1/payouts/${small.payout_id}/decisions`, headers: bearer(k) });
    expect(decisions.json().decisions[0]).toMatchObject({
      outcome: "approve",
      validator: { type: "automated", name: "approval_policy", policy_rule: "small-eur", api_key_id: null },
    });

    const huge = await createPayout(t.app, k, { beneficiary_id: payee.beneficiaryId, amount_minor: 2_000_000 });
    expect(huge.status).toBe("rejected");
    expect((await payoutEvents(db(), huge.payout_id)).map((e) => e.type)).toEqual(["payout.rejected"]);

    const middle = await createPayout(t.app, k, { beneficiary_id: payee.beneficiaryId, amount_minor: 50_000 });
    expect(middle.status).toBe("pending_approval");

    // Per environment: production of the same Business has no rules.
    const productionPayee = await payableBeneficiary(t.app, policyBusiness.keys.production);
    const production = await createPayout(t.app, policyBusiness.keys.production, {
      beneficiary_id: productionPayee.beneficiaryId,
      amount_minor: 5_000,
    });
    expect(production.status).toBe("pending_approval");
  });

  it("refuses an unknown currency in a rule", async () => {
    const response = await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      headers: bearer(key),
      payload: { rules: [{ name: "x", outcome: "approve", currency: "ABC" }] },
    });
    expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor: actor() });
  });

  it("with maker-checker, the maker cannot approve with any of their keys, another person can; rejecting stays open", async () => {
    const mc = await registerBusiness(t.app, "Four Eyes Co");
    const maker = mc.keys.sandbox;
    // A second admin key minted by the same person is still the maker.
    const makersOtherKey = await createApiKey(t.app, maker, "business_admin", "maker's second key");
    const checker = await addTeamMember(t, mc.businessId);
    await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      headers: bearer(maker),
      payload: { rules: [], maker_checker: true },
    });
    const payee = await payableBeneficiary(t.app, maker);
    const payout = await createPayout(t.app, maker, { beneficiary_id: payee.beneficiaryId });
    for (const sameMaker of [maker, makersOtherKey.key]) {
      const own = await decide(t.app, sameMaker, payout.payout_id, "approve");
      expect(own.statusCode).toBe(403);
      expect(own.json().error.code).toBe("MAKER_CHECKER_VIOLATION");
    }
    // Nor by calling itself an automated validator.
    const disguised = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${payout.payout_id}/decisions`,
      headers: bearer(makersOtherKey.key),
      payload: { outcome: "approve", validator: { type: "automated", name: "payments-bot" } },
    });
    expect(disguised.statusCode).toBe(403);
    const other = await decide(t.app, checker.keys.sandbox, payout.payout_id, "approve");
    expect(other.statusCode).toBe(201);
    expect(other.json().decision.validator).toMatchObject({ membership_id: checker.membershipId, user_id: checker.userId });
    const second = await createPayout(t.app, maker, { beneficiary_id: payee.beneficiaryId });
    expect((await decide(t.app, makersOtherKey.key, second.payout_id, "reject")).statusCode).toBe(201);
  });

  it("refuses a Decision recorded in the name of the service's own approval policy", async () => {
    const payee = await payableBeneficiary(t.app, business.keys.sandbox);
    const payout = await createPayout(t.app, business.keys.sandbox, { beneficiary_id: payee.beneficiaryId });
    for (const name of ["approval_policy", " Approval_Policy "]) {
      const response = await t.app.inject({
        method: "POST",
        url: `/v1/payouts/${payout.payout_id}/decisions`,
        headers: bearer(business.keys.sandbox),
        payload: { outcome: "approve", validator: { type: "automated", name } },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({
        code: "validation_failed",
        details: [{ field: "validator.name", code: "reserved" }],
      });
    }
    expect((await getPayout(t.app, business.keys.sandbox, payout.payout_id)).status).toBe("pending_approval");
  });
});

describe("cancellation by the Business", () => {
  it("cancels a pending production payout with payout.canceled; sandbox refuses", async () => {
    const production = business.keys.production;
    const payee = await payableBeneficiary(t.app, production);
    const payout = await createPayout(t.app, production, { beneficiary_id: payee.beneficiaryId });
    const cancel = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${payout.payout_id}/cancel`,
      headers: bearer(production),
      payload: { reason: "Wrong amount" },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({ status: "canceled", failure_reason: "Wrong amount" });
    const events = await payoutEvents(db(), payout.payout_id);
    expect(events.map((e) => e.type)).toEqual(["payout.canceled"]);
    expect(events[0]?.data).toMatchObject({ status: "canceled", reason: "Wrong amount", canceled_by: "business" });
    const again = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${payout.payout_id}/cancel`,
      headers: bearer(production),
    });
    expect(again.statusCode).toBe(200);
    expect(await payoutEvents(db(), payout.payout_id)).toHaveLength(1);

    const sandboxPayout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
    const refused = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${sandboxPayout.payout_id}/cancel`,
      headers: bearer(key),
    });
    expectErrorEnvelope(refused, { status: 409, code: "PAYOUT_NOT_CANCELABLE", actor: actor() });
  });

  it("cancels an approved payout before dispatch, and refuses once the rail was called", async () => {
    const production = business.keys.production;
    const payee = await payableBeneficiary(t.app, production);
    const early = await createPayout(t.app, production, { beneficiary_id: payee.beneficiaryId });
    await decide(t.app, production, early.payout_id, "approve");
    const canceled = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${early.payout_id}/cancel`,
      headers: bearer(production),
    });
    expect(canceled.json().status).toBe("canceled");
    // Its disbursement job finds nothing to send.
    await t.runtime.createWorker("cancel-worker").drain();
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/payouts/${early.payout_id}`, headers: bearer(production) })).json(),
    ).toMatchObject({ status: "canceled", rail: null });

    const late = await createPayout(t.app, production, { beneficiary_id: payee.beneficiaryId, idempotency_key: newKey() });
    await decide(t.app, production, late.payout_id, "approve");
    await t.runtime.createWorker("cancel-worker-2").drain();
    const refused = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${late.payout_id}/cancel`,
      headers: bearer(production),
    });
    expectErrorEnvelope(refused, { status: 409, code: "PAYOUT_NOT_CANCELABLE", actor: actor("production") });
  });

  it("keeps other routes unaffected (a read-only key cannot create)", async () => {
    const readOnly = await createApiKey(t.app, key, "business_read_only");
    const response = await postPayout(t.app, readOnly.key, {
      beneficiary_id: beneficiaryId,
      amount_minor: 1,
      currency: "EUR",
      idempotency_key: newKey(),
    });
    expect(response.statusCode).toBe(403);
  });
});
