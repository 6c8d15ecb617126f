// Removing a member is for good: their API keys are revoked (not only refused while they are away) and their
// sessions end, so inviting the same person again, and promoting them, gives no old credential back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addMember, STRONG_PASSWORD, sessionHeaders, signIn } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";

let t: TestApp;
let owner: RegisteredBusiness;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await registerBusiness(t.app, "Removal Co");
});
afterAll(async () => {
  await t?.close();
});

describe("removing a member", () => {
  it("revokes their keys and ends their sessions; re-inviting and promoting them brings neither back", async () => {
    const member = await addMember(t.app, owner.keys.sandbox, "business_admin");
    const session = await signIn(t.app, member.email, STRONG_PASSWORD);
    const issued = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: sessionHeaders(session),
      payload: { role: "business_admin", label: "the member's own" },
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const oldKey = issued.json() as { id: string; key: string };

    const removed = await t.app.inject({
      method: "DELETE",
      url: `/v1/members/${member.membershipId}`,
      headers: bearer(owner.keys.sandbox),
    });
    expect(removed.statusCode, removed.body).toBe(204);
    // The key is revoked in the list at once, not merely refused while the membership is removed.
    const listed = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(owner.keys.sandbox) });
    const shown = listed.json().api_keys.find((k: { id: string }) => k.id === oldKey.id);
    expect(shown.revoked_at).not.toBeNull();
    // The revocation is in the audit log, by the admin who removed the member, in the same act.
    const audit = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?action=api_key_revoked",
      headers: bearer(owner.keys.sandbox),
    });
    expect(audit.json().audit_records).toContainEqual(
      expect.objectContaining({
        subject: { type: "api_key", id: oldKey.id },
        environment: "sandbox",
        actor: expect.objectContaining({ api_key_id: owner.keyIds.sandbox }),
        details: { reason: "member_removed", membership_id: member.membershipId },
      }),
    );

    // Invited again (as read-only), accepted, then promoted to admin.
    const again = await addMember(t.app, owner.keys.sandbox, "business_read_only", member.email);
    const promoted = await t.app.inject({
      method: "PATCH",
      url: `/v1/members/${again.membershipId}`,
      headers: bearer(owner.keys.sandbox),
      payload: { role: "business_admin" },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);

    // The old key answers 401 and stays revoked; the old session stays ended.
    expectErrorEnvelope(await t.app.inject({ method: "GET", url: "/v1/payouts", headers: bearer(oldKey.key) }), {
      status: 401,
      code: "unauthorized",
      actor: null,
    });
    const write = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: bearer(oldKey.key),
      payload: { role: "business_admin" },
    });
    expect(write.statusCode).toBe(401);
    const relisted = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(owner.keys.sandbox) });
    expect(relisted.json().api_keys.find((k: { id: string }) => k.id === oldKey.id).revoked_at).not.toBeNull();
    const oldSession = await t.app.inject({ method: "GET", url: "/v1/session", headers: sessionHeaders(session) });
    expect(oldSession.statusCode).toBe(401);

    // The person signs in afresh and works with the new role: only new credentials work.
    const fresh = await signIn(t.app, member.email, STRONG_PASSWORD);
    const mine = await t.app.inject({ method: "GET", url: "/v1/session", headers: sessionHeaders(fresh) });
    expect(mine.json().membership.role).toBe("business_admin");
  });
});
