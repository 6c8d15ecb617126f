// Weakening a control (maker-checker off, approval rules loosened, the two-factor requirement lifted, a bank
// rail's delivery target changed) e-mails every admin once and records `control_weakened`; an API key may not
// do it (403 CONTROL_WEAKENING_NEEDS_PERSON); strengthening sends nothing, whoever does it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sepaConfig } from "../bank-rails/bank-rail-fixtures.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { queuedMails } from "../helpers/queued-mail.js";
import {
  addMember,
  asPerson,
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
let business: RegisteredBusiness;
let otherAdmin: { email: string; membershipId: string; userId: string };
let readOnly: { email: string };
let session: SignedIn;

interface AuditRecord {
  action: string;
  environment: string | null;
  actor: { user_id: string | null; api_key_id: string | null; session_id: string | null };
  subject: { type: string; id: string } | null;
  details: Record<string, unknown>;
}

/** The security alerts each address received so far. */
async function alerts(): Promise<Map<string, string[]>> {
  const byAddress = new Map<string, string[]>();
  for (const mail of await queuedMails(t)) {
    if (!mail.idempotency_key.startsWith("control-weakened:")) continue;
    byAddress.set(mail.to, [...(byAddress.get(mail.to) ?? []), mail.subject]);
  }
  return byAddress;
}

async function weakenings(): Promise<AuditRecord[]> {
  const response = await t.app.inject({
    method: "GET",
    url: "/v1/audit-records?action=control_weakened&limit=100",
    headers: bearer(business.keys.sandbox),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().audit_records;
}

/** Runs `act` and answers the alerts it sent: by address, their subjects. */
async function alertsOf(act: () => Promise<void>): Promise<Map<string, string[]>> {
  const before = await alerts();
  await act();
  const after = await alerts();
  const sent = new Map<string, string[]>();
  for (const [address, subjects] of after) {
    const fresh = subjects.slice(before.get(address)?.length ?? 0);
    if (fresh.length > 0) sent.set(address, fresh);
  }
  return sent;
}

/** Every admin (and nobody else) got exactly one alert whose subject matches. */
function expectOneAlertPerAdmin(sent: Map<string, string[]>, subject: RegExp): void {
  expect([...sent.keys()].sort()).toEqual([business.email, otherAdmin.email].sort());
  for (const subjects of sent.values()) {
    expect(subjects).toHaveLength(1);
    expect(subjects[0]).toMatch(subject);
  }
  expect(sent.has(readOnly.email)).toBe(false);
}

const putPolicy = (headers: Record<string, string>, body: Record<string, unknown>) =>
  t.app.inject({ method: "PUT", url: "/v1/approval-policy", headers, payload: body });

const APPROVE_SMALL = { name: "small ones", outcome: "approve", max_amount_minor: 10_000 };
const REJECT_HUGE = { name: "huge ones", outcome: "reject", min_amount_minor: 100_000_000 };

beforeAll(async () => {
  t = await buildTestApp();
  business = await registerBusiness(t.app, "Weakened Controls Co");
  otherAdmin = await addMember(t.app, business.keys.sandbox, "business_admin");
  readOnly = await addMember(t.app, business.keys.sandbox, "business_read_only");
  // The registrant signs in and enrols two-factor (so the requirement, once on, does not hold their session).
  const signedIn = await signIn(t.app, business.email);
  const started = await t.app.inject({
    method: "POST",
    url: "/v1/session/two-factor/enrolment",
    headers: sessionHeaders(signedIn, null),
  });
  expect(started.statusCode, started.body).toBe(200);
  const confirmed = await t.app.inject({
    method: "POST",
    url: "/v1/session/two-factor/enrolment/confirmation",
    headers: sessionHeaders(signedIn, null),
    payload: { code: totpCode(started.json().secret, t.clock.now()) },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  session = signedInFrom(confirmed);
});
afterAll(async () => {
  await t?.close();
});

describe("maker-checker and the approval rules", () => {
  it("turning maker-checker on (a key may) sends nothing; turning it off from a session waits for a second admin, whose approval e-mails every admin once", async () => {
    const on = await alertsOf(async () => {
      const response = await putPolicy(bearer(business.keys.sandbox), { rules: [REJECT_HUGE], maker_checker: true });
      expect(response.statusCode, response.body).toBe(200);
    });
    expect(on.size).toBe(0);

    const refused = await alertsOf(async () => {
      const response = await putPolicy(bearer(business.keys.sandbox), { rules: [REJECT_HUGE], maker_checker: false });
      expectErrorEnvelope(response, {
        status: 403,
        code: "CONTROL_WEAKENING_NEEDS_PERSON",
        actor: { user_id: business.userId, membership_id: business.membershipId, role: "business_admin", environment: "sandbox" },
      });
    });
    expect(refused.size).toBe(0);
    const unchanged = await t.app.inject({ method: "GET", url: "/v1/approval-policy", headers: bearer(business.keys.sandbox) });
    expect(unchanged.json().maker_checker).toBe(true);

    // Maker-checker is on, so turning it off is a pending control change (issue 29) until a second admin approves.
    let changeId = "";
    const proposed = await alertsOf(async () => {
      const response = await putPolicy(sessionHeaders(session), { rules: [REJECT_HUGE], maker_checker: false });
      expect(response.statusCode, response.body).toBe(202);
      expect(response.json()).toMatchObject({ object: "control_change", kind: "approval_policy", status: "pending" });
      changeId = response.json().id;
    });
    expect(proposed.size).toBe(0);
    const off = await alertsOf(async () => {
      const response = await t.app.inject({
        method: "POST",
        url: `/v1/control-changes/${changeId}/approve`,
        headers: await asPerson(t.app, otherAdmin.email, "sandbox", STRONG_PASSWORD),
      });
      expect(response.statusCode, response.body).toBe(200);
    });
    expectOneAlertPerAdmin(off, /maker-checker/i);
    const [record] = await weakenings();
    expect(record).toMatchObject({
      environment: "sandbox",
      actor: { user_id: otherAdmin.userId, api_key_id: null },
      subject: { type: "approval_policy", id: "sandbox" },
      details: { control: "maker_checker", admins_notified: 2 },
    });
  });

  it("a new approve rule or a dropped reject rule loosens; a new reject rule or a dropped approve rule does not", async () => {
    const loosened = await alertsOf(async () => {
      const response = await putPolicy(sessionHeaders(session), { rules: [REJECT_HUGE, APPROVE_SMALL] });
      expect(response.statusCode, response.body).toBe(200);
    });
    expectOneAlertPerAdmin(loosened, /approval rules/i);
    expect((await weakenings())[0]?.details).toMatchObject({ control: "approval_rules", rules_before: 1, rules_after: 2 });

    // Moving the approve rule above the reject rule lets it win for payouts both match: loosened, so a key is refused.
    const reordered = await putPolicy(bearer(business.keys.sandbox), { rules: [APPROVE_SMALL, REJECT_HUGE] });
    expect(reordered.statusCode).toBe(403);
    expect(reordered.json().error.code).toBe("CONTROL_WEAKENING_NEEDS_PERSON");
    // Dropping the reject rule: refused to a key as well.
    const dropped = await putPolicy(bearer(business.keys.sandbox), { rules: [APPROVE_SMALL] });
    expect(dropped.json().error.code).toBe("CONTROL_WEAKENING_NEEDS_PERSON");

    // Stricter: drop the approve rule, add a reject rule, rename. A key may; nobody is e-mailed.
    const stricter = await alertsOf(async () => {
      const response = await putPolicy(bearer(business.keys.sandbox), {
        rules: [
          { ...REJECT_HUGE, name: "renamed" },
          { name: "no GBP", outcome: "reject", currency: "GBP" },
        ],
      });
      expect(response.statusCode, response.body).toBe(200);
    });
    expect(stricter.size).toBe(0);
  });
});

describe("the two-factor requirement", () => {
  const put = (headers: Record<string, string>, on: boolean) =>
    t.app.inject({ method: "PUT", url: "/v1/security-settings", headers, payload: { require_two_factor: on } });

  it("requiring it sends nothing; lifting it is refused to a key and e-mails every admin when a person does it", async () => {
    const required = await alertsOf(async () => {
      const response = await put(bearer(business.keys.sandbox), true);
      expect(response.statusCode, response.body).toBe(200);
    });
    expect(required.size).toBe(0);
    const byKey = await put(bearer(business.keys.production), false);
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error.code).toBe("CONTROL_WEAKENING_NEEDS_PERSON");
    const lifted = await alertsOf(async () => {
      const response = await put(sessionHeaders(session), false);
      expect(response.statusCode, response.body).toBe(200);
    });
    expectOneAlertPerAdmin(lifted, /two-factor/i);
    expect((await weakenings())[0]).toMatchObject({
      environment: null,
      subject: { type: "business", id: business.businessId },
      details: { control: "two_factor_requirement" },
    });
  });
});

describe("a bank rail's delivery target", () => {
  const putSepa = (headers: Record<string, string>, overrides: Record<string, unknown> = {}) =>
    t.app.inject({ method: "PUT", url: "/v1/bank-rails/sepa", headers, payload: sepaConfig(overrides) });
  const delivery = (changes: Record<string, unknown>) => ({
    delivery: { ...(sepaConfig().delivery as Record<string, unknown>), ...changes },
  });

  it("configuring a rail and changing its cut-offs send nothing; changing where files go is refused to a key and e-mails every admin", async () => {
    const production = bearer(business.keys.production);
    const quiet = await alertsOf(async () => {
      expect((await putSepa(production)).statusCode).toBe(201);
      expect((await putSepa(production, { cutoff_times: ["11:00"] })).statusCode).toBe(200);
    });
    expect(quiet.size).toBe(0);

    const byKey = await putSepa(production, delivery({ host: "sftp.elsewhere.example" }));
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error.code).toBe("CONTROL_WEAKENING_NEEDS_PERSON");

    const moved = await alertsOf(async () => {
      const response = await putSepa(sessionHeaders(session, "production"), delivery({ host: "sftp.elsewhere.example" }));
      expect(response.statusCode, response.body).toBe(200);
    });
    expectOneAlertPerAdmin(moved, /delivery target/i);
    const [record] = await weakenings();
    expect(record).toMatchObject({
      environment: "production",
      subject: { type: "bank_rail" },
      details: { control: "bank_rail_delivery_target", rail: "sepa", changed: ["host"] },
    });
    // The alert names where files now go, never the password.
    const mail = (await queuedMails(t, otherAdmin.email)).filter((m) => m.idempotency_key.startsWith("control-weakened:")).at(-1);
    expect(mail?.text).toContain("sftp.elsewhere.example");
    expect(mail?.text).not.toContain("s3cret-sftp-password");
    expect(JSON.stringify(record)).not.toContain("s3cret-sftp-password");
  });
});
