// Maker-checker applies to people: the person who created a payout cannot approve it from another session
// or with one of their keys when the policy asks for a second person; another member can, from a session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { addMember, STRONG_PASSWORD, sessionHeaders, signIn } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { newKey, payableBeneficiary } from "../payouts/payout-fixtures.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("maker-checker with sessions", () => {
  it("two sessions of one person are one maker; another member's session approves, recorded in the audit log", async () => {
    const business = await registerBusiness(t.app, "Four Eyes Sessions Co");
    const policy = await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      headers: bearer(business.keys.sandbox),
      payload: { rules: [], maker_checker: true },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const payee = await payableBeneficiary(t.app, business.keys.sandbox);
    const laptop = await signIn(t.app, business.email);
    const phone = await signIn(t.app, business.email);
    const created = await t.app.inject({
      method: "POST",
      url: "/v1/payouts",
      headers: sessionHeaders(laptop),
      payload: { beneficiary_id: payee.beneficiaryId, amount_minor: 1500, currency: "EUR", idempotency_key: newKey() },
    });
    expect(created.statusCode, created.body).toBe(201);
    const payoutId = created.json().payout_id as string;
    for (const headers of [sessionHeaders(phone), sessionHeaders(laptop), bearer(business.keys.sandbox)]) {
      const own = await t.app.inject({ method: "POST", url: `/v1/payouts/${payoutId}/approve`, headers, payload: {} });
      expect(own.statusCode, own.body).toBe(403);
      expect(own.json().error.code).toBe("MAKER_CHECKER_VIOLATION");
    }
    const approver = await addMember(t.app, business.keys.sandbox, "business_approver");
    const checker = await signIn(t.app, approver.email, STRONG_PASSWORD);
    const approved = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${payoutId}/approve`,
      headers: sessionHeaders(checker),
      payload: {},
    });
    expect(approved.statusCode, approved.body).toBe(201);
    expect(approved.json().decision.validator).toMatchObject({
      user_id: approver.userId,
      membership_id: approver.membershipId,
      api_key_id: null,
    });
    const audit = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?action=payout_decided",
      headers: bearer(business.keys.sandbox),
    });
    expect(audit.json().audit_records).toEqual([
      expect.objectContaining({
        action: "payout_decided",
        environment: "sandbox",
        subject: { type: "payout", id: payoutId },
        actor: expect.objectContaining({ user_id: approver.userId, session_id: checker.body.session.id }),
      }),
    ]);
    const policyAudit = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?action=approval_policy_changed",
      headers: bearer(business.keys.sandbox),
    });
    expect(policyAudit.json().audit_records).toHaveLength(1);
  });
});
