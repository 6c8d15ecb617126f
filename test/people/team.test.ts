// The team: invitations (single use, 7 days, hashed), members with role, 2FA state and last sign-in, role
// changes and removal (sessions end at once, keys stop), the last admin, switching Business, the approver
// role, and the audit log of these acts.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addMember, invitationTokenFor, STRONG_PASSWORD, sessionHeaders, signedInFrom, signIn } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";

let t: TestApp;
let owner: RegisteredBusiness;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await registerBusiness(t.app, "Team Co");
});
afterAll(async () => {
  await t?.close();
});

const invite = (email: string, role = "business_read_only", key = owner.keys.sandbox) =>
  t.app.inject({ method: "POST", url: "/v1/invitations", headers: bearer(key), payload: { email, role } });
const accept = (token: string, password?: string) =>
  t.app.inject({ method: "POST", url: "/v1/invitations/acceptance", payload: { token, ...(password ? { password } : {}) } });

describe("invitations", () => {
  it("e-mails a single-use token, stored only hashed; acceptance sets the password and the person signs in with the role", async () => {
    const email = "new-analyst@example.com";
    const created = await invite(email, "business_read_only");
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ email, role: "business_read_only" });
    const token = await invitationTokenFor(t.app, email);
    const rows = await t.runtime.deps.database.db.execute(sql`select * from invitations`);
    expect(JSON.stringify(rows)).not.toContain(token);

    const weak = await accept(token, "password12345");
    expectErrorEnvelope(weak, { status: 422, code: "WEAK_PASSWORD", actor: null, details: true });
    const noPassword = await accept(token);
    expectErrorEnvelope(noPassword, { status: 400, code: "validation_failed", actor: null, details: true });
    const accepted = await accept(token, STRONG_PASSWORD);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().membership).toMatchObject({ business_id: owner.businessId, role: "business_read_only" });
    expectErrorEnvelope(await accept(token, STRONG_PASSWORD), { status: 410, code: "INVITATION_INVALID", actor: null });

    const s = await signIn(t.app, email, STRONG_PASSWORD);
    expect(s.body.membership.role).toBe("business_read_only");
    const write = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries",
      headers: sessionHeaders(s),
      payload: { beneficiary_type: "person", name: "Jo", email: "jo@example.com" },
    });
    expect(write.statusCode).toBe(403);
  });

  it("an invitation expires after 7 days, and a revoked one cannot be accepted", async () => {
    await invite("late@example.com");
    const lateToken = await invitationTokenFor(t.app, "late@example.com");
    t.clock.advance(7 * 24 * 3_600_000 + 1000);
    expectErrorEnvelope(await accept(lateToken, STRONG_PASSWORD), { status: 410, code: "INVITATION_INVALID", actor: null });

    const revokedInvite = await invite("revoked@example.com");
    const token = await invitationTokenFor(t.app, "revoked@example.com");
    const listed = await t.app.inject({ method: "GET", url: "/v1/invitations", headers: bearer(owner.keys.sandbox) });
    expect(listed.json().invitations.map((i: { email: string }) => i.email)).toContain("revoked@example.com");
    const revoked = await t.app.inject({
      method: "DELETE",
      url: `/v1/invitations/${revokedInvite.json().id}`,
      headers: bearer(owner.keys.sandbox),
    });
    expect(revoked.statusCode).toBe(204);
    expectErrorEnvelope(await accept(token, STRONG_PASSWORD), { status: 410, code: "INVITATION_INVALID", actor: null });
  });

  it("inviting a current member is 409 ALREADY_A_MEMBER", async () => {
    expectErrorEnvelope(await invite(owner.email, "business_admin"), {
      status: 409,
      code: "ALREADY_A_MEMBER",
      actor: { user_id: owner.userId, membership_id: owner.membershipId, role: "business_admin", environment: "sandbox" },
    });
  });
});

describe("members", () => {
  it("lists members with role, two-factor state and last sign-in", async () => {
    const member = await addMember(t.app, owner.keys.sandbox, "business_approver");
    await signIn(t.app, member.email, STRONG_PASSWORD);
    const list = await t.app.inject({ method: "GET", url: "/v1/members", headers: bearer(owner.keys.sandbox) });
    expect(list.statusCode).toBe(200);
    const entry = list.json().members.find((m: { id: string }) => m.id === member.membershipId);
    expect(entry).toMatchObject({
      user_id: member.userId,
      email: member.email,
      role: "business_approver",
      two_factor_enabled: false,
      last_sign_in_at: t.clock.now().toISOString(),
    });
  });

  it("a role change ends the member's sessions and caps their keys at the new role", async () => {
    const member = await addMember(t.app, owner.keys.sandbox, "business_admin");
    const s = await signIn(t.app, member.email, STRONG_PASSWORD);
    const key = await createApiKey(t.app, owner.keys.sandbox, "business_admin");
    // The key above belongs to the owner; make one of the member's own through their session.
    const own = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: sessionHeaders(s),
      payload: { role: "business_admin" },
    });
    expect(own.statusCode, own.body).toBe(201);
    const changed = await t.app.inject({
      method: "PATCH",
      url: `/v1/members/${member.membershipId}`,
      headers: bearer(key.key),
      payload: { role: "business_read_only" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expectErrorEnvelope(await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: sessionHeaders(s) }), {
      status: 401,
      code: "SESSION_EXPIRED",
      actor: null,
    });
    const write = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: bearer(own.json().key),
      payload: { role: "business_read_only" },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().error.actor.role).toBe("business_read_only");
  });

  it("removal ends the member's sessions and stops their keys at once", async () => {
    const member = await addMember(t.app, owner.keys.sandbox, "business_admin");
    const s = await signIn(t.app, member.email, STRONG_PASSWORD);
    const own = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: sessionHeaders(s),
      payload: { role: "business_admin" },
    });
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/v1/members/${member.membershipId}`,
      headers: bearer(owner.keys.sandbox),
    });
    expect(removed.statusCode).toBe(204);
    expectErrorEnvelope(await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: sessionHeaders(s) }), {
      status: 401,
      code: "SESSION_EXPIRED",
      actor: null,
    });
    expectErrorEnvelope(await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(own.json().key) }), {
      status: 401,
      code: "unauthorized",
      actor: null,
    });
    const list = await t.app.inject({ method: "GET", url: "/v1/members", headers: bearer(owner.keys.sandbox) });
    expect(list.json().members.map((m: { id: string }) => m.id)).not.toContain(member.membershipId);
    // They can no longer sign in to it.
    await expect(signIn(t.app, member.email, STRONG_PASSWORD)).rejects.toThrow(/403/);
  });

  it("the last admin can be neither demoted nor removed (409 LAST_ADMIN)", async () => {
    const solo = await registerBusiness(t.app, "Solo Co");
    const actor = {
      user_id: solo.userId,
      membership_id: solo.membershipId,
      role: "business_admin" as const,
      environment: "sandbox" as const,
    };
    const demote = await t.app.inject({
      method: "PATCH",
      url: `/v1/members/${solo.membershipId}`,
      headers: bearer(solo.keys.sandbox),
      payload: { role: "business_approver" },
    });
    expectErrorEnvelope(demote, { status: 409, code: "LAST_ADMIN", actor });
    const remove = await t.app.inject({
      method: "DELETE",
      url: `/v1/members/${solo.membershipId}`,
      headers: bearer(solo.keys.sandbox),
    });
    expectErrorEnvelope(remove, { status: 409, code: "LAST_ADMIN", actor });
  });

  it("a member of another Business is not found", async () => {
    const other = await registerBusiness(t.app, "Other Co");
    const response = await t.app.inject({
      method: "DELETE",
      url: `/v1/members/${other.membershipId}`,
      headers: bearer(owner.keys.sandbox),
    });
    expect(response.statusCode).toBe(404);
  });
});

describe("the approver role", () => {
  it("reads and decides payouts, but cannot create keys, webhooks, members or payouts", async () => {
    const member = await addMember(t.app, owner.keys.sandbox, "business_approver");
    const s = await signIn(t.app, member.email, STRONG_PASSWORD);
    expect((await t.app.inject({ method: "GET", url: "/v1/payouts", headers: sessionHeaders(s) })).statusCode).toBe(200);
    const decide = await t.app.inject({
      method: "POST",
      url: "/v1/payouts/01900000-0000-7000-8000-000000000000/approve",
      headers: sessionHeaders(s),
      payload: {},
    });
    expect(decide.statusCode).toBe(404);
    for (const [method, url, payload] of [
      ["POST", "/v1/api-keys", { role: "business_read_only" }],
      ["POST", "/v1/invitations", { email: "x@example.com", role: "business_admin" }],
      ["PUT", "/v1/approval-policy", { rules: [] }],
      ["POST", "/v1/webhook-subscriptions", { url: "https://example.com/hook", enabled_events: ["payout.created"] }],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: sessionHeaders(s), payload });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error.code).toBe("forbidden");
    }
  });
});

describe("a person in several Businesses", () => {
  it("signs in to one and switches to another with a new session; a Business they are not in is refused", async () => {
    const second = await registerBusiness(t.app, "Second Co");
    const email = `two-hats-${Date.now()}@example.com`;
    await addMember(t.app, owner.keys.sandbox, "business_read_only", email);
    await invite(email, "business_admin", second.keys.sandbox);
    expect((await accept(await invitationTokenFor(t.app, email))).statusCode).toBe(201);
    const s = await signIn(t.app, email, STRONG_PASSWORD, { business_id: owner.businessId });
    expect(s.body.memberships.map((m) => m.business_id).sort()).toEqual([owner.businessId, second.businessId].sort());
    const switched = await t.app.inject({
      method: "POST",
      url: "/v1/session/business",
      headers: sessionHeaders(s, null),
      payload: { business_id: second.businessId },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const next = signedInFrom(switched);
    expect(next.secret).not.toBe(s.secret);
    expect(next.body.membership).toMatchObject({ business_id: second.businessId, role: "business_admin" });
    const keys = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: sessionHeaders(next) });
    expect(keys.json().api_keys.map((k: { id: string }) => k.id)).toEqual([second.keyIds.sandbox]);
    expect((await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: sessionHeaders(s) })).statusCode).toBe(401);
    const stranger = await registerBusiness(t.app, "Stranger Co");
    const refused = await t.app.inject({
      method: "POST",
      url: "/v1/session/business",
      headers: sessionHeaders(next, null),
      payload: { business_id: stranger.businessId },
    });
    expectErrorEnvelope(refused, { status: 403, code: "NOT_A_MEMBER", actor: null });
  });
});

describe("the audit log", () => {
  it("records sign-ins and failures, team changes and key creation with actor, address and user agent, newest first, filtered and paged", async () => {
    const business = await registerBusiness(t.app, "Audit Co");
    await t.app.inject({
      method: "POST",
      url: "/v1/session",
      headers: { "user-agent": "AuditBrowser/1.0" },
      payload: { email: business.email, password: "not the right one" },
    });
    const s = await signIn(t.app, business.email);
    await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: sessionHeaders(s),
      payload: { role: "business_read_only" },
    });
    await addMember(t.app, business.keys.production, "business_approver");
    const all = await t.app.inject({ method: "GET", url: "/v1/audit-records", headers: bearer(business.keys.sandbox) });
    expect(all.statusCode, all.body).toBe(200);
    const actions = all.json().audit_records.map((r: { action: string }) => r.action);
    expect(actions).toEqual(["member_joined", "member_invited", "api_key_created", "sign_in", "sign_in_failed"]);
    const failed = all.json().audit_records.find((r: { action: string }) => r.action === "sign_in_failed");
    expect(failed).toMatchObject({
      user_agent: "AuditBrowser/1.0",
      client_address: "127.0.0.1",
      actor: { user_id: business.userId },
    });
    const created = all.json().audit_records.find((r: { action: string }) => r.action === "api_key_created");
    expect(created).toMatchObject({ environment: "sandbox", actor: { session_id: s.body.session.id, api_key_id: null } });
    const invited = all.json().audit_records.find((r: { action: string }) => r.action === "member_invited");
    expect(invited.actor.api_key_id).toBe(business.keyIds.production);

    const page1 = await t.app.inject({ method: "GET", url: "/v1/audit-records?limit=2", headers: bearer(business.keys.sandbox) });
    expect(page1.json().audit_records).toHaveLength(2);
    const page2 = await t.app.inject({
      method: "GET",
      url: `/v1/audit-records?limit=2&cursor=${page1.json().next_cursor}`,
      headers: bearer(business.keys.sandbox),
    });
    expect(page2.json().audit_records.map((r: { action: string }) => r.action)).toEqual(["api_key_created", "sign_in"]);
    const filtered = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?action=sign_in",
      headers: bearer(business.keys.sandbox),
    });
    expect(filtered.json().audit_records).toHaveLength(1);
    // Another Business's log is not visible.
    const others = await t.app.inject({ method: "GET", url: "/v1/audit-records", headers: bearer(owner.keys.sandbox) });
    expect(others.json().audit_records.map((r: { id: string }) => r.id)).not.toContain(failed.id);
  });

  it("is read by admins only", async () => {
    const readOnly = await createApiKey(t.app, owner.keys.sandbox, "business_read_only");
    const response = await t.app.inject({ method: "GET", url: "/v1/audit-records", headers: bearer(readOnly.key) });
    expect(response.statusCode).toBe(403);
  });
});
