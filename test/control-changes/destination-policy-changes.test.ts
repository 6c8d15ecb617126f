// Four eyes on relaxing the destination policy (issue 29): with maker-checker on, PUT /v1/destination-policy that
// relaxes it (approval no longer required, a shorter cooling-off, a laxer name check, screening off) answers 202
// with a pending control change and changes nothing (new bank details still wait for approval); the proposer
// cannot approve it; a second admin does, and the policy changes; a change whose policy moved meanwhile is stale;
// tightening applies at once; with maker-checker off a relaxation applies at once (refused to keys) as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBusiness,
} from "../helpers/factories.js";
import { queuedMails } from "../helpers/queued-mail.js";
import { addMember, asPerson, STRONG_PASSWORD } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { PERSON_IDENTITY } from "../payouts/payout-fixtures.js";

type Headers = Record<string, string>;

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

const putPolicy = (headers: Headers, payload: Record<string, unknown>) =>
  t.app.inject({ method: "PUT", url: "/v1/destination-policy", headers, payload });
const act = (id: string, verb: "approve" | "discard", headers: Headers) =>
  t.app.inject({ method: "POST", url: `/v1/control-changes/${id}/${verb}`, headers });

/** A Business with two admins (people, signed in), maker-checker as given and a strict destination policy. */
async function twoAdmins(makerChecker: boolean) {
  const business: RegisteredBusiness = await registerBusiness(t.app);
  const key = business.keys.sandbox;
  const second = await addMember(t.app, key, "business_admin");
  const proposer = await asPerson(t.app, business.email);
  const approver = await asPerson(t.app, second.email, "sandbox", STRONG_PASSWORD);
  const mc = await t.app.inject({
    method: "PUT",
    url: "/v1/approval-policy",
    headers: bearer(key),
    payload: { rules: [], maker_checker: makerChecker },
  });
  expect(mc.statusCode, mc.body).toBe(200);
  const strict = await putPolicy(bearer(key), { require_approval: true, cooling_off_hours: 24, name_check: "block" });
  expect(strict.statusCode, strict.body).toBe(200);
  const policyNow = async () =>
    (await t.app.inject({ method: "GET", url: "/v1/destination-policy", headers: bearer(key) })).json();
  /** What a user notices of require_approval: the approval status of a newly added account. */
  const newAccountStatus = async () => {
    const beneficiary = await createBeneficiary(t.app, key, PERSON_IDENTITY);
    const added = await t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${beneficiary.id}/bank-accounts`,
      headers: bearer(key),
      payload: GERMAN_IBAN_ACCOUNT,
    });
    expect(added.statusCode, added.body).toBe(201);
    return added.json().approval_status;
  };
  return { business, key, second, proposer, approver, policyNow, newAccountStatus };
}

describe("relaxing the destination policy with maker-checker on", () => {
  it("waits (202) for a second admin: nothing changes, the proposer cannot approve, another admin can", async () => {
    const { business, key, second, proposer, approver, policyNow, newAccountStatus } = await twoAdmins(true);
    const mailsBefore = (await queuedMails(t)).filter((m) => m.idempotency_key.startsWith("control-change-proposed:")).length;

    // Relaxes require_approval and tightens screening in one request: the whole request waits.
    const relaxed = await putPolicy(proposer, { require_approval: false, screening: "on" });
    expect(relaxed.statusCode, relaxed.body).toBe(202);
    const change = relaxed.json();
    expect(change).toMatchObject({
      object: "control_change",
      kind: "destination_policy",
      control: "destination_policy",
      subject_id: "sandbox",
      status: "pending",
      base: { require_approval: true, cooling_off_hours: 24, name_check: "block", screening: "off" },
      proposed: { require_approval: false, screening: "on" },
      proposed_by: { membership_id: business.membershipId, api_key_id: null },
      decided_by: null,
    });
    expect(change.summary).toContain("require_approval");
    expect(await policyNow()).toMatchObject({ require_approval: true, screening: "off" });
    expect(await newAccountStatus()).toBe("pending_approval");
    const proposedMails = (await queuedMails(t)).filter((m) => m.idempotency_key.startsWith("control-change-proposed:"));
    expect(proposedMails.length - mailsBefore).toBe(2);
    const listed = await t.app.inject({ method: "GET", url: "/v1/control-changes?status=pending", headers: bearer(key) });
    expect(listed.json().control_changes.map((c: { id: string }) => c.id)).toEqual([change.id]);

    expectErrorEnvelope(await act(change.id, "approve", proposer), {
      status: 403,
      code: "CONTROL_CHANGE_SAME_PERSON",
      actor: { user_id: business.userId, membership_id: business.membershipId, role: "business_admin", environment: "sandbox" },
    });
    expect(await policyNow()).toMatchObject({ require_approval: true });

    const approved = await act(change.id, "approve", approver);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: "approved", decided_by: { membership_id: second.membershipId } });
    expect(await policyNow()).toMatchObject({
      require_approval: false,
      cooling_off_hours: 24,
      name_check: "block",
      screening: "on",
      updated_by: second.membershipId,
    });
    expect(await newAccountStatus()).toBe("approved");

    const audit = await t.app.inject({ method: "GET", url: "/v1/audit-records?limit=20", headers: bearer(key) });
    const records = audit.json().audit_records as Array<{ action: string; actor: { membership_id: string | null } }>;
    const applied = records.find((r) => r.action === "destination_policy_changed");
    expect(applied?.actor.membership_id).toBe(second.membershipId);
    expect(records.map((r) => r.action)).toEqual(
      expect.arrayContaining(["control_change_proposed", "control_change_approved", "control_weakened"]),
    );
  });

  it("tightening applies at once (a key may); a relaxation by a key is refused; a change whose policy moved is stale", async () => {
    const { key, proposer, approver, policyNow } = await twoAdmins(true);
    const tightened = await putPolicy(bearer(key), { cooling_off_hours: 48 });
    expect(tightened.statusCode, tightened.body).toBe(200);
    expect(tightened.json()).toMatchObject({ cooling_off_hours: 48 });

    const byKey = await putPolicy(bearer(key), { cooling_off_hours: 0 });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error.code).toBe("CONTROL_WEAKENING_NEEDS_PERSON");

    const pending = await putPolicy(proposer, { name_check: "warn" });
    expect(pending.statusCode, pending.body).toBe(202);
    // The policy moves meanwhile: the pending change was proposed against another policy, so it is stale.
    expect((await putPolicy(bearer(key), { screening: "on" })).statusCode).toBe(200);
    const stale = await act(pending.json().id, "approve", approver);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe("CONTROL_CHANGE_STALE");
    expect(await policyNow()).toMatchObject({ name_check: "block", cooling_off_hours: 48, screening: "on" });
    const discarded = await act(pending.json().id, "discard", proposer);
    expect(discarded.statusCode, discarded.body).toBe(200);
    expect(discarded.json().status).toBe("discarded");
  });
});

describe("relaxing the destination policy with maker-checker off", () => {
  it("applies at once from a person (reported to every admin), and is refused to a key", async () => {
    const { key, proposer, policyNow, newAccountStatus } = await twoAdmins(false);
    const byKey = await putPolicy(bearer(key), { require_approval: false });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error.code).toBe("CONTROL_WEAKENING_NEEDS_PERSON");

    const relaxed = await putPolicy(proposer, { require_approval: false, name_check: "off" });
    expect(relaxed.statusCode, relaxed.body).toBe(200);
    expect(relaxed.json()).toMatchObject({ require_approval: false, name_check: "off" });
    expect(await policyNow()).toMatchObject({ require_approval: false, name_check: "off" });
    expect(await newAccountStatus()).toBe("approved");
    const pending = await t.app.inject({ method: "GET", url: "/v1/control-changes?status=pending", headers: bearer(key) });
    expect(pending.json().control_changes).toEqual([]);
    const audit = await t.app.inject({ method: "GET", url: "/v1/audit-records?limit=10", headers: bearer(key) });
    expect(audit.json().audit_records.map((r: { action: string }) => r.action)).toEqual(
      expect.arrayContaining(["control_weakened", "destination_policy_changed"]),
    );
  });
});
