// Enrollment through the real rails of each environment: the sandbox rail verifies everyone; the production
// simulator refuses person-level (e-mail tag +refuse_enrollment) and account-level (account ending 0911/0912).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import {
  acknowledge,
  CLOSED_ACCOUNT,
  CLOSED_REFUSAL,
  call,
  email,
  enrollmentEvents,
  GOOD_ACCOUNT,
  listAccounts,
  NAME_MISMATCH_ACCOUNT,
  newBeneficiary,
  PERSON_REFUSAL,
  readBeneficiary,
  registerAccount,
} from "./fixtures.js";

let t: TestApp;
let biz: RegisteredBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, "Enrollment Co");
});
afterAll(async () => t?.close());

const enrollmentFields = (body: Record<string, unknown>) => ({
  enrollment_status: body.enrollment_status,
  enrollment_failure_detail: body.enrollment_failure_detail,
  enrollment_failure_bank_account_id: body.enrollment_failure_bank_account_id,
});

describe("sandbox: the sandbox rail verifies", () => {
  it("a Beneficiary is never enrolled before it is compliant; acknowledging enrolls it and its destinations", async () => {
    const key = biz.keys.sandbox;
    const b = await newBeneficiary(t.app, key);
    expect(enrollmentFields(b)).toEqual({
      enrollment_status: null,
      enrollment_failure_detail: null,
      enrollment_failure_bank_account_id: null,
    });
    const account = await registerAccount(t.app, key, b.id, GOOD_ACCOUNT);
    expect(account.status).toBe("unverified");
    expect((await readBeneficiary(t.app, key, b.id)).enrollment_status).toBeNull();

    const acknowledged = await acknowledge(t.app, key, b.id);
    expect(enrollmentFields(acknowledged)).toEqual({
      enrollment_status: "verified",
      enrollment_failure_detail: null,
      enrollment_failure_bank_account_id: null,
    });
    expect(acknowledged.status).toBe("ready");
    expect((await listAccounts(t.app, key, b.id))[0]).toMatchObject({
      id: account.id,
      status: "verified",
      rail_rejection_reason: null,
    });
  });

  it("even the simulator's magic values are verified in sandbox", async () => {
    const key = biz.keys.sandbox;
    const b = await newBeneficiary(t.app, key, { email: email("+refuse_enrollment") });
    expect((await acknowledge(t.app, key, b.id)).enrollment_status).toBe("verified");
    const closed = await registerAccount(t.app, key, b.id, CLOSED_ACCOUNT);
    expect(closed).toMatchObject({ status: "verified", payout_usable: true, rail_rejection_reason: null });
    expect(await enrollmentEvents(t, b.id)).toEqual([]);
  });
});

describe("production: the simulator's refusals", () => {
  it("a person-level refusal names no account: rejected, detail on the Beneficiary only, event recorded", async () => {
    const key = biz.keys.production;
    const b = await newBeneficiary(t.app, key, { email: email("+refuse_enrollment") });
    const account = await registerAccount(t.app, key, b.id, GOOD_ACCOUNT);

    const acknowledged = await acknowledge(t.app, key, b.id);
    expect(enrollmentFields(acknowledged)).toEqual({
      enrollment_status: "rejected",
      enrollment_failure_detail: PERSON_REFUSAL,
      enrollment_failure_bank_account_id: null,
    });
    // Compliant, but payouts cannot reach them: action_required.
    expect(acknowledged).toMatchObject({ compliance_status: "compliant", status: "action_required" });
    // The account was not named: its status and reason are untouched.
    expect((await listAccounts(t.app, key, b.id))[0]).toMatchObject({
      id: account.id,
      status: "unverified",
      payout_usable: true,
      rail_rejection_reason: null,
    });
    expect(await enrollmentEvents(t, b.id)).toEqual([
      {
        environment: "production",
        data: { beneficiary_id: b.id, bank_account_id: null, reason: PERSON_REFUSAL, status: "rejected" },
      },
    ]);
  });

  it("a person-level refusal with no destination at all", async () => {
    const key = biz.keys.production;
    const b = await newBeneficiary(t.app, key, { email: email("+Refuse_Enrollment") });
    expect(enrollmentFields(await acknowledge(t.app, key, b.id))).toEqual({
      enrollment_status: "rejected",
      enrollment_failure_detail: PERSON_REFUSAL,
      enrollment_failure_bank_account_id: null,
    });
  });

  it("an account-level refusal names the account: repeated on its rail_rejection_reason, not payout-usable", async () => {
    const key = biz.keys.production;
    const b = await newBeneficiary(t.app, key);
    expect((await acknowledge(t.app, key, b.id)).enrollment_status).toBe("verified");

    const closed = await registerAccount(t.app, key, b.id, CLOSED_ACCOUNT);
    expect(closed).toMatchObject({ status: "rejected", payout_usable: false, rail_rejection_reason: CLOSED_REFUSAL });
    const after = await readBeneficiary(t.app, key, b.id);
    expect(enrollmentFields(after)).toEqual({
      enrollment_status: "rejected",
      enrollment_failure_detail: CLOSED_REFUSAL,
      enrollment_failure_bank_account_id: closed.id,
    });
    expect(after.status).toBe("action_required");
    expect(await enrollmentEvents(t, b.id)).toEqual([
      {
        environment: "production",
        data: { beneficiary_id: b.id, bank_account_id: closed.id, reason: CLOSED_REFUSAL, status: "rejected" },
      },
    ]);
    // The declared destination cannot be the refused account.
    const declare = await call(t.app, key, "PUT", `/v1/beneficiaries/${b.id}/declared-destination`, {
      destination_id: closed.id,
    });
    expectErrorEnvelope(declare, { status: 422, code: "BANK_ACCOUNT_REJECTED", actor: expect.anything() as never });
  });

  it("registering a good account afterwards enrolls only the new one and clears the rejection", async () => {
    const key = biz.keys.production;
    const b = await newBeneficiary(t.app, key);
    await acknowledge(t.app, key, b.id);
    const closed = await registerAccount(t.app, key, b.id, CLOSED_ACCOUNT);
    const good = await registerAccount(t.app, key, b.id, GOOD_ACCOUNT);
    expect(good).toMatchObject({ status: "verified", payout_usable: true });
    const after = await readBeneficiary(t.app, key, b.id);
    expect(enrollmentFields(after)).toEqual({
      enrollment_status: "verified",
      enrollment_failure_detail: null,
      enrollment_failure_bank_account_id: null,
    });
    expect(after.status).toBe("ready");
    // The refused account keeps its own refusal.
    const accounts = await listAccounts(t.app, key, b.id);
    expect(accounts.find((a) => a.id === closed.id)).toMatchObject({ status: "rejected", rail_rejection_reason: CLOSED_REFUSAL });
    expect((await enrollmentEvents(t, b.id)).length).toBe(1);
  });

  it("at acknowledgment, accounts are submitted in order and the first refusal stops the attempt", async () => {
    const key = biz.keys.production;
    const b = await newBeneficiary(t.app, key);
    const good = await registerAccount(t.app, key, b.id, GOOD_ACCOUNT);
    const mismatch = await registerAccount(t.app, key, b.id, NAME_MISMATCH_ACCOUNT);
    const closed = await registerAccount(t.app, key, b.id, CLOSED_ACCOUNT);
    const acknowledged = await acknowledge(t.app, key, b.id);
    expect(enrollmentFields(acknowledged)).toEqual({
      enrollment_status: "rejected",
      enrollment_failure_detail: "The account holder name does not match the bank's records.",
      enrollment_failure_bank_account_id: mismatch.id,
    });
    const accounts = new Map((await listAccounts(t.app, key, b.id)).map((a) => [a.id, a]));
    expect(accounts.get(good.id)).toMatchObject({ status: "verified", rail_rejection_reason: null });
    expect(accounts.get(mismatch.id)).toMatchObject({
      status: "rejected",
      rail_rejection_reason: "The account holder name does not match the bank's records.",
    });
    // Never submitted: the attempt stopped at the refusal.
    expect(accounts.get(closed.id)).toMatchObject({ status: "unverified", rail_rejection_reason: null });
  });

  it("no attempt while compliance is pending or a re-acknowledgment is required", async () => {
    const key = biz.keys.production;
    const pending = await newBeneficiary(t.app, key);
    const account = await registerAccount(t.app, key, pending.id, CLOSED_ACCOUNT);
    expect(account).toMatchObject({ status: "unverified", rail_rejection_reason: null });
    expect((await readBeneficiary(t.app, key, pending.id)).enrollment_status).toBeNull();

    const b = await newBeneficiary(t.app, key);
    await acknowledge(t.app, key, b.id);
    const changed = await call(t.app, key, "PUT", `/v1/beneficiaries/${b.id}`, { last_name: "Lima-Souza" });
    expect(changed.json()).toMatchObject({ reacknowledgment_required: true });
    const later = await registerAccount(t.app, key, b.id, CLOSED_ACCOUNT);
    expect(later).toMatchObject({ status: "unverified" });
    expect(await enrollmentEvents(t, b.id)).toEqual([]);
    // Re-acknowledging enrolls the account that waited.
    const reacknowledged = await acknowledge(t.app, key, b.id);
    expect(reacknowledged).toMatchObject({ enrollment_status: "rejected", enrollment_failure_bank_account_id: later.id });
  });

  it("the rail's wording and the account number never reach the logs", async () => {
    expect(t.logLines.join("\n")).not.toContain("7700010911");
  });
});

describe("POST /v1/beneficiaries/{id}/enrollment", () => {
  const retry = (key: string, id: string) => call(t.app, key, "POST", `/v1/beneficiaries/${id}/enrollment`);

  it("retries a refused account: refused again, a new event; after deleting it, the retry verifies", async () => {
    const key = biz.keys.production;
    const b = await newBeneficiary(t.app, key);
    await acknowledge(t.app, key, b.id);
    const closed = await registerAccount(t.app, key, b.id, CLOSED_ACCOUNT);

    const again = await retry(key, b.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(enrollmentFields(again.json())).toEqual({
      enrollment_status: "rejected",
      enrollment_failure_detail: CLOSED_REFUSAL,
      enrollment_failure_bank_account_id: closed.id,
    });
    expect((await enrollmentEvents(t, b.id)).length).toBe(2);

    const removed = await call(t.app, key, "DELETE", `/v1/beneficiaries/${b.id}/bank-accounts/${closed.id}`);
    expect(removed.statusCode).toBe(204);
    const verified = await retry(key, b.id);
    expect(verified.statusCode).toBe(200);
    // No live destination left: a person-level check, which passes.
    expect(enrollmentFields(verified.json())).toEqual({
      enrollment_status: "verified",
      enrollment_failure_detail: null,
      enrollment_failure_bank_account_id: null,
    });
    expect((await enrollmentEvents(t, b.id)).length).toBe(2);
  });

  it("a person-level refusal stays refused on retry", async () => {
    const key = biz.keys.production;
    const b = await newBeneficiary(t.app, key, { email: email("+refuse_enrollment") });
    await acknowledge(t.app, key, b.id);
    const again = await retry(key, b.id);
    expect(again.json()).toMatchObject({ enrollment_status: "rejected", enrollment_failure_detail: PERSON_REFUSAL });
  });

  it("refuses a Beneficiary that is not compliant, or must be re-acknowledged: 422 ENROLLMENT_NOT_ALLOWED", async () => {
    const key = biz.keys.production;
    const pending = await newBeneficiary(t.app, key);
    const r1 = await retry(key, pending.id);
    expectErrorEnvelope(r1, { status: 422, code: "ENROLLMENT_NOT_ALLOWED", actor: expect.anything() as never });
    const b = await newBeneficiary(t.app, key);
    await acknowledge(t.app, key, b.id);
    await call(t.app, key, "PUT", `/v1/beneficiaries/${b.id}`, { first_name: "Anna" });
    const r2 = await retry(key, b.id);
    const error = expectErrorEnvelope(r2, { status: 422, code: "ENROLLMENT_NOT_ALLOWED", actor: expect.anything() as never });
    expect(error.message).toMatch(/re-acknowledged/);
    expect((await readBeneficiary(t.app, key, pending.id)).enrollment_status).toBeNull();
  });

  it("an archived Beneficiary is 422 BENEFICIARY_ARCHIVED; an unknown one 404; a bad id 400", async () => {
    const key = biz.keys.production;
    const b = await newBeneficiary(t.app, key);
    await acknowledge(t.app, key, b.id);
    await call(t.app, key, "POST", `/v1/beneficiaries/${b.id}/archive`);
    expectErrorEnvelope(await retry(key, b.id), { status: 422, code: "BENEFICIARY_ARCHIVED", actor: expect.anything() as never });
    expectErrorEnvelope(await retry(key, "0190a0b0-0000-7000-8000-00000000abcd"), {
      status: 404,
      code: "not_found",
      actor: expect.anything() as never,
    });
    expectErrorEnvelope(await retry(key, "not-a-uuid"), {
      status: 400,
      code: "bad_request",
      actor: expect.anything() as never,
      details: true,
    });
  });

  it("accepts an id spelt in capitals and records the stored id in the event", async () => {
    const key = biz.keys.production;
    const b = await newBeneficiary(t.app, key, { email: email("+refuse_enrollment") });
    await acknowledge(t.app, key, b.id);
    const response = await retry(key, b.id.toUpperCase());
    expect(response.statusCode).toBe(200);
    const recorded = await enrollmentEvents(t, b.id);
    expect(recorded.map((e) => e.data.beneficiary_id)).toEqual([b.id, b.id]);
  });
});
