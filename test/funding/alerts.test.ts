// What a finance team hears about a funding account: `funding_account.low_balance` once when a posting takes
// available from at or above its threshold to below it (not on every posting while it stays below, again after
// money brought it back above); and turning enforcement off from a dashboard session: it needs a recent
// confirmation (step-up), is recorded (`funding_account_updated`, `control_weakened`) and e-mails every admin once.
// Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "../../src/platform/events/events.schema.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { queuedMails } from "../helpers/queued-mail.js";
import { addMember, REGISTRATION_PASSWORD, sessionHeaders, signedInFrom, signIn } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { createPayout, decide, payableBeneficiary } from "../payouts/payout-fixtures.js";
import { onlyFundingAccount, sandboxCredit, setFunding } from "./funding-fixtures.js";

let t: TestApp;
const db = () => t.runtime.deps.database.db;
const MINUTE = 60_000;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

async function approve(key: string, beneficiaryId: string, amountMinor: number): Promise<void> {
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: amountMinor });
  const response = await decide(t.app, key, payout.payout_id, "approve");
  expect(response.statusCode, response.body).toBe(201);
}

/** The account's low-balance events, oldest first: the available balance each one reported. */
async function lowBalanceEvents(accountId: string): Promise<Record<string, unknown>[]> {
  const rows = await db()
    .select({ data: events.data })
    .from(events)
    .where(and(eq(events.subjectId, accountId), eq(events.type, "funding_account.low_balance")))
    .orderBy(asc(events.sequence));
  return rows.map((row) => row.data as Record<string, unknown>);
}

describe("funding_account.low_balance", () => {
  it("fires once when available crosses below the threshold, not on each posting below it; again after a top-up", async () => {
    const business = await registerBusiness(t.app, "Low balance");
    const key = business.keys.sandbox;
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    // The first approval opens the sandbox account (100 held: available -100), a credit brings it to 10,000.
    await approve(key, beneficiaryId, 100);
    const account = await onlyFundingAccount(t.app, key);
    expect((await sandboxCredit(t.app, key, account.id, 10_100)).statusCode).toBe(201);
    const set = await setFunding(t.app, key, account.id, { low_balance_threshold_minor: 5000 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ available_minor: 10_000, low_balance_threshold_minor: 5000 });

    await approve(key, beneficiaryId, 3000); // 7,000: above
    await approve(key, beneficiaryId, 2000); // 5,000: at the threshold is not below it
    expect(await lowBalanceEvents(account.id)).toEqual([]);
    await approve(key, beneficiaryId, 1000); // 4,000: crosses below
    await approve(key, beneficiaryId, 1500); // 2,500: still below, no new event
    await approve(key, beneficiaryId, 500); // 2,000
    expect(await lowBalanceEvents(account.id)).toEqual([
      {
        funding_account_id: account.id,
        currency: "EUR",
        posted_minor: 10_100,
        pending_minor: 6100,
        available_minor: 4000,
        low_balance_threshold_minor: 5000,
      },
    ]);

    // Money arrives (available 8,000), then a hold crosses again: a second event.
    expect((await sandboxCredit(t.app, key, account.id, 6000)).statusCode).toBe(201);
    await approve(key, beneficiaryId, 2000); // 6,000: above
    expect(await lowBalanceEvents(account.id)).toHaveLength(1);
    await approve(key, beneficiaryId, 3000); // 3,000: crosses below
    const fired = await lowBalanceEvents(account.id);
    expect(fired.map((data) => data.available_minor)).toEqual([4000, 3000]);
  });
});

describe("turning enforcement off from a dashboard session", () => {
  let business: RegisteredBusiness;
  let otherAdmin: { email: string };
  let readOnly: { email: string };

  beforeAll(async () => {
    business = await registerBusiness(t.app, "Enforcement off");
    otherAdmin = await addMember(t.app, business.keys.sandbox, "business_admin");
    readOnly = await addMember(t.app, business.keys.sandbox, "business_read_only");
  });

  /** The security alerts (control weakened) each address received. */
  async function alerts(): Promise<Map<string, { subject: string; text: string }[]>> {
    const byAddress = new Map<string, { subject: string; text: string }[]>();
    for (const mail of await queuedMails(t)) {
      if (!mail.idempotency_key.startsWith("control-weakened:")) continue;
      const alert = { subject: mail.subject, text: mail.text.replace(/\s+/g, " ") };
      byAddress.set(mail.to, [...(byAddress.get(mail.to) ?? []), alert]);
    }
    return byAddress;
  }

  it("needs a recent confirmation, then is recorded and e-mailed to every admin once", async () => {
    const key = business.keys.sandbox;
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    await approve(key, beneficiaryId, 100);
    const account = await onlyFundingAccount(t.app, key);
    expect((await sandboxCredit(t.app, key, account.id, 100)).statusCode).toBe(201);
    // Turning it on is a strengthening: a key may, and nobody is e-mailed.
    expect((await setFunding(t.app, key, account.id, { enforcement: "enforce" })).statusCode).toBe(200);
    expect(await alerts()).toEqual(new Map());

    // A session signed in 6 minutes ago has no recent confirmation: refused, nothing changed, nobody e-mailed.
    const session = await signIn(t.app, business.email);
    t.clock.advance(6 * MINUTE);
    const patch = (headers: Record<string, string>) =>
      t.app.inject({
        method: "PATCH",
        url: `/v1/funding-accounts/${account.id}`,
        headers,
        payload: { enforcement: "track_only" },
      });
    expectErrorEnvelope(await patch(sessionHeaders(session)), {
      status: 401,
      code: "STEP_UP_REQUIRED",
      actor: { user_id: business.userId, membership_id: business.membershipId, role: "business_admin", environment: "sandbox" },
    });
    expect((await onlyFundingAccount(t.app, key)).enforcement).toBe("enforce");
    expect(await alerts()).toEqual(new Map());

    // Confirmed with the password: the change goes through.
    const confirmed = await t.app.inject({
      method: "POST",
      url: "/v1/session/confirmation",
      headers: sessionHeaders(session, null),
      payload: { password: REGISTRATION_PASSWORD },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const off = await patch(sessionHeaders(signedInFrom(confirmed)));
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ id: account.id, enforcement: "track_only" });

    // Every admin (and only admins) e-mailed once, naming the account.
    const sent = await alerts();
    expect([...sent.keys()].sort()).toEqual([business.email, otherAdmin.email].sort());
    for (const mails of sent.values()) {
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toMatch(/balance enforcement was weakened/i);
      expect(mails[0]?.text).toContain(
        `Payouts from the ${String(account.name)} funding account are no longer held to its balance`,
      );
    }
    expect(sent.has(readOnly.email)).toBe(false);

    // Audited with the person (their session) as the actor.
    const audit = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?limit=100",
      headers: bearer(key),
    });
    expect(audit.statusCode, audit.body).toBe(200);
    const records = (
      audit.json().audit_records as {
        action: string;
        subject: { type: string; id: string } | null;
        actor: { user_id: string | null; api_key_id: string | null; session_id: string | null };
        details: Record<string, unknown>;
      }[]
    ).filter((r) => r.subject?.id === account.id);
    const updated = records.find((r) => r.action === "funding_account_updated" && r.details.enforcement === "track_only");
    expect(updated?.actor).toMatchObject({ user_id: business.userId, api_key_id: null });
    expect(updated?.actor.session_id).not.toBeNull();
    const weakened = records.find((r) => r.action === "control_weakened");
    expect(weakened?.actor).toMatchObject({ user_id: business.userId, api_key_id: null });
    expect(weakened?.details).toMatchObject({
      control: "funding_enforcement",
      admins_notified: 2,
      enforcement_before: "enforce",
      enforcement_after: "track_only",
    });
  });
});
