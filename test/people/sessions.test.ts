// The session security matrix: cookie flags over HTTP and HTTPS, fixation, idle and absolute expiry by
// moving the clock, revocation on sign-out, everywhere and password change, CSRF and cross-site refusal,
// the environment header, step-up, and the envelope's actor for a session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import {
  REGISTRATION_PASSWORD,
  type SignedIn,
  STRONG_PASSWORD,
  sessionCookieOf,
  sessionHeaders,
  signedInFrom,
  signIn,
} from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";

let t: TestApp;
let owner: RegisteredBusiness;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await registerBusiness(t.app, "Session Co");
});
afterAll(async () => {
  await t?.close();
});

const get = (s: SignedIn, url: string, environment: "sandbox" | "production" | null = "sandbox") =>
  t.app.inject({ method: "GET", url, headers: sessionHeaders(s, environment) });

describe("sign-in", () => {
  it("sets an HttpOnly, SameSite=Lax session cookie named `session` over plain HTTP, and answers the person and the CSRF token", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/v1/session",
      payload: { email: owner.email, password: REGISTRATION_PASSWORD },
    });
    expect(response.statusCode).toBe(201);
    const cookie = sessionCookieOf(response);
    expect(cookie?.name).toBe("session");
    expect(cookie?.raw).toMatch(/HttpOnly/i);
    expect(cookie?.raw).toMatch(/SameSite=Lax/i);
    expect(cookie?.raw).toMatch(/Path=\//);
    expect(cookie?.raw).not.toMatch(/Secure/i);
    const body = response.json();
    expect(body.user).toEqual({ id: owner.userId, email: owner.email, two_factor_enabled: false });
    expect(body.membership).toMatchObject({ id: owner.membershipId, business_id: owner.businessId, role: "business_admin" });
    expect(body.csrf_token).toMatch(/^[0-9a-f]{64}$/);
    expect(body.session.next_step).toBeNull();
    // The secret is not in the body, and only its hash is stored.
    expect(response.body).not.toContain(cookie?.value ?? "-");
    const stored = await t.runtime.deps.database.db.execute(
      // biome-ignore lint/suspicious/noExplicitAny: raw row check
      (await import("drizzle-orm")).sql`select token_hash from sessions where id = ${body.session.id}` as any,
    );
    expect(JSON.stringify(stored)).not.toContain(cookie?.value ?? "-");
  });

  it("a wrong password and an unknown address get the same 401 INVALID_CREDENTIALS", async () => {
    const wrong = await t.app.inject({
      method: "POST",
      url: "/v1/session",
      payload: { email: owner.email, password: "not the password at all" },
    });
    const unknown = await t.app.inject({
      method: "POST",
      url: "/v1/session",
      payload: { email: "nobody-here@example.com", password: "not the password at all" },
    });
    for (const response of [wrong, unknown]) {
      expectErrorEnvelope(response, { status: 401, code: "INVALID_CREDENTIALS", actor: null });
      expect(sessionCookieOf(response)).toBeNull();
    }
    expect(wrong.json().error.message).toBe(unknown.json().error.message);
  });

  it("refuses a cross-site sign-in (login CSRF)", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/v1/session",
      headers: { "sec-fetch-site": "cross-site" },
      payload: { email: owner.email, password: REGISTRATION_PASSWORD },
    });
    expectErrorEnvelope(response, { status: 403, code: "CROSS_SITE_REQUEST", actor: null });
  });

  it("issues a new session id at every sign-in, and a cookie value the service did not issue is refused (fixation)", async () => {
    const first = await signIn(t.app, owner.email);
    const second = await signIn(t.app, owner.email);
    expect(first.secret).not.toBe(second.secret);
    expect(first.body.session.id).not.toBe(second.body.session.id);
    const planted = { ...first, secret: "A".repeat(43) };
    expectErrorEnvelope(await get(planted, "/v1/api-keys"), { status: 401, code: "SESSION_EXPIRED", actor: null });
  });
});

describe("the /v1 API with a session", () => {
  it("serves a read in the environment the request names; the actor carries the person", async () => {
    const s = await signIn(t.app, owner.email);
    const sandbox = await get(s, "/v1/api-keys", "sandbox");
    expect(sandbox.statusCode).toBe(200);
    expect(sandbox.json().api_keys.map((k: { id: string }) => k.id)).toEqual([owner.keyIds.sandbox]);
    const production = await get(s, "/v1/api-keys", "production");
    expect(production.json().api_keys.map((k: { id: string }) => k.id)).toEqual([owner.keyIds.production]);
    const missing = await get(s, "/v1/beneficiaries/01900000-0000-7000-8000-000000000000", "production");
    expectErrorEnvelope(missing, {
      status: 404,
      code: "not_found",
      actor: { user_id: owner.userId, membership_id: owner.membershipId, role: "business_admin", environment: "production" },
    });
  });

  it("a session request without X-Environment, or with an unknown one, is 400 ENVIRONMENT_REQUIRED", async () => {
    const s = await signIn(t.app, owner.email);
    expectErrorEnvelope(await get(s, "/v1/api-keys", null), { status: 400, code: "ENVIRONMENT_REQUIRED", actor: null });
    const unknown = await t.app.inject({
      method: "GET",
      url: "/v1/api-keys",
      headers: { ...sessionHeaders(s), "x-environment": "staging" },
    });
    expectErrorEnvelope(unknown, { status: 400, code: "ENVIRONMENT_REQUIRED", actor: null });
  });

  it("an unsafe request needs the session's CSRF token, and a cross-site one is refused; nothing is written", async () => {
    const s = await signIn(t.app, owner.email);
    const payload = { beneficiary_type: "person", name: "Ada Lovelace", email: "ada-csrf@example.com" };
    const noToken = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries",
      headers: { cookie: `${s.cookieName}=${s.secret}`, "x-environment": "sandbox" },
      payload,
    });
    expectErrorEnvelope(noToken, { status: 403, code: "CSRF_TOKEN_INVALID", actor: null });
    const other = await signIn(t.app, owner.email);
    const wrongToken = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries",
      headers: { ...sessionHeaders(s), "x-csrf-token": other.csrf },
      payload,
    });
    expectErrorEnvelope(wrongToken, { status: 403, code: "CSRF_TOKEN_INVALID", actor: null });
    for (const site of ["cross-site", "same-site"]) {
      const crossSite = await t.app.inject({
        method: "POST",
        url: "/v1/beneficiaries",
        headers: { ...sessionHeaders(s), "sec-fetch-site": site },
        payload,
      });
      expectErrorEnvelope(crossSite, { status: 403, code: "CROSS_SITE_REQUEST", actor: null });
    }
    const list = await get(s, "/v1/beneficiaries");
    expect(list.json().beneficiaries).toEqual([]);
    const created = await t.app.inject({ method: "POST", url: "/v1/beneficiaries", headers: sessionHeaders(s), payload });
    expect(created.statusCode, created.body).toBe(201);
  });

  it("an API key is refused on a person's own session routes (401 SESSION_REQUIRED)", async () => {
    const response = await t.app.inject({ method: "GET", url: "/v1/session", headers: bearer(owner.keys.sandbox) });
    expectErrorEnvelope(response, { status: 401, code: "SESSION_REQUIRED", actor: null });
  });

  it("sensitive acts need a confirmation within 5 minutes (step-up); a confirmation renews the session id", async () => {
    const s = await signIn(t.app, owner.email);
    t.clock.advance(6 * 60_000);
    const refused = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: sessionHeaders(s),
      payload: { role: "business_read_only" },
    });
    expectErrorEnvelope(refused, {
      status: 401,
      code: "STEP_UP_REQUIRED",
      actor: { user_id: owner.userId, membership_id: owner.membershipId, role: "business_admin", environment: "sandbox" },
    });
    const wrong = await t.app.inject({
      method: "POST",
      url: "/v1/session/confirmation",
      headers: sessionHeaders(s, null),
      payload: { password: "not my password" },
    });
    expectErrorEnvelope(wrong, { status: 401, code: "INVALID_PASSWORD", actor: null });
    const confirmed = await t.app.inject({
      method: "POST",
      url: "/v1/session/confirmation",
      headers: sessionHeaders(s, null),
      payload: { password: REGISTRATION_PASSWORD },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const renewed = signedInFrom(confirmed);
    expect(renewed.secret).not.toBe(s.secret);
    expectErrorEnvelope(await get(s, "/v1/api-keys"), { status: 401, code: "SESSION_EXPIRED", actor: null });
    const created = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: sessionHeaders(renewed),
      payload: { role: "business_read_only" },
    });
    expect(created.statusCode, created.body).toBe(201);
    // The key belongs to the session's membership.
    expect(created.json().membership_id).toBe(owner.membershipId);
  });
});

describe("the end of a session", () => {
  it("idle timeout: a request within 30 minutes keeps it alive; 30 minutes without one ends it", async () => {
    const s = await signIn(t.app, owner.email);
    t.clock.advance(29 * 60_000);
    expect((await get(s, "/v1/api-keys")).statusCode).toBe(200);
    t.clock.advance(29 * 60_000);
    expect((await get(s, "/v1/api-keys")).statusCode).toBe(200);
    t.clock.advance(30 * 60_000);
    expectErrorEnvelope(await get(s, "/v1/api-keys"), { status: 401, code: "SESSION_EXPIRED", actor: null });
  });

  it("absolute lifetime: 12 hours after sign-in the session ends however active it was", async () => {
    const s = await signIn(t.app, owner.email);
    for (let elapsed = 0; elapsed < 11 * 60 + 40; elapsed += 20) {
      t.clock.advance(20 * 60_000);
      expect((await get(s, "/v1/api-keys")).statusCode).toBe(200);
    }
    t.clock.advance(20 * 60_000);
    expectErrorEnvelope(await get(s, "/v1/api-keys"), { status: 401, code: "SESSION_EXPIRED", actor: null });
  });

  it("sign-out ends this session only and clears the cookie", async () => {
    const a = await signIn(t.app, owner.email);
    const b = await signIn(t.app, owner.email);
    const out = await t.app.inject({ method: "DELETE", url: "/v1/session", headers: sessionHeaders(a, null) });
    expect(out.statusCode).toBe(204);
    expect(sessionCookieOf(out)?.raw).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expectErrorEnvelope(await get(a, "/v1/api-keys"), { status: 401, code: "SESSION_EXPIRED", actor: null });
    expect((await get(b, "/v1/api-keys")).statusCode).toBe(200);
  });

  it("sign out everywhere ends every session of the person", async () => {
    const a = await signIn(t.app, owner.email);
    const b = await signIn(t.app, owner.email);
    const out = await t.app.inject({ method: "POST", url: "/v1/session/sign-out-everywhere", headers: sessionHeaders(a, null) });
    expect(out.statusCode).toBe(200);
    expect(out.json().sessions_ended).toBeGreaterThanOrEqual(2);
    for (const s of [a, b])
      expectErrorEnvelope(await get(s, "/v1/api-keys"), { status: 401, code: "SESSION_EXPIRED", actor: null });
  });

  it("a password change ends every other session; this one continues under a new id; a weak password is refused", async () => {
    const business = await registerBusiness(t.app, "Password Co");
    const a = await signIn(t.app, business.email);
    const b = await signIn(t.app, business.email);
    const weak = await t.app.inject({
      method: "PUT",
      url: "/v1/session/password",
      headers: sessionHeaders(a, null),
      payload: { current_password: REGISTRATION_PASSWORD, new_password: "password1234" },
    });
    expectErrorEnvelope(weak, { status: 422, code: "WEAK_PASSWORD", actor: null, details: true });
    const changed = await t.app.inject({
      method: "PUT",
      url: "/v1/session/password",
      headers: sessionHeaders(a, null),
      payload: { current_password: REGISTRATION_PASSWORD, new_password: STRONG_PASSWORD },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const renewed = signedInFrom(changed);
    expect((await get(renewed, "/v1/api-keys")).statusCode).toBe(200);
    for (const s of [a, b])
      expectErrorEnvelope(await get(s, "/v1/api-keys"), { status: 401, code: "SESSION_EXPIRED", actor: null });
    await expect(signIn(t.app, business.email)).rejects.toThrow(/401/);
    expect((await signIn(t.app, business.email, STRONG_PASSWORD)).body.user.id).toBe(business.userId);
  });
});

describe("cookie over HTTPS", () => {
  let https: TestApp;
  beforeAll(async () => {
    https = await buildTestApp({ env: { PUBLIC_BASE_URL: "https://payouts.example.com" } });
  });
  afterAll(async () => {
    await https?.close();
  });

  it("is `__Host-session`, Secure, HttpOnly, SameSite=Lax, Path=/ and without Domain, and authenticates under that name only", async () => {
    const business = await registerBusiness(https.app, "Secure Co");
    const response = await https.app.inject({
      method: "POST",
      url: "/v1/session",
      payload: { email: business.email, password: REGISTRATION_PASSWORD },
    });
    const cookie = sessionCookieOf(response);
    expect(cookie?.name).toBe("__Host-session");
    expect(cookie?.raw).toMatch(/; Secure/i);
    expect(cookie?.raw).toMatch(/HttpOnly/i);
    expect(cookie?.raw).toMatch(/Path=\//);
    expect(cookie?.raw).not.toMatch(/Domain=/i);
    const s = signedInFrom(response);
    expect((await https.app.inject({ method: "GET", url: "/v1/api-keys", headers: sessionHeaders(s) })).statusCode).toBe(200);
    const plainName = await https.app.inject({
      method: "GET",
      url: "/v1/api-keys",
      headers: { ...sessionHeaders(s), cookie: `session=${s.secret}` },
    });
    expect(plainName.statusCode).toBe(401);
  });
});
