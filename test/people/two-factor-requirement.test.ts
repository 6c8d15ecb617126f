// The Business's two-factor requirement and the member's own two-factor state stay consistent: the
// requirement applies to live sessions at once, a member cannot turn two-factor off while it holds, and
// lifting it frees sessions that owed only an enrolment. Recovery codes can be regenerated (step-up).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import {
  addMember,
  type SignedIn,
  STRONG_PASSWORD,
  sessionHeaders,
  signedInFrom,
  signIn,
  totpCode,
} from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function enrol(s: SignedIn): Promise<{ secret: string; recoveryCodes: string[]; session: SignedIn }> {
  const started = await t.app.inject({
    method: "POST",
    url: "/v1/session/two-factor/enrolment",
    headers: sessionHeaders(s, null),
  });
  expect(started.statusCode, started.body).toBe(200);
  const secret = started.json().secret as string;
  const confirmed = await t.app.inject({
    method: "POST",
    url: "/v1/session/two-factor/enrolment/confirmation",
    headers: sessionHeaders(s, null),
    payload: { code: totpCode(secret, t.clock.now()) },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, recoveryCodes: confirmed.json().recovery_codes, session: signedInFrom(confirmed) };
}

const requireTwoFactor = (business: RegisteredBusiness, on: boolean) =>
  t.app.inject({
    method: "PUT",
    url: "/v1/security-settings",
    headers: bearer(business.keys.sandbox),
    payload: { require_two_factor: on },
  });

/**
 * Lifting the requirement weakens a control: only a person may (an API key gets 403
 * CONTROL_WEAKENING_NEEDS_PERSON), and while it holds that person needs two-factor to be signed in at all.
 */
const liftRequirement = (adminWithTwoFactor: SignedIn) =>
  t.app.inject({
    method: "PUT",
    url: "/v1/security-settings",
    headers: sessionHeaders(adminWithTwoFactor),
    payload: { require_two_factor: false },
  });

const disable = (s: SignedIn, code: string) =>
  t.app.inject({ method: "POST", url: "/v1/session/two-factor/disable", headers: sessionHeaders(s, null), payload: { code } });

const listMembers = (s: SignedIn) => t.app.inject({ method: "GET", url: "/v1/members", headers: sessionHeaders(s) });

async function auditActions(business: RegisteredBusiness, action: string) {
  const response = await t.app.inject({
    method: "GET",
    url: `/v1/audit-records?action=${action}`,
    headers: bearer(business.keys.sandbox),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().audit_records as {
    action: string;
    actor: { user_id: string | null };
    details: Record<string, unknown>;
  }[];
}

describe("the Business's two-factor requirement", () => {
  it("applies at once to live sessions of members without two-factor, and lifting it frees them", async () => {
    const business = await registerBusiness(t.app, "Require Now Co");
    const member = await addMember(t.app, business.keys.sandbox, "business_read_only");
    const memberSession = await signIn(t.app, member.email, STRONG_PASSWORD);
    expect((await listMembers(memberSession)).statusCode).toBe(200);
    const admin = (await enrol(await signIn(t.app, business.email))).session;

    expect((await requireTwoFactor(business, true)).statusCode).toBe(200);
    // The session signed in before the change now serves only enrolment, as a new sign-in would.
    expectErrorEnvelope(await listMembers(memberSession), { status: 401, code: "TWO_FACTOR_REQUIRED", actor: null });
    const current = await t.app.inject({ method: "GET", url: "/v1/session", headers: sessionHeaders(memberSession, null) });
    expect(current.json().session.next_step).toBe("two_factor_enrolment");
    const [changed] = await auditActions(business, "security_settings_changed");
    expect(changed?.details).toMatchObject({ require_two_factor: true, sessions_restricted_to_enrolment: 1 });

    const byKey = await requireTwoFactor(business, false);
    expect(byKey.json().error.code).toBe("CONTROL_WEAKENING_NEEDS_PERSON");
    expect((await liftRequirement(admin)).statusCode).toBe(200);
    expect((await listMembers(memberSession)).statusCode).toBe(200);
  });

  it("refuses to turn two-factor off while a Business of the person requires it, without spending the code", async () => {
    const business = await registerBusiness(t.app, "Strict Co");
    const member = await addMember(t.app, business.keys.sandbox, "business_approver");
    const { recoveryCodes, session } = await enrol(await signIn(t.app, member.email, STRONG_PASSWORD));
    const admin = (await enrol(await signIn(t.app, business.email))).session;
    expect((await requireTwoFactor(business, true)).statusCode).toBe(200);

    const code = recoveryCodes[0] ?? "";
    const refused = await disable(session, code);
    expectErrorEnvelope(refused, { status: 409, code: "TWO_FACTOR_REQUIRED_BY_BUSINESS", actor: null, details: true });
    expect(refused.json().error.message).toContain("Strict Co");
    expect(refused.json().error.details[0].message).toContain(business.businessId);
    const members = await t.app.inject({ method: "GET", url: "/v1/members", headers: bearer(business.keys.sandbox) });
    expect(members.json().members.find((m: { email: string }) => m.email === member.email).two_factor_enabled).toBe(true);

    // Once the requirement is lifted the same recovery code (not spent by the refusal) turns it off.
    expect((await liftRequirement(admin)).statusCode).toBe(200);
    expect((await disable(session, code)).statusCode).toBe(204);
    expect((await auditActions(business, "two_factor_disabled")).map((r) => r.actor.user_id)).toEqual([member.userId]);
  });
});

describe("regenerating recovery codes", () => {
  it("needs a recent confirmation, replaces every old code at once, and is audited", async () => {
    const business = await registerBusiness(t.app, "Regenerate Co");
    const { secret, recoveryCodes: oldCodes, session } = await enrol(await signIn(t.app, business.email));
    const regenerate = (s: SignedIn) =>
      t.app.inject({ method: "POST", url: "/v1/session/two-factor/recovery-codes", headers: sessionHeaders(s, null) });

    t.clock.advance(6 * 60_000);
    expectErrorEnvelope(await regenerate(session), { status: 401, code: "STEP_UP_REQUIRED", actor: null });
    // A person with two-factor authentication confirms with the factor, not the password alone.
    const confirmed = await t.app.inject({
      method: "POST",
      url: "/v1/session/confirmation",
      headers: sessionHeaders(session, null),
      payload: { code: totpCode(secret, t.clock.now()) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const fresh = signedInFrom(confirmed);
    const answered = await regenerate(fresh);
    expect(answered.statusCode, answered.body).toBe(200);
    const newCodes = answered.json().recovery_codes as string[];
    expect(newCodes).toHaveLength(10);
    expect(new Set(newCodes).size).toBe(10);
    expect(newCodes.some((code) => oldCodes.includes(code))).toBe(false);

    const secondFactor = (s: SignedIn, recovery_code: string) =>
      t.app.inject({
        method: "POST",
        url: "/v1/session/two-factor",
        headers: sessionHeaders(s, null),
        payload: { recovery_code },
      });
    const pending = await signIn(t.app, business.email);
    expectErrorEnvelope(await secondFactor(pending, oldCodes[1] ?? ""), {
      status: 401,
      code: "INVALID_TWO_FACTOR_CODE",
      actor: null,
    });
    expect((await secondFactor(pending, newCodes[0] ?? "")).statusCode).toBe(200);
    // Single use, like the first set.
    const again = await signIn(t.app, business.email);
    expectErrorEnvelope(await secondFactor(again, newCodes[0] ?? ""), {
      status: 401,
      code: "INVALID_TWO_FACTOR_CODE",
      actor: null,
    });

    const [record] = await auditActions(business, "recovery_codes_regenerated");
    expect(record?.actor.user_id).toBe(business.userId);
    expect(record?.details).toEqual({ recovery_codes: 10 });
  });

  it("is refused when two-factor authentication is off", async () => {
    const business = await registerBusiness(t.app, "No 2FA Co");
    const s = await signIn(t.app, business.email);
    expectErrorEnvelope(
      await t.app.inject({ method: "POST", url: "/v1/session/two-factor/recovery-codes", headers: sessionHeaders(s, null) }),
      { status: 409, code: "TWO_FACTOR_NOT_ENROLLED", actor: null },
    );
  });
});
