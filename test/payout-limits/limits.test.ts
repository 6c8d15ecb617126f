// Payout limits (issue 29): per payout at creation (single and bulk rows), per day at approval (a person's and the
// approval policy's), the day in the Business's time zone (an injected clock across its midnight), the day's usage
// given back when an approved payout is canceled, roles, tenants and error envelopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { asPerson } from "../helpers/sessions.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { createPayout, decide, getPayout, newKey, payableBeneficiary, postPayout } from "../payouts/payout-fixtures.js";

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

const putLimits = (key: string, limits: unknown[]) =>
  t.app.inject({ method: "PUT", url: "/v1/payout-limits", headers: bearer(key), payload: { limits } });
const getLimits = async (key: string) => {
  const response = await t.app.inject({ method: "GET", url: "/v1/payout-limits", headers: bearer(key) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const eur = (perPayout: number | null, daily: number | null) => ({
  currency: "EUR",
  per_payout_max_minor: perPayout,
  daily_max_minor: daily,
});
const actorOf = (b: RegisteredBusiness, environment: "sandbox" | "production" = "sandbox") => ({
  user_id: b.userId,
  membership_id: b.membershipId,
  role: "business_admin" as const,
  environment,
});

async function setup(name: string) {
  const business = await registerBusiness(t.app, name);
  const key = business.keys.sandbox;
  const payee = await payableBeneficiary(t.app, key);
  return { business, key, payee };
}

describe("per-payout limit at creation", () => {
  it("refuses a payout above the limit with 422 and the limit in details; at the limit it is created; bulk rows alone", async () => {
    const { business, key, payee } = await setup("Per Payout Limits Co");
    const defaults = await getLimits(key);
    expect(defaults).toMatchObject({ object: "payout_limits", environment: "sandbox", time_zone: "UTC", limits: [] });

    const put = await putLimits(key, [eur(5_000, null)]);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().limits).toEqual([
      { currency: "EUR", per_payout_max_minor: 5_000, daily_max_minor: null, used_today_minor: 0, remaining_today_minor: null },
    ]);

    const over = await postPayout(t.app, key, {
      beneficiary_id: payee.beneficiaryId,
      amount_minor: 5_001,
      currency: "EUR",
      idempotency_key: newKey(),
    });
    const error = expectErrorEnvelope(over, {
      status: 422,
      code: "PAYOUT_LIMIT_EXCEEDED",
      actor: actorOf(business),
      details: true,
    });
    expect(error.details).toEqual([
      expect.objectContaining({ field: "amount_minor", code: "per_payout_limit", limit_minor: 5_000 }),
    ]);
    expect((await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId, amount_minor: 5_000 })).status).toBe(
      "pending_approval",
    );

    const bulk = await t.app.inject({
      method: "POST",
      url: "/v1/payouts/bulk",
      headers: bearer(key),
      payload: {
        uploadId: newKey("upload"),
        rows: [
          { beneficiary_id: payee.beneficiaryId, amount_minor: 4_000, currency: "EUR" },
          { beneficiary_id: payee.beneficiaryId, amount_minor: 9_000, currency: "EUR" },
        ],
      },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json()).toMatchObject({ created: 1, failed: 1 });
    expect(bulk.json().results[1]).toMatchObject({ index: 1, status: "failed", error: { code: "PAYOUT_LIMIT_EXCEEDED" } });
  });
});

describe("daily limit at approval", () => {
  it("refuses the approval past the day's limit with 409 (the payout stays pending); the policy leaves it for a person", async () => {
    const { business, key, payee } = await setup("Daily Limits Co");
    expect((await putLimits(key, [eur(null, 10_000)])).statusCode).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId, amount_minor: 4_000 })).payout_id);
    expect((await decide(t.app, key, ids[0] as string, "approve")).statusCode).toBe(201);
    expect((await decide(t.app, key, ids[1] as string, "approve")).statusCode).toBe(201);
    const refused = await decide(t.app, key, ids[2] as string, "approve");
    const error = expectErrorEnvelope(refused, {
      status: 409,
      code: "DAILY_LIMIT_EXCEEDED",
      actor: actorOf(business),
      details: true,
    });
    expect(error.details).toEqual([expect.objectContaining({ limit_minor: 10_000, used_minor: 8_000 })]);
    expect((await getPayout(t.app, key, ids[2] as string)).status).toBe("pending_approval");
    expect((await getLimits(key)).limits).toEqual([
      {
        currency: "EUR",
        per_payout_max_minor: null,
        daily_max_minor: 10_000,
        used_today_minor: 8_000,
        remaining_today_minor: 2_000,
      },
    ]);
    // Rejecting is never limited.
    expect((await decide(t.app, key, ids[2] as string, "reject")).statusCode).toBe(201);

    // The approval policy meets the same limit: what fits is approved, what does not waits for a person.
    const policy = await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      // A new approve rule loosens the policy: a person makes it (maker-checker is off: it applies at once).
      headers: await asPerson(t.app, business.email),
      payload: { rules: [{ name: "small", outcome: "approve", max_amount_minor: 5_000 }] },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const fits = await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId, amount_minor: 2_000 });
    expect(fits.status).toBe("approved");
    const waits = await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId, amount_minor: 1 });
    expect(waits.status).toBe("pending_approval");
    // Nothing of the refused automatic approval remains: no Decision, and the day's usage is what was approved.
    const decisions = await t.app.inject({
      method: "GET",
      url: `/v1/payouts/${waits.payout_id}/decisions`,
      headers: bearer(key),
    });
    expect(decisions.json()).toEqual({ decisions: [] });
    expect((await getLimits(key)).limits[0]).toMatchObject({ used_today_minor: 10_000, remaining_today_minor: 0 });
  });

  it("counts days in the Business's time zone (the clock across its midnight, not UTC's)", async () => {
    const { key, payee } = await setup("Time Zone Limits Co");
    const zone = await t.app.inject({
      method: "PATCH",
      url: "/v1/business",
      headers: bearer(key),
      payload: { time_zone: "America/New_York" },
    });
    expect(zone.statusCode, zone.body).toBe(200);
    expect((await putLimits(key, [eur(null, 1_000)])).statusCode).toBe(200);
    try {
      // 2026-05-27 20:00 in New York (UTC-4).
      t.clock.set(new Date("2026-05-28T00:00:00Z"));
      const first = await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId, amount_minor: 1_000 });
      expect((await decide(t.app, key, first.payout_id, "approve")).statusCode).toBe(201);
      expect(await getLimits(key)).toMatchObject({ time_zone: "America/New_York", today: "2026-05-27" });
      // 23:59 in New York: a new day in UTC, still the 27th for the Business.
      t.clock.set(new Date("2026-05-28T03:59:00Z"));
      const second = await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId, amount_minor: 1_000 });
      expect((await decide(t.app, key, second.payout_id, "approve")).statusCode).toBe(409);
      // 00:01 on the 28th in New York: a fresh day.
      t.clock.set(new Date("2026-05-28T04:01:00Z"));
      expect((await decide(t.app, key, second.payout_id, "approve")).statusCode).toBe(201);
      expect((await getLimits(key)).limits[0]).toMatchObject({ used_today_minor: 1_000, remaining_today_minor: 0 });
      expect((await getLimits(key)).today).toBe("2026-05-28");
    } finally {
      t.clock.set(TEST_START);
    }
  });

  it("gives the day's usage back when an approved payout is canceled", async () => {
    const business = await registerBusiness(t.app, "Void Limits Co");
    const key = business.keys.production;
    const payee = await payableBeneficiary(t.app, key);
    expect((await putLimits(key, [eur(null, 5_000)])).statusCode).toBe(200);
    const first = await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId, amount_minor: 5_000 });
    expect((await decide(t.app, key, first.payout_id, "approve")).statusCode).toBe(201);
    const second = await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId, amount_minor: 1_000 });
    expect((await decide(t.app, key, second.payout_id, "approve")).statusCode).toBe(409);
    const cancel = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${first.payout_id}/cancel`,
      headers: bearer(key),
      payload: {},
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().status).toBe("canceled");
    expect((await getLimits(key)).limits[0]).toMatchObject({ used_today_minor: 0, remaining_today_minor: 5_000 });
    expect((await decide(t.app, key, second.payout_id, "approve")).statusCode).toBe(201);
    // The sandbox's limits are another environment's: none there.
    expect((await getLimits(business.keys.sandbox)).limits).toEqual([]);
  });
});

describe("the limits API", () => {
  it("answers every bad input with an envelope, lets every role read, and only admins change", async () => {
    const { business, key } = await setup("Limits API Co");
    const bad = await putLimits(key, [{ currency: "XXY", per_payout_max_minor: 1, daily_max_minor: null }, eur(0, 1)]);
    expectErrorEnvelope(bad, { status: 400, code: "validation_failed", actor: actorOf(business) });
    const duplicate = await putLimits(key, [eur(1, null), eur(2, null)]);
    const error = expectErrorEnvelope(duplicate, { status: 400, code: "validation_failed", actor: actorOf(business) });
    expect(error.details?.[0]).toMatchObject({ field: "limits[1].currency", code: "duplicate" });
    const unknownField = await t.app.inject({
      method: "PUT",
      url: "/v1/payout-limits",
      headers: bearer(key),
      payload: { limits: [], extra: 1 },
    });
    expectErrorEnvelope(unknownField, { status: 400, code: "validation_failed", actor: actorOf(business) });

    const readOnly = await createApiKey(t.app, key, "business_read_only");
    expect((await t.app.inject({ method: "GET", url: "/v1/payout-limits", headers: bearer(readOnly.key) })).statusCode).toBe(200);
    const refused = await putLimits(readOnly.key, [eur(1, 1)]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe("forbidden");

    // Another Business sees none of these limits.
    expect((await putLimits(key, [eur(100, 100)])).statusCode).toBe(200);
    const other = await registerBusiness(t.app, "Other Limits Co");
    expect((await getLimits(other.keys.sandbox)).limits).toEqual([]);
  });
});
