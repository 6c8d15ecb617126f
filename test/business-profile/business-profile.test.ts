// The Business profile (GET|PATCH /v1/business): every role reads it, with a key or a session, in either
// environment, and sees one profile; admins change it (step-up from a session), each real change is audited
// with the before and after of its fields; approvers and read-only members are refused; every field's bad
// value gets its own detail; a Business reads and changes only its own profile, whatever the body says; a new
// name shows at once in the session's memberships, the hosted pages and the e-mails written afterwards
// (a collection link's, a team invitation's).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintLink } from "../collection/helpers.js";
import { bearer, createApiKey, createBeneficiary, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { queuedMails } from "../helpers/queued-mail.js";
import {
  addMember,
  REGISTRATION_PASSWORD,
  type SignedIn,
  STRONG_PASSWORD,
  sessionHeaders,
  signedInFrom,
  signIn,
} from "../helpers/sessions.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";

let t: TestApp;
let biz: RegisteredBusiness;
let other: RegisteredBusiness;
let readOnlyKey: string;
let approver: { email: string; membershipId: string; userId: string };

const minutes = (n: number) => new Date(TEST_START.getTime() + n * 60_000);

beforeAll(async () => {
  t = await buildTestApp();
  t.clock.set(TEST_START);
  biz = await registerBusiness(t.app, "Northwind Payroll");
  other = await registerBusiness(t.app, "Fabrikam Payouts");
  readOnlyKey = (await createApiKey(t.app, biz.keys.sandbox, "business_read_only")).key;
  approver = await addMember(t.app, biz.keys.sandbox, "business_approver");
});
afterAll(async () => {
  await t?.close();
});

const getWithKey = (key: string) => t.app.inject({ method: "GET", url: "/v1/business", headers: bearer(key) });
const patchWithKey = (key: string, payload: unknown) =>
  t.app.inject({ method: "PATCH", url: "/v1/business", headers: bearer(key), payload: payload as Record<string, unknown> });
const patchWithSession = (s: SignedIn, payload: unknown, environment: "sandbox" | "production" = "sandbox") =>
  t.app.inject({
    method: "PATCH",
    url: "/v1/business",
    headers: sessionHeaders(s, environment),
    payload: payload as Record<string, unknown>,
  });

async function profileChanges(business: RegisteredBusiness) {
  const response = await t.app.inject({
    method: "GET",
    url: "/v1/audit-records?action=business_profile_changed",
    headers: bearer(business.keys.sandbox),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().audit_records as Array<{
    environment: string | null;
    subject: { type: string; id: string };
    details: { changes: Record<string, { from: string | null; to: string | null }> };
    actor: Record<string, unknown>;
  }>;
}

describe("reading the profile", () => {
  it("every role reads the same Business-wide profile, with a key or a session, in either environment", async () => {
    const expected = {
      id: biz.businessId,
      name: "Northwind Payroll",
      legal_name: null,
      country: null,
      registration_number: null,
      tax_id: null,
      support_email: null,
      website: null,
      time_zone: null,
      created_at: TEST_START.toISOString(),
      updated_at: null,
    };
    for (const key of [biz.keys.sandbox, biz.keys.production, readOnlyKey]) {
      const response = await getWithKey(key);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual(expected);
    }
    const approverSession = await signIn(t.app, approver.email, STRONG_PASSWORD);
    for (const environment of ["sandbox", "production"] as const) {
      const response = await t.app.inject({
        method: "GET",
        url: "/v1/business",
        headers: sessionHeaders(approverSession, environment),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual(expected);
    }
  });

  it("another Business's key reads its own profile only (there is no id to name another)", async () => {
    const response = await getWithKey(other.keys.sandbox);
    expect(response.json()).toMatchObject({ id: other.businessId, name: "Fabrikam Payouts" });
    const unauthenticated = await t.app.inject({ method: "GET", url: "/v1/business" });
    expectErrorEnvelope(unauthenticated, { status: 401, code: "unauthorized", actor: null });
  });
});

describe("changing the profile", () => {
  it("an admin key changes the fields sent, keeps the others, and the change is audited with before and after", async () => {
    t.clock.set(minutes(1));
    const response = await patchWithKey(biz.keys.sandbox, {
      legal_name: "  Northwind Payroll GmbH ",
      country: "DE",
      registration_number: "HRB 123456",
      tax_id: "DE123456789",
      support_email: "payroll@northwind.example",
      website: "https://northwind.example/payroll",
      time_zone: "europe/berlin",
    });
    expect(response.statusCode, response.body).toBe(200);
    const changed = {
      id: biz.businessId,
      name: "Northwind Payroll",
      legal_name: "Northwind Payroll GmbH",
      country: "DE",
      registration_number: "HRB 123456",
      tax_id: "DE123456789",
      support_email: "payroll@northwind.example",
      website: "https://northwind.example/payroll",
      time_zone: "Europe/Berlin",
      created_at: TEST_START.toISOString(),
      updated_at: minutes(1).toISOString(),
    };
    expect(response.json()).toEqual(changed);
    // One profile: the production key sees the change made with the sandbox key.
    expect((await getWithKey(biz.keys.production)).json()).toEqual(changed);

    const [record, ...older] = await profileChanges(biz);
    expect(older).toEqual([]);
    expect(record).toMatchObject({
      environment: null,
      subject: { type: "business", id: biz.businessId },
      actor: { api_key_id: biz.keyIds.sandbox, role: "business_admin" },
    });
    // Only the fields that changed, in the API's order; name was not sent.
    expect(record?.details.changes).toEqual({
      legal_name: { from: null, to: "Northwind Payroll GmbH" },
      country: { from: null, to: "DE" },
      registration_number: { from: null, to: "HRB 123456" },
      tax_id: { from: null, to: "DE123456789" },
      support_email: { from: null, to: "payroll@northwind.example" },
      website: { from: null, to: "https://northwind.example/payroll" },
      time_zone: { from: null, to: "Europe/Berlin" },
    });
  });

  it("sending the stored values again changes nothing: no audit record, updated_at kept; null clears a field", async () => {
    t.clock.set(minutes(2));
    const same = await patchWithKey(biz.keys.sandbox, { country: "DE", time_zone: "Europe/Berlin" });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().updated_at).toBe(minutes(1).toISOString());
    expect(await profileChanges(biz)).toHaveLength(1);

    const cleared = await patchWithKey(biz.keys.sandbox, { tax_id: null, country: "DE" });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ tax_id: null, country: "DE", updated_at: minutes(2).toISOString() });
    const [latest] = await profileChanges(biz);
    expect(latest?.details.changes).toEqual({ tax_id: { from: "DE123456789", to: null } });

    // A zone name is kept as chosen; only its letter case is taken from the time zone database.
    const kyiv = await patchWithKey(biz.keys.sandbox, { time_zone: "Europe/Kyiv" });
    expect(kyiv.json().time_zone).toBe("Europe/Kyiv");
    const back = await patchWithKey(biz.keys.sandbox, { time_zone: "europe/berlin" });
    expect(back.json().time_zone).toBe("Europe/Berlin");
  });

  it("approvers and read-only members are refused with a 403 envelope, with a key or a session, and nothing changes", async () => {
    const before = (await getWithKey(biz.keys.sandbox)).json();
    expectErrorEnvelope(await patchWithKey(readOnlyKey, { name: "Hijacked" }), {
      status: 403,
      code: "forbidden",
      actor: expect.objectContaining({ role: "business_read_only" }) as never,
    });
    const approverSession = await signIn(t.app, approver.email, STRONG_PASSWORD);
    expectErrorEnvelope(await patchWithSession(approverSession, { name: "Hijacked" }), {
      status: 403,
      code: "forbidden",
      actor: expect.objectContaining({ role: "business_approver", membership_id: approver.membershipId }) as never,
    });
    expect((await getWithKey(biz.keys.sandbox)).json()).toEqual(before);
  });

  it("from a session it needs a recent confirmation (step-up); then the change is audited with the person as actor", async () => {
    t.clock.set(minutes(10));
    const s = await signIn(t.app, biz.email);
    t.clock.set(minutes(16));
    expectErrorEnvelope(await patchWithSession(s, { name: "Northwind Pay" }), {
      status: 401,
      code: "STEP_UP_REQUIRED",
      actor: { user_id: biz.userId, membership_id: biz.membershipId, role: "business_admin", environment: "sandbox" },
    });
    expect((await getWithKey(biz.keys.sandbox)).json().name).toBe("Northwind Payroll");

    const confirmed = await t.app.inject({
      method: "POST",
      url: "/v1/session/confirmation",
      headers: sessionHeaders(s, null),
      payload: { password: REGISTRATION_PASSWORD },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const renewed = signedInFrom(confirmed);
    // A production session changes the same, Business-wide profile.
    const response = await patchWithSession(renewed, { name: "  Northwind Pay  " }, "production");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ name: "Northwind Pay", updated_at: minutes(16).toISOString() });

    const [latest] = await profileChanges(biz);
    expect(latest).toMatchObject({
      environment: null,
      actor: { user_id: biz.userId, membership_id: biz.membershipId, api_key_id: null },
      details: { changes: { name: { from: "Northwind Payroll", to: "Northwind Pay" } } },
    });
  });
});

describe("validation", () => {
  it("an empty body is refused with a clear message", async () => {
    const body = expectErrorEnvelope(await patchWithKey(biz.keys.sandbox, {}), {
      status: 400,
      code: "validation_failed",
      actor: expect.anything() as never,
    });
    expect(body.details).toEqual([{ field: "", code: "out_of_range", message: "The body is empty: send at least one field." }]);
  });

  it("each field's bad value has its own detail, and nothing is written", async () => {
    const before = (await getWithKey(biz.keys.sandbox)).json();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: "" }, "name", "too_short"],
      [{ name: "   " }, "name", "blank"],
      [{ name: null }, "name", "invalid_type"],
      [{ name: "N".repeat(201) }, "name", "too_long"],
      [{ legal_name: "\u200b" }, "legal_name", "blank"],
      [{ country: "de" }, "country", "invalid_format"],
      [{ registration_number: "R".repeat(51) }, "registration_number", "too_long"],
      [{ tax_id: "DE<123>" }, "tax_id", "invalid_format"],
      [{ support_email: "not an address" }, "support_email", "invalid_format"],
      [{ website: "x".repeat(2049) }, "website", "too_long"],
      [{ time_zone: 7 }, "time_zone", "invalid_type"],
      [{ time_zone: "+05:00" }, "time_zone", "invalid_format"],
      [{ id: other.businessId }, "id", "unknown_field"],
    ];
    for (const [payload, field, code] of cases) {
      const body = expectErrorEnvelope(await patchWithKey(biz.keys.sandbox, payload), {
        status: 400,
        code: "validation_failed",
        actor: expect.anything() as never,
      });
      expect(body.details, JSON.stringify(payload)).toEqual([expect.objectContaining({ field, code })]);
    }
    // Checks beyond the schema: all reported together.
    const body = expectErrorEnvelope(
      await patchWithKey(biz.keys.sandbox, {
        name: "Renamed",
        country: "ZZ",
        website: "http://northwind.example",
        time_zone: "Mars/Olympus_Mons",
      }),
      { status: 400, code: "validation_failed", actor: expect.anything() as never },
    );
    expect(body.details).toEqual([
      { field: "country", code: "invalid_country", message: "ZZ is not an ISO 3166-1 alpha-2 country code." },
      { field: "website", code: "invalid_format", message: "The website must be an https:// address." },
      {
        field: "time_zone",
        code: "invalid_format",
        message: "Mars/Olympus_Mons is not an IANA time zone name (for example Europe/Berlin or America/New_York).",
      },
    ]);
    for (const website of ["northwind.example", "https://user:secret@northwind.example", "https://localhost"]) {
      const refused = expectErrorEnvelope(await patchWithKey(biz.keys.sandbox, { website }), {
        status: 400,
        code: "validation_failed",
        actor: expect.anything() as never,
      });
      expect(refused.details, website).toEqual([expect.objectContaining({ field: "website", code: "invalid_format" })]);
    }
    expect((await getWithKey(biz.keys.sandbox)).json()).toEqual(before);
  });
});

describe("tenancy", () => {
  it("a Business changes only its own profile: the id comes from the caller, never from the body", async () => {
    const before = (await getWithKey(biz.keys.sandbox)).json();
    const response = await patchWithKey(other.keys.sandbox, { name: "Fabrikam Global" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: other.businessId, name: "Fabrikam Global" });
    expect((await getWithKey(biz.keys.sandbox)).json()).toEqual(before);
    // The other Business's change is in its own audit log only.
    expect((await profileChanges(other)).map((r) => r.subject.id)).toEqual([other.businessId]);
    expect((await profileChanges(biz)).map((r) => r.subject.id)).not.toContain(other.businessId);
  });
});

describe("the new name shows wherever the Business is named", () => {
  it("the session's memberships, the hosted page and e-mails written after the change", async () => {
    const renamed = await registerBusiness(t.app, "Old Name Traders");
    const beneficiary = await createBeneficiary(t.app, renamed.keys.sandbox, { email: "payee-renamed@example.com" });
    const link = await mintLink(t.app, renamed.keys.sandbox, beneficiary.id, "full_onboarding");
    expect((await t.app.inject({ method: "GET", url: link.path })).body).toContain("Old Name Traders");

    expect((await patchWithKey(renamed.keys.sandbox, { name: "New Name Traders" })).statusCode).toBe(200);

    const s = await signIn(t.app, renamed.email);
    expect(s.body.membership).toMatchObject({ business_id: renamed.businessId, business_name: "New Name Traders" });
    expect(s.body.memberships).toEqual([expect.objectContaining({ business_name: "New Name Traders" })]);
    const page = (await t.app.inject({ method: "GET", url: link.path })).body;
    expect(page).toContain("New Name Traders");
    expect(page).not.toContain("Old Name Traders");

    await mintLink(t.app, renamed.keys.sandbox, beneficiary.id, "full_onboarding", { send_email: true });
    const mails = await queuedMails(t, "payee-renamed@example.com");
    expect(mails.map((mail) => mail.subject)).toEqual(["New Name Traders: please add your details"]);

    // The team invitation names the Business as it is called now.
    const invited = await t.app.inject({
      method: "POST",
      url: "/v1/invitations",
      headers: bearer(renamed.keys.sandbox),
      payload: { email: "new-teammate@example.com", role: "business_read_only" },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const [invitation] = await queuedMails(t, "new-teammate@example.com");
    expect(invitation?.subject).toBe("You are invited to join New Name Traders");
    expect(invitation?.text).toContain("You are invited to join New Name Traders at");
  });
});
