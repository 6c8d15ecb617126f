// Four eyes on weakening a control (issue 29): with maker-checker on, raising a payout limit, turning maker-checker
// off, loosening the approval rules or switching a funding account's enforcement off waits (202) for a second
// admin; the proposer cannot approve their own change; tightening applies at once; a change whose control moved
// since is stale; proposals and approvals are audited and e-mailed; other tenants see nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onlyFundingAccount, sandboxCredit, setFunding } from "../funding/funding-fixtures.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { queuedMails } from "../helpers/queued-mail.js";
import { addMember, asPerson, STRONG_PASSWORD } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { createPayout, payableBeneficiary } from "../payouts/payout-fixtures.js";

let t: TestApp;
let business: RegisteredBusiness;
let key: string;
let second: { email: string; membershipId: string; userId: string };
let proposer: Record<string, string>;
let approver: Record<string, string>;

const eur = (perPayout: number | null, daily: number | null) => ({
  currency: "EUR",
  per_payout_max_minor: perPayout,
  daily_max_minor: daily,
});
const putLimits = (headers: Record<string, string>, limits: unknown[]) =>
  t.app.inject({ method: "PUT", url: "/v1/payout-limits", headers, payload: { limits } });
const limitsNow = async () =>
  (await t.app.inject({ method: "GET", url: "/v1/payout-limits", headers: bearer(key) })).json().limits;
const act = (id: string, verb: "approve" | "discard", headers: Record<string, string>) =>
  t.app.inject({ method: "POST", url: `/v1/control-changes/${id}/${verb}`, headers });

beforeAll(async () => {
  t = await buildTestApp();
  business = await registerBusiness(t.app, "Four Eyes Co");
  key = business.keys.sandbox;
  second = await addMember(t.app, key, "business_admin");
  proposer = await asPerson(t.app, business.email);
  approver = await asPerson(t.app, second.email, "sandbox", STRONG_PASSWORD);
  expect((await putLimits(bearer(key), [eur(1_000, 5_000)])).statusCode).toBe(200);
  const on = await t.app.inject({
    method: "PUT",
    url: "/v1/approval-policy",
    headers: bearer(key),
    payload: { rules: [], maker_checker: true },
  });
  expect(on.statusCode, on.body).toBe(200);
});
afterAll(async () => t?.close());

describe("a weakening waits for a second admin", () => {
  it("raising a limit answers 202 and changes nothing until another admin approves; the proposer cannot", async () => {
    const mailsBefore = (await queuedMails(t)).filter((m) => m.idempotency_key.startsWith("control-change-proposed:")).length;
    const raised = await putLimits(proposer, [eur(2_000, 5_000)]);
    expect(raised.statusCode, raised.body).toBe(202);
    const change = raised.json();
    expect(change).toMatchObject({
      object: "control_change",
      kind: "payout_limits",
      control: "payout_limits",
      status: "pending",
      proposed_by: { membership_id: business.membershipId, api_key_id: null },
      decided_by: null,
    });
    expect((await limitsNow())[0]).toMatchObject({ per_payout_max_minor: 1_000 });
    const proposedMails = (await queuedMails(t)).filter((m) => m.idempotency_key.startsWith("control-change-proposed:"));
    expect(proposedMails.length - mailsBefore).toBe(2);

    const listed = await t.app.inject({ method: "GET", url: "/v1/control-changes?status=pending", headers: bearer(key) });
    expect(listed.json().control_changes.map((c: { id: string }) => c.id)).toEqual([change.id]);

    const own = await act(change.id, "approve", proposer);
    expectErrorEnvelope(own, {
      status: 403,
      code: "CONTROL_CHANGE_SAME_PERSON",
      actor: { user_id: business.userId, membership_id: business.membershipId, role: "business_admin", environment: "sandbox" },
    });
    // A key cannot approve a weakening (a person must), whoever's it is.
    expect((await act(change.id, "approve", bearer(key))).statusCode).toBe(403);

    const approved = await act(change.id, "approve", approver);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: "approved", decided_by: { membership_id: second.membershipId } });
    expect((await limitsNow())[0]).toMatchObject({ per_payout_max_minor: 2_000 });
    const again = await act(change.id, "approve", approver);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe("CONTROL_CHANGE_NOT_PENDING");

    const audit = await t.app.inject({ method: "GET", url: "/v1/audit-records?limit=20", headers: bearer(key) });
    const actions = audit.json().audit_records.map((r: { action: string }) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(["control_change_proposed", "control_change_approved", "control_weakened", "payout_limits_changed"]),
    );
  });

  it("tightening applies at once (a key may); a raise by a key is refused; a change whose control moved is stale", async () => {
    const tightened = await putLimits(bearer(key), [eur(1_500, 4_000)]);
    expect(tightened.statusCode, tightened.body).toBe(200);
    expect((await limitsNow())[0]).toMatchObject({ per_payout_max_minor: 1_500, daily_max_minor: 4_000 });

    const byKey = await putLimits(bearer(key), [eur(null, 4_000)]);
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error.code).toBe("CONTROL_WEAKENING_NEEDS_PERSON");

    const pending = (await putLimits(proposer, [eur(null, 4_000)])).json();
    expect(pending.status).toBe("pending");
    // A newer proposal supersedes it.
    const newer = await putLimits(proposer, [eur(9_000, 4_000)]);
    expect(newer.statusCode).toBe(202);
    const superseded = await t.app.inject({ method: "GET", url: `/v1/control-changes/${pending.id}`, headers: bearer(key) });
    expect(superseded.json().status).toBe("superseded");
    // The limits move meanwhile (a tightening applies at once): the pending change would undo it, so it is stale.
    expect((await putLimits(bearer(key), [eur(1_000, 4_000)])).statusCode).toBe(200);
    const stale = await act(newer.json().id, "approve", approver);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe("CONTROL_CHANGE_STALE");
    expect((await limitsNow())[0]).toMatchObject({ per_payout_max_minor: 1_000 });
    // The proposer may withdraw it.
    const discarded = await act(newer.json().id, "discard", proposer);
    expect(discarded.statusCode, discarded.body).toBe(200);
    expect(discarded.json()).toMatchObject({ status: "discarded", decided_by: { membership_id: business.membershipId } });
  });

  it("turning maker-checker off, loosening a rule and switching enforcement off wait too", async () => {
    const off = await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      headers: proposer,
      payload: { rules: [{ name: "all", outcome: "approve" }], maker_checker: false },
    });
    expect(off.statusCode, off.body).toBe(202);
    expect(off.json()).toMatchObject({ kind: "approval_policy", control: "maker_checker" });
    const policy = await t.app.inject({ method: "GET", url: "/v1/approval-policy", headers: bearer(key) });
    expect(policy.json()).toMatchObject({ maker_checker: true, rules: [] });

    // A funding account exists once a payout was approved in its currency.
    const payee = await payableBeneficiary(t.app, key);
    const payout = await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId, amount_minor: 100 });
    // Maker-checker is on: another person approves it.
    const approval = await t.app.inject({ method: "POST", url: `/v1/payouts/${payout.payout_id}/approve`, headers: approver });
    expect(approval.statusCode, approval.body).toBe(201);
    const account = await onlyFundingAccount(t.app, key);
    expect((await sandboxCredit(t.app, key, account.id, 1_000)).statusCode).toBe(201);
    const enforce = await setFunding(t.app, key, account.id, { enforcement: "enforce" });
    expect(enforce.statusCode, enforce.body).toBe(200);
    const enforcementOff = await t.app.inject({
      method: "PATCH",
      url: `/v1/funding-accounts/${account.id}`,
      headers: proposer,
      payload: { enforcement: "track_only" },
    });
    expect(enforcementOff.statusCode, enforcementOff.body).toBe(202);
    expect((await onlyFundingAccount(t.app, key)).enforcement).toBe("enforce");
    const applied = await act(enforcementOff.json().id, "approve", approver);
    expect(applied.statusCode, applied.body).toBe(200);
    expect((await onlyFundingAccount(t.app, key)).enforcement).toBe("track_only");

    expect((await act(off.json().id, "approve", approver)).statusCode).toBe(200);
    const after = await t.app.inject({ method: "GET", url: "/v1/approval-policy", headers: bearer(key) });
    expect(after.json()).toMatchObject({ maker_checker: false, rules: [{ name: "all", outcome: "approve" }] });
    // Maker-checker is off now: a raise applies at once (and is reported to the admins).
    expect((await putLimits(proposer, [eur(null, null)])).statusCode).toBe(200);
  });
});

describe("roles and tenants", () => {
  it("another Business sees none of the changes; read-only members read but cannot decide", async () => {
    const other = await registerBusiness(t.app, "Other Four Eyes Co");
    const [change] = (await t.app.inject({ method: "GET", url: "/v1/control-changes", headers: bearer(key) })).json()
      .control_changes;
    expect(change).toBeDefined();
    const foreign = await t.app.inject({
      method: "GET",
      url: `/v1/control-changes/${change.id}`,
      headers: bearer(other.keys.sandbox),
    });
    expectErrorEnvelope(foreign, {
      status: 404,
      code: "not_found",
      actor: { user_id: other.userId, membership_id: other.membershipId, role: "business_admin", environment: "sandbox" },
    });
    const production = await t.app.inject({
      method: "GET",
      url: "/v1/control-changes",
      headers: bearer(business.keys.production),
    });
    expect(production.json().control_changes).toEqual([]);
    const reader = await addMember(t.app, key, "business_read_only");
    const readerHeaders = await asPerson(t.app, reader.email, "sandbox", STRONG_PASSWORD);
    expect((await t.app.inject({ method: "GET", url: "/v1/control-changes", headers: readerHeaders })).statusCode).toBe(200);
    expect((await act(change.id, "discard", readerHeaders)).statusCode).toBe(403);
    const badId = await t.app.inject({ method: "POST", url: "/v1/control-changes/not-a-uuid/approve", headers: bearer(key) });
    expect(badId.statusCode).toBe(400);
  });
});
