// Two-factor (TOTP with a moved clock, replay refusal, recovery codes single use, the Business setting),
// password reset, and the sign-in throttle without enumeration.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, registerBusiness } from "../helpers/factories.js";
import {
  REGISTRATION_PASSWORD,
  resetTokenFor,
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
  t = await buildTestApp({ env: { SIGN_IN_FAILURES_PER_ACCOUNT: "3", SIGN_IN_FAILURES_PER_ADDRESS: "8" } });
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
  const { secret, otpauth_uri, qr_code_svg } = started.json();
  expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
  expect(qr_code_svg).toMatch(/^<svg/);
  const confirmed = await t.app.inject({
    method: "POST",
    url: "/v1/session/two-factor/enrolment/confirmation",
    headers: sessionHeaders(s, null),
    payload: { code: totpCode(secret, t.clock.now()) },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, recoveryCodes: confirmed.json().recovery_codes, session: signedInFrom(confirmed) };
}

/**
 * A six-digit code the service refuses at `at`: not the code of that 30-second window, nor of the one before or
 * after (the service accepts those too, for clock drift). A fixed wrong code such as "000000" would be one of
 * the three now and then (about one run in 300,000).
 */
function wrongTotpCode(secret: string, at: Date): string {
  const valid = [-30_000, 0, 30_000].map((offset) => totpCode(secret, new Date(at.getTime() + offset)));
  const wrong = ["000000", "111111", "222222", "333333"].find((code) => !valid.includes(code));
  if (wrong === undefined) throw new Error("unreachable: three valid codes cannot cover four candidates");
  return wrong;
}

const secondFactor = (s: SignedIn, payload: Record<string, string>) =>
  t.app.inject({ method: "POST", url: "/v1/session/two-factor", headers: sessionHeaders(s, null), payload });

describe("two-factor authentication", () => {
  it("enrolment yields ten recovery codes; sign-in then owes a code, refuses a replayed one, and accepts the next window's", async () => {
    const business = await registerBusiness(t.app, "TOTP Co");
    const first = await signIn(t.app, business.email);
    const { secret, recoveryCodes } = await enrol(first);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    t.clock.advance(60_000);
    const pending = await signIn(t.app, business.email);
    expect(pending.body.session.next_step).toBe("two_factor");
    expectErrorEnvelope(await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: sessionHeaders(pending) }), {
      status: 401,
      code: "TWO_FACTOR_REQUIRED",
      actor: null,
    });
    expectErrorEnvelope(await secondFactor(pending, { code: wrongTotpCode(secret, t.clock.now()) }), {
      status: 401,
      code: "INVALID_TWO_FACTOR_CODE",
      actor: null,
    });
    const code = totpCode(secret, t.clock.now());
    const done = await secondFactor(pending, { code });
    expect(done.statusCode, done.body).toBe(200);
    const ready = signedInFrom(done);
    expect(ready.secret).not.toBe(pending.secret);
    expect((await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: sessionHeaders(ready) })).statusCode).toBe(200);

    // The same code again, within its window, on another sign-in: refused (replay).
    const again = await signIn(t.app, business.email);
    expectErrorEnvelope(await secondFactor(again, { code }), { status: 401, code: "INVALID_TWO_FACTOR_CODE", actor: null });
    // A code of two windows ago is refused; the current window's code is accepted.
    t.clock.advance(90_000);
    expectErrorEnvelope(await secondFactor(again, { code }), { status: 401, code: "INVALID_TWO_FACTOR_CODE", actor: null });
    // Three wrong codes (this app allows 3 failures per account): even the right code now waits, so six
    // digits cannot be guessed; once the window has passed, the current code is accepted.
    const throttled = await secondFactor(again, { code: totpCode(secret, t.clock.now()) });
    expectErrorEnvelope(throttled, { status: 429, code: "SIGN_IN_THROTTLED", actor: null });
    t.clock.advance(15 * 60_000);
    expect((await secondFactor(again, { code: totpCode(secret, t.clock.now()) })).statusCode).toBe(200);
  });

  it("a recovery code works once", async () => {
    const business = await registerBusiness(t.app, "Recovery Co");
    const { recoveryCodes } = await enrol(await signIn(t.app, business.email));
    const code = recoveryCodes[0] ?? "";
    const a = await signIn(t.app, business.email);
    expect((await secondFactor(a, { recovery_code: code })).statusCode).toBe(200);
    const b = await signIn(t.app, business.email);
    expectErrorEnvelope(await secondFactor(b, { recovery_code: code }), {
      status: 401,
      code: "INVALID_TWO_FACTOR_CODE",
      actor: null,
    });
    expect((await secondFactor(b, { recovery_code: (recoveryCodes[1] ?? "").toUpperCase() })).statusCode).toBe(200);
  });

  it("a Business that requires two-factor sends members without it to enrolment first; the member list shows who has it", async () => {
    const business = await registerBusiness(t.app, "Strict Co");
    const s = await signIn(t.app, business.email);
    const set = await t.app.inject({
      method: "PUT",
      url: "/v1/security-settings",
      headers: sessionHeaders(s),
      payload: { require_two_factor: true },
    });
    expect(set.statusCode, set.body).toBe(200);
    const next = await signIn(t.app, business.email);
    expect(next.body.session.next_step).toBe("two_factor_enrolment");
    expect((await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: sessionHeaders(next) })).statusCode).toBe(401);
    const { session } = await enrol(next);
    expect((await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: sessionHeaders(session) })).statusCode).toBe(200);
    const members = await t.app.inject({ method: "GET", url: "/v1/members", headers: bearer(business.keys.sandbox) });
    expect(members.json().members[0].two_factor_enabled).toBe(true);
  });

  it("step-up accepts a TOTP code instead of the password", async () => {
    const business = await registerBusiness(t.app, "Step Co");
    const { secret, session } = await enrol(await signIn(t.app, business.email));
    t.clock.advance(10 * 60_000);
    const confirm = await t.app.inject({
      method: "POST",
      url: "/v1/session/confirmation",
      headers: sessionHeaders(session, null),
      payload: { code: totpCode(secret, t.clock.now()) },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
  });
});

describe("password reset", () => {
  it("answers 202 for any address; the token works once, within an hour, ends every session, and the new password signs in", async () => {
    const business = await registerBusiness(t.app, "Reset Co");
    const s = await signIn(t.app, business.email);
    for (const email of [business.email, "nobody-at-all@example.com"]) {
      const asked = await t.app.inject({ method: "POST", url: "/v1/password-resets", payload: { email } });
      expect(asked.statusCode).toBe(202);
    }
    expect(await resetTokenFor(t.app, "nobody-at-all@example.com")).toBeNull();
    const token = (await resetTokenFor(t.app, business.email)) ?? "";
    const weak = await t.app.inject({
      method: "POST",
      url: "/v1/password-resets/confirmation",
      payload: { token, password: "qwertyuiop12" },
    });
    expectErrorEnvelope(weak, { status: 422, code: "WEAK_PASSWORD", actor: null, details: true });
    const done = await t.app.inject({
      method: "POST",
      url: "/v1/password-resets/confirmation",
      payload: { token, password: STRONG_PASSWORD },
    });
    expect(done.statusCode, done.body).toBe(204);
    expect((await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: sessionHeaders(s) })).statusCode).toBe(401);
    const reused = await t.app.inject({
      method: "POST",
      url: "/v1/password-resets/confirmation",
      payload: { token, password: STRONG_PASSWORD },
    });
    expectErrorEnvelope(reused, { status: 410, code: "PASSWORD_RESET_INVALID", actor: null });
    expect((await signIn(t.app, business.email, STRONG_PASSWORD)).body.user.id).toBe(business.userId);

    await t.app.inject({ method: "POST", url: "/v1/password-resets", payload: { email: business.email } });
    const late = (await resetTokenFor(t.app, business.email)) ?? "";
    t.clock.advance(61 * 60_000);
    const expired = await t.app.inject({
      method: "POST",
      url: "/v1/password-resets/confirmation",
      payload: { token: late, password: STRONG_PASSWORD },
    });
    expectErrorEnvelope(expired, { status: 410, code: "PASSWORD_RESET_INVALID", actor: null });
  });
});

describe("sign-in throttling", () => {
  const attempt = (email: string, password: string, address = "203.0.113.7") =>
    t.app.inject({ method: "POST", url: "/v1/session", remoteAddress: address, payload: { email, password } });

  it("per account: past the limit even the right password is refused with 429 and Retry-After, until the window frees", async () => {
    const business = await registerBusiness(t.app, "Throttle Co");
    for (let i = 0; i < 3; i++) expect((await attempt(business.email, "wrong password here")).statusCode).toBe(401);
    const throttled = await attempt(business.email, REGISTRATION_PASSWORD, "198.51.100.9");
    expectErrorEnvelope(throttled, { status: 429, code: "SIGN_IN_THROTTLED", actor: null });
    const retryAfter = Number(throttled.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    t.clock.advance(retryAfter * 1000);
    expect((await attempt(business.email, REGISTRATION_PASSWORD)).statusCode).toBe(201);
  });

  it("an unknown address is throttled exactly like a known one (no enumeration)", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 4; i++)
      answers.push((await attempt("ghost-user@example.com", "wrong password here", "192.0.2.44")).statusCode);
    expect(answers).toEqual([401, 401, 401, 429]);
  });

  it("per client address: many accounts from one address are throttled too", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 9; i++)
      answers.push((await attempt(`spray-${i}@example.com`, "wrong password here", "192.0.2.99")).statusCode);
    expect(answers.slice(0, 8).every((status) => status === 401)).toBe(true);
    expect(answers[8]).toBe(429);
  });
});
