// "My sessions": a person lists their live sessions in every Business they belong to (never anyone else's)
// and ends one of them, e.g. a laptop left signed in at the office. The ended session's cookie is refused at
// once; someone else's session, an unknown, ended or expired one answer the same 404; an API key is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import {
  addMember,
  invitationTokenFor,
  REGISTRATION_PASSWORD,
  type SignedIn,
  STRONG_PASSWORD,
  sessionCookieOf,
  sessionHeaders,
  signedInFrom,
} from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";

const CHROME_ON_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";

interface MySession {
  id: string;
  business_id: string;
  business_name: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  device: string;
  client_address: string | null;
  current: boolean;
}

let t: TestApp;

beforeAll(async () => {
  // Idle 30 minutes, absolute lifetime 12 hours: the list's `expires_at` is whichever comes first.
  t = await buildTestApp({ env: { SESSION_IDLE_MINUTES: "30", SESSION_ABSOLUTE_HOURS: "12" } });
});
afterAll(async () => {
  await t?.close();
});

async function signInFrom(
  email: string,
  from: { agent: string; address: string },
  password = REGISTRATION_PASSWORD,
  extra: Record<string, unknown> = {},
): Promise<SignedIn> {
  const response = await t.app.inject({
    method: "POST",
    url: "/v1/session",
    remoteAddress: from.address,
    headers: { "user-agent": from.agent },
    payload: { email, password, ...extra },
  });
  expect(response.statusCode, response.body).toBe(201);
  return signedInFrom(response);
}

const list = (s: SignedIn) => t.app.inject({ method: "GET", url: "/v1/session/sessions", headers: sessionHeaders(s, null) });

async function mySessions(s: SignedIn): Promise<MySession[]> {
  const response = await list(s);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().sessions;
}

const end = (s: SignedIn, id: string) =>
  t.app.inject({ method: "DELETE", url: `/v1/session/sessions/${id}`, headers: sessionHeaders(s, null) });

const getSession = (s: SignedIn) => t.app.inject({ method: "GET", url: "/v1/session", headers: sessionHeaders(s, null) });

async function auditOf(business: RegisteredBusiness, action: string) {
  const response = await t.app.inject({
    method: "GET",
    url: `/v1/audit-records?action=${action}`,
    headers: bearer(business.keys.sandbox),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().audit_records as {
    actor: Record<string, unknown>;
    subject: unknown;
    details: Record<string, unknown>;
  }[];
}

describe("listing my sessions", () => {
  it("lists the person's live sessions in all their Businesses, newest first, with device, address and the current one marked; nobody else's", async () => {
    const owner = await registerBusiness(t.app, "Contoso Payroll");
    const office = await signInFrom(owner.email, { agent: CHROME_ON_MAC, address: "203.0.113.7" });
    t.clock.advance(60_000);
    const home = await signInFrom(owner.email, { agent: FIREFOX_ON_WINDOWS, address: "198.51.100.23" });

    // Another member of the same Business, and the owner of another Business, are signed in too.
    const colleague = await addMember(t.app, owner.keys.sandbox, "business_read_only");
    const colleagueSession = await signInFrom(colleague.email, { agent: CHROME_ON_MAC, address: "203.0.113.8" }, STRONG_PASSWORD);
    const stranger = await registerBusiness(t.app, "Fabrikam");
    const strangerSession = await signInFrom(stranger.email, { agent: CHROME_ON_MAC, address: "203.0.113.9" });

    // The owner also belongs to a second Business and is signed in there from a third device.
    const second = await registerBusiness(t.app, "Litware Logistics");
    const invited = await t.app.inject({
      method: "POST",
      url: "/v1/invitations",
      headers: bearer(second.keys.sandbox),
      payload: { email: owner.email, role: "business_approver" },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const accepted = await t.app.inject({
      method: "POST",
      url: "/v1/invitations/acceptance",
      payload: { token: await invitationTokenFor(t.app, owner.email) },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    t.clock.advance(60_000);
    const phone = await signInFrom(owner.email, { agent: "curl/8.5.0", address: "192.0.2.44" }, REGISTRATION_PASSWORD, {
      business_id: second.businessId,
    });

    const response = await list(home);
    expect(response.statusCode, response.body).toBe(200);
    const sessions: MySession[] = response.json().sessions;
    expect(sessions.map((s) => s.id)).toEqual([phone.body.session.id, home.body.session.id, office.body.session.id]);
    expect(sessions[0]).toMatchObject({
      business_id: second.businessId,
      business_name: "Litware Logistics",
      device: "curl",
      client_address: "192.0.2.44",
      current: false,
    });
    expect(sessions[1]).toMatchObject({
      business_id: owner.businessId,
      business_name: "Contoso Payroll",
      device: "Firefox on Windows",
      client_address: "198.51.100.23",
      current: true,
    });
    expect(sessions[2]).toMatchObject({ device: "Chrome on macOS", client_address: "203.0.113.7", current: false });
    // Idle timeout (30 min from the last request) comes before the 12-hour lifetime.
    const officeListed = sessions[2] as MySession;
    expect(Date.parse(officeListed.expires_at) - Date.parse(officeListed.last_seen_at)).toBe(30 * 60_000);
    expect(officeListed.created_at).toBe(office.body.session.created_at);

    // Nothing of the secret or its hash, nor the raw User-Agent, is answered.
    expect(Object.keys(sessions[0] ?? {}).sort()).toEqual(
      [
        "business_id",
        "business_name",
        "client_address",
        "created_at",
        "current",
        "device",
        "expires_at",
        "id",
        "last_seen_at",
      ].sort(),
    );
    for (const s of [office, home, phone]) expect(response.body).not.toContain(s.secret);
    expect(response.body).not.toContain("AppleWebKit");
    // Other people's sessions never appear, whoever's list it is.
    expect(response.body).not.toContain(colleagueSession.body.session.id);
    expect(response.body).not.toContain(strangerSession.body.session.id);
    expect((await mySessions(colleagueSession)).map((s) => s.id)).toEqual([colleagueSession.body.session.id]);
    expect((await mySessions(strangerSession)).map((s) => [s.id, s.current])).toEqual([[strangerSession.body.session.id, true]]);
    // The same list from the other Business's session, which is the current one there.
    expect((await mySessions(phone)).filter((s) => s.current).map((s) => s.id)).toEqual([phone.body.session.id]);
  });

  it("leaves out sessions that were signed out, and ones past their idle timeout that nobody has ended yet", async () => {
    const owner = await registerBusiness(t.app, "Ended Co");
    const signedOut = await signInFrom(owner.email, { agent: CHROME_ON_MAC, address: "203.0.113.10" });
    const forgotten = await signInFrom(owner.email, { agent: CHROME_ON_MAC, address: "203.0.113.11" });
    const active = await signInFrom(owner.email, { agent: FIREFOX_ON_WINDOWS, address: "203.0.113.12" });
    expect((await mySessions(active)).map((s) => s.id).sort()).toEqual(
      [signedOut.body.session.id, forgotten.body.session.id, active.body.session.id].sort(),
    );

    const out = await t.app.inject({ method: "DELETE", url: "/v1/session", headers: sessionHeaders(signedOut, null) });
    expect(out.statusCode).toBe(204);
    // `forgotten` passes its 30-minute idle timeout; `active` keeps being used. No sweep runs.
    for (let step = 0; step < 2; step++) {
      t.clock.advance(16 * 60_000);
      expect((await getSession(active)).statusCode).toBe(200);
    }
    expect((await mySessions(active)).map((s) => s.id)).toEqual([active.body.session.id]);
    // Ending an expired one is the same 404 as an unknown one.
    expectErrorEnvelope(await end(active, forgotten.body.session.id), { status: 404, code: "not_found", actor: null });
    expectErrorEnvelope(await end(active, signedOut.body.session.id), { status: 404, code: "not_found", actor: null });
  });

  it("switching Business keeps the device and address of the sign-in on the new session", async () => {
    const owner = await registerBusiness(t.app, "Switch Origin Co");
    const other = await registerBusiness(t.app, "Switch Target Co");
    await t.app.inject({
      method: "POST",
      url: "/v1/invitations",
      headers: bearer(other.keys.sandbox),
      payload: { email: owner.email, role: "business_read_only" },
    });
    const accepted = await t.app.inject({
      method: "POST",
      url: "/v1/invitations/acceptance",
      payload: { token: await invitationTokenFor(t.app, owner.email) },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const s = await signInFrom(owner.email, { agent: CHROME_ON_MAC, address: "203.0.113.20" });
    const switched = await t.app.inject({
      method: "POST",
      url: "/v1/session/business",
      remoteAddress: "198.51.100.99",
      headers: { ...sessionHeaders(s, null), "user-agent": "something-else/1.0" },
      payload: { business_id: other.businessId },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const after = signedInFrom(switched);
    expect(await mySessions(after)).toEqual([
      expect.objectContaining({
        id: after.body.session.id,
        business_name: "Switch Target Co",
        device: "Chrome on macOS",
        client_address: "203.0.113.20",
        current: true,
      }),
    ]);
  });
});

describe("ending one of my sessions", () => {
  it("ends another of my sessions: its cookie gets 401 at once, mine goes on, and the act is audited", async () => {
    const owner = await registerBusiness(t.app, "End Other Co");
    const laptop = await signInFrom(owner.email, { agent: CHROME_ON_MAC, address: "203.0.113.30" });
    const phone = await signInFrom(owner.email, { agent: FIREFOX_ON_WINDOWS, address: "203.0.113.31" });
    expect((await getSession(laptop)).statusCode).toBe(200);

    const ended = await end(phone, laptop.body.session.id);
    expect(ended.statusCode, ended.body).toBe(204);
    // The caller's cookie is not touched.
    expect(sessionCookieOf(ended)).toBeNull();
    expectErrorEnvelope(await getSession(laptop), { status: 401, code: "SESSION_EXPIRED", actor: null });
    expect((await getSession(phone)).statusCode).toBe(200);
    expect((await mySessions(phone)).map((s) => s.id)).toEqual([phone.body.session.id]);
    // Ending it again: 404, the same as an unknown id.
    expectErrorEnvelope(await end(phone, laptop.body.session.id), { status: 404, code: "not_found", actor: null });

    const records = await auditOf(owner, "session_ended");
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actor: { user_id: owner.userId, membership_id: owner.membershipId, session_id: phone.body.session.id },
      subject: { type: "session", id: laptop.body.session.id },
      details: { ended_from_business_id: owner.businessId, device: "Chrome on macOS" },
    });
  });

  it("ending the current session signs out: the cookie is cleared and refused afterwards", async () => {
    const owner = await registerBusiness(t.app, "End Current Co");
    const s = await signInFrom(owner.email, { agent: CHROME_ON_MAC, address: "203.0.113.40" });
    const other = await signInFrom(owner.email, { agent: CHROME_ON_MAC, address: "203.0.113.41" });
    const ended = await end(s, s.body.session.id);
    expect(ended.statusCode, ended.body).toBe(204);
    expect(sessionCookieOf(ended)?.value).toBe("");
    expectErrorEnvelope(await getSession(s), { status: 401, code: "SESSION_EXPIRED", actor: null });
    expect((await getSession(other)).statusCode).toBe(200);
    const records = await auditOf(owner, "signed_out");
    expect(records.map((r) => r.subject)).toEqual([{ type: "session", id: s.body.session.id }]);
  });

  it("someone else's session, in my Business or another, and an unknown id are 404 and stay signed in", async () => {
    const owner = await registerBusiness(t.app, "Not Yours Co");
    const mine = await signInFrom(owner.email, { agent: CHROME_ON_MAC, address: "203.0.113.50" });
    const colleague = await addMember(t.app, owner.keys.sandbox, "business_admin");
    const colleagueSession = await signInFrom(
      colleague.email,
      { agent: CHROME_ON_MAC, address: "203.0.113.51" },
      STRONG_PASSWORD,
    );
    const stranger = await registerBusiness(t.app, "Someone Else Co");
    const strangerSession = await signInFrom(stranger.email, { agent: CHROME_ON_MAC, address: "203.0.113.52" });

    const answers = [
      await end(mine, colleagueSession.body.session.id),
      await end(mine, strangerSession.body.session.id),
      await end(mine, "01900000-0000-7000-8000-000000000000"),
    ];
    for (const answer of answers) expectErrorEnvelope(answer, { status: 404, code: "not_found", actor: null });
    // The same answer whether the session exists or not: nothing to tell them apart.
    expect(new Set(answers.map((a) => a.json().error.message)).size).toBe(1);
    expect((await getSession(colleagueSession)).statusCode).toBe(200);
    expect((await getSession(strangerSession)).statusCode).toBe(200);
    expect(await auditOf(owner, "session_ended")).toEqual([]);

    expectErrorEnvelope(await end(mine, "not-a-uuid"), { status: 400, code: "bad_request", actor: null, details: true });
  });
});

describe("a session that still owes a second factor", () => {
  it("can neither list nor end sessions: the password alone tells nothing about the person's devices", async () => {
    const owner = await registerBusiness(t.app, "Owes Enrolment Co");
    const laptop = await signInFrom(owner.email, { agent: CHROME_ON_MAC, address: "203.0.113.70" });
    const required = await t.app.inject({
      method: "PUT",
      url: "/v1/security-settings",
      headers: bearer(owner.keys.sandbox),
      payload: { require_two_factor: true },
    });
    expect(required.statusCode, required.body).toBe(200);
    const owing = await signInFrom(owner.email, { agent: FIREFOX_ON_WINDOWS, address: "203.0.113.71" });
    expect(owing.body.session.next_step).toBe("two_factor_enrolment");
    expectErrorEnvelope(await list(owing), { status: 401, code: "TWO_FACTOR_REQUIRED", actor: null });
    expectErrorEnvelope(await end(owing, laptop.body.session.id), { status: 401, code: "TWO_FACTOR_REQUIRED", actor: null });
  });
});

describe("an API key", () => {
  it("is refused with 401 SESSION_REQUIRED: an API key has no person and no sessions", async () => {
    const owner = await registerBusiness(t.app, "Key Caller Co");
    const s = await signInFrom(owner.email, { agent: CHROME_ON_MAC, address: "203.0.113.60" });
    const listed = await t.app.inject({ method: "GET", url: "/v1/session/sessions", headers: bearer(owner.keys.sandbox) });
    expectErrorEnvelope(listed, { status: 401, code: "SESSION_REQUIRED", actor: null });
    const ended = await t.app.inject({
      method: "DELETE",
      url: `/v1/session/sessions/${s.body.session.id}`,
      headers: bearer(owner.keys.sandbox),
    });
    expectErrorEnvelope(ended, { status: 401, code: "SESSION_REQUIRED", actor: null });
    expect((await getSession(s)).statusCode).toBe(200);
  });
});
