// What proves a person (issue 24, item 1 and the step-up part of item 9): only what they already had (the
// password, an existing second factor, a recovery code). Enrolling a new factor is itself a step-up act and
// renews no confirmation, so a stolen session past its window cannot plant its own authenticator and come
// back confirmed; a password change renews nothing either; a person with two-factor steps up with the factor.
// Also: every /v1/session answer is `Cache-Control: no-store`, and asking for a password reset does the same
// work whether or not the address has an account.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import {
  addMember,
  answerPasswordResetRequests,
  REGISTRATION_PASSWORD,
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

const STEP_UP_WINDOW_MS = 5 * 60_000;

const startEnrolment = (s: SignedIn) =>
  t.app.inject({ method: "POST", url: "/v1/session/two-factor/enrolment", headers: sessionHeaders(s, null) });
const confirmEnrolment = (s: SignedIn, code: string) =>
  t.app.inject({
    method: "POST",
    url: "/v1/session/two-factor/enrolment/confirmation",
    headers: sessionHeaders(s, null),
    payload: { code },
  });
const confirm = (s: SignedIn, payload: Record<string, string>) =>
  t.app.inject({ method: "POST", url: "/v1/session/confirmation", headers: sessionHeaders(s, null), payload });
const createKey = (s: SignedIn) =>
  t.app.inject({
    method: "POST",
    url: "/v1/api-keys",
    headers: sessionHeaders(s),
    payload: { label: "planted", role: "business_admin" },
  });
/** A sensitive act of a Business route refused for want of a recent confirmation (the actor is the session's). */
function expectKeyRefused(response: Awaited<ReturnType<typeof createKey>>) {
  expect(response.statusCode, response.body).toBe(401);
  expect(response.json().error.code).toBe("STEP_UP_REQUIRED");
}
const getSession = (s: SignedIn) => t.app.inject({ method: "GET", url: "/v1/session", headers: sessionHeaders(s, null) });

async function auditActions(business: RegisteredBusiness, action: string) {
  const response = await t.app.inject({
    method: "GET",
    url: `/v1/audit-records?action=${action}`,
    headers: bearer(business.keys.sandbox),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().audit_records as { action: string; details: Record<string, unknown> }[];
}

/** Enrols the session's person (its confirmation must be recent) and answers the secret and the new session. */
async function enrol(s: SignedIn): Promise<{ secret: string; recoveryCodes: string[]; session: SignedIn }> {
  const started = await startEnrolment(s);
  expect(started.statusCode, started.body).toBe(200);
  const secret = started.json().secret as string;
  const confirmed = await confirmEnrolment(s, totpCode(secret, t.clock.now()));
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, recoveryCodes: confirmed.json().recovery_codes, session: signedInFrom(confirmed) };
}

describe("enrolling a second factor", () => {
  it("needs a recent confirmation: a session past its window cannot enrol its own authenticator and come back confirmed", async () => {
    const business = await registerBusiness(t.app, "Planted App Co");
    const stolen = await signIn(t.app, business.email);
    t.clock.advance(STEP_UP_WINDOW_MS + 60_000);
    expectKeyRefused(await createKey(stolen));

    // The attack of issue 24: enrol an authenticator of one's own, confirm it with its code, create a key.
    expectErrorEnvelope(await startEnrolment(stolen), { status: 401, code: "STEP_UP_REQUIRED", actor: null });
    expectErrorEnvelope(await confirmEnrolment(stolen, "123456"), { status: 401, code: "STEP_UP_REQUIRED", actor: null });
    expectKeyRefused(await createKey(stolen));
    const members = await t.app.inject({ method: "GET", url: "/v1/members", headers: bearer(business.keys.sandbox) });
    expect(members.json().members[0].two_factor_enabled).toBe(false);
    expect(await auditActions(business, "two_factor_enabled")).toEqual([]);
  });

  it("renews no confirmation: the window still runs from the last real proof, and only that proof is audited as one", async () => {
    const business = await registerBusiness(t.app, "Window Co");
    const first = await signIn(t.app, business.email);
    t.clock.advance(STEP_UP_WINDOW_MS + 60_000);
    const confirmed = await confirm(first, { password: REGISTRATION_PASSWORD });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const proven = signedInFrom(confirmed);
    const provenAt = proven.body.session.confirmed_at;
    expect(provenAt).toBe(t.clock.now().toISOString());

    t.clock.advance(4 * 60_000);
    const { session } = await enrol(proven);
    // A new session id (privilege change), but the confirmation is the password's, four minutes ago.
    expect(session.secret).not.toBe(proven.secret);
    expect(session.body.session.confirmed_at).toBe(provenAt);
    expect((await getSession(session)).json().session.confirmed_at).toBe(provenAt);
    // Two minutes later the password's confirmation is six minutes old: sensitive acts need a new one.
    t.clock.advance(2 * 60_000);
    expectKeyRefused(await createKey(session));

    expect(await auditActions(business, "session_confirmed")).toHaveLength(1);
    const [enabled] = await auditActions(business, "two_factor_enabled");
    expect(enabled?.action).toBe("two_factor_enabled");
  });

  it("a Business's required enrolment works right after sign-in, and a session restricted to it later confirms with the password first", async () => {
    const business = await registerBusiness(t.app, "Required Enrolment Co");
    const member = await addMember(t.app, business.keys.sandbox, "business_approver");
    const required = await t.app.inject({
      method: "PUT",
      url: "/v1/security-settings",
      headers: bearer(business.keys.sandbox),
      payload: { require_two_factor: true },
    });
    expect(required.statusCode, required.body).toBe(200);

    // A fresh sign-in is a fresh proof: the enrolment it owes needs nothing more.
    const fresh = await signIn(t.app, member.email, STRONG_PASSWORD);
    expect(fresh.body.session.next_step).toBe("two_factor_enrolment");
    const { session: enrolled } = await enrol(fresh);
    expect(enrolled.body.session.next_step).toBeNull();
    expect((await getSession(enrolled)).statusCode).toBe(200);

    // The session signed in before the requirement owes the enrolment with an old confirmation: it confirms
    // with the password (the one proof it has), still owes the enrolment after, and serves nothing else.
    const other = await registerBusiness(t.app, "Required Enrolment Two");
    const second = await addMember(t.app, other.keys.sandbox, "business_approver");
    const old = await signIn(t.app, second.email, STRONG_PASSWORD);
    t.clock.advance(STEP_UP_WINDOW_MS + 60_000);
    await t.app.inject({
      method: "PUT",
      url: "/v1/security-settings",
      headers: bearer(other.keys.sandbox),
      payload: { require_two_factor: true },
    });
    expect((await getSession(old)).json().session.next_step).toBe("two_factor_enrolment");
    expectErrorEnvelope(await startEnrolment(old), { status: 401, code: "STEP_UP_REQUIRED", actor: null });
    const reconfirmed = await confirm(old, { password: STRONG_PASSWORD });
    expect(reconfirmed.statusCode, reconfirmed.body).toBe(200);
    const restricted = signedInFrom(reconfirmed);
    expect(restricted.body.session.next_step).toBe("two_factor_enrolment");
    expectErrorEnvelope(await t.app.inject({ method: "GET", url: "/v1/members", headers: sessionHeaders(restricted) }), {
      status: 401,
      code: "TWO_FACTOR_REQUIRED",
      actor: null,
    });
    const { session: done } = await enrol(restricted);
    expect((await t.app.inject({ method: "GET", url: "/v1/members", headers: sessionHeaders(done) })).statusCode).toBe(200);
  });

  it("a session that owes a code cannot confirm instead (nor with the password)", async () => {
    const business = await registerBusiness(t.app, "Owes Code Co");
    const { secret } = await enrol(await signIn(t.app, business.email));
    t.clock.advance(60_000);
    const pending = await signIn(t.app, business.email);
    expect(pending.body.session.next_step).toBe("two_factor");
    expectErrorEnvelope(await confirm(pending, { code: totpCode(secret, t.clock.now()) }), {
      status: 401,
      code: "TWO_FACTOR_REQUIRED",
      actor: null,
    });
  });
});

describe("step-up proofs", () => {
  it("a person with two-factor confirms with a code or a recovery code; the password alone is refused before it is checked", async () => {
    const business = await registerBusiness(t.app, "Factor Step-Up Co");
    const { secret, recoveryCodes, session } = await enrol(await signIn(t.app, business.email));
    t.clock.advance(STEP_UP_WINDOW_MS + 60_000);
    // Right and wrong passwords get the same refusal: nothing about the password is learned or counted.
    for (const password of [REGISTRATION_PASSWORD, "not-the-password-at-all"]) {
      const refused = await confirm(session, { password });
      expectErrorEnvelope(refused, { status: 422, code: "TWO_FACTOR_PROOF_REQUIRED", actor: null });
    }
    expectKeyRefused(await createKey(session));
    const byRecovery = await confirm(session, { recovery_code: recoveryCodes[0] ?? "" });
    expect(byRecovery.statusCode, byRecovery.body).toBe(200);
    expect((await createKey(signedInFrom(byRecovery))).statusCode).toBe(201);
    t.clock.advance(STEP_UP_WINDOW_MS + 60_000);
    const byCode = await confirm(signedInFrom(byRecovery), { code: totpCode(secret, t.clock.now()) });
    expect(byCode.statusCode, byCode.body).toBe(200);
    const methods = (await auditActions(business, "session_confirmed")).map((r) => r.details.method);
    expect(methods.sort()).toEqual(["recovery_code", "totp"]);
  });

  it("a password change is not a confirmation: the window still runs from the last proof", async () => {
    const business = await registerBusiness(t.app, "Password Change Co");
    const s = await signIn(t.app, business.email);
    const signedInAt = s.body.session.confirmed_at;
    t.clock.advance(STEP_UP_WINDOW_MS + 60_000);
    const changed = await t.app.inject({
      method: "PUT",
      url: "/v1/session/password",
      headers: sessionHeaders(s, null),
      payload: { current_password: REGISTRATION_PASSWORD, new_password: STRONG_PASSWORD },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = signedInFrom(changed);
    expect(after.body.session.confirmed_at).toBe(signedInAt);
    expectKeyRefused(await createKey(after));
  });
});

describe("session answers", () => {
  it("every /v1/session answer, success or error, is Cache-Control: no-store", async () => {
    const business = await registerBusiness(t.app, "No Store Co");
    const signedIn = await t.app.inject({
      method: "POST",
      url: "/v1/session",
      payload: { email: business.email, password: REGISTRATION_PASSWORD },
    });
    expect(signedIn.statusCode).toBe(201);
    const s = signedInFrom(signedIn);
    const wrong = await t.app.inject({
      method: "POST",
      url: "/v1/session",
      payload: { email: business.email, password: "wrong-password-here" },
    });
    const answers = [
      signedIn,
      wrong,
      await getSession(s),
      await t.app.inject({ method: "GET", url: "/v1/session" }),
      await t.app.inject({ method: "GET", url: "/v1/session/sessions", headers: sessionHeaders(s, null) }),
      await confirm(s, { password: REGISTRATION_PASSWORD }),
      await startEnrolment(s),
      await t.app.inject({ method: "DELETE", url: "/v1/session", headers: sessionHeaders(s, null) }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([201, 401, 200, 401, 200, 200, 401, 401]);
    for (const answer of answers) expect(answer.headers["cache-control"]).toBe("no-store");
  });
});

describe("asking for a password reset", () => {
  /** What a request left in the database: rows per table (jobs per type), so two requests can be compared. */
  async function footprint(): Promise<Record<string, number>> {
    const db = t.runtime.deps.database.db;
    const rows = await queryRows<{ what: string; n: number }>(
      db,
      sql`select 'jobs:' || type as what, count(*)::int as n from jobs group by type
          union all select 'password_resets', count(*)::int from password_resets
          union all select 'audit_records', count(*)::int from audit_records
          union all select 'emails', count(*)::int from emails`,
    );
    return Object.fromEntries(rows.map((row) => [row.what, row.n]));
  }
  function added(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return Object.fromEntries([...keys].map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)]).filter(([, n]) => n !== 0));
  }

  it("does the same work for a known and an unknown address: one queued request each, answered by the worker", async () => {
    const business = await registerBusiness(t.app, "Reset Work Co");
    await answerPasswordResetRequests(t.app);
    const ask = (email: string) => t.app.inject({ method: "POST", url: "/v1/password-resets", payload: { email } });

    const start = await footprint();
    const known = await ask(business.email);
    const afterKnown = await footprint();
    const unknown = await ask("nobody-here@example.com");
    const afterUnknown = await footprint();
    expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
    expect(known.body).toBe(unknown.body);
    // Each request wrote exactly the same thing: one request job, no token, no e-mail, no audit record.
    expect(added(start, afterKnown)).toEqual({ "jobs:people.password_reset_request": 1 });
    expect(added(afterKnown, afterUnknown)).toEqual({ "jobs:people.password_reset_request": 1 });

    // The worker answers: the known address gets its token and e-mail, the unknown one nothing.
    expect(await answerPasswordResetRequests(t.app)).toBe(2);
    const answered = added(afterUnknown, await footprint());
    expect(answered).toMatchObject({ password_resets: 1, "jobs:mail.send": 1 });
    const [requested] = await auditActions(business, "password_reset_requested");
    expect(requested?.action).toBe("password_reset_requested");
  });
});
