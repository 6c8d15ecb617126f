// GET /v1/payouts filters beyond the spec's: channel, currency, created and updated ranges, amount range, and
// a failed payout's replacements. Each narrows the list to what a person asked for, they combine, cursor pages
// keep them, reversed ranges and malformed values are refused with the envelope, and another Business or
// environment never shows through.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payouts } from "../../src/modules/payouts/payouts.schema.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { createPayout, decide, newKey, payableBeneficiary } from "./payout-fixtures.js";

let t: TestApp;
let business: RegisteredBusiness;
let key: string;
const ids: Record<string, string> = {};
let t0: Date;
const actor = () => ({
  user_id: business.userId,
  membership_id: business.membershipId,
  role: "business_admin" as const,
  environment: "sandbox" as const,
});
let t1: Date;
let t2: Date;

async function list(query: string, k = key): Promise<{ ids: string[]; next: string | null }> {
  const response = await t.app.inject({ method: "GET", url: `/v1/payouts?${query}`, headers: bearer(k) });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { payouts: { payout_id: string }[]; next_cursor: string | null };
  return { ids: body.payouts.map((p) => p.payout_id), next: body.next_cursor };
}

beforeAll(async () => {
  t = await buildTestApp();
  business = await registerBusiness(t.app);
  key = business.keys.sandbox;
  const { beneficiaryId } = await payableBeneficiary(t.app, key);
  t0 = new Date(t.clock.now());
  ids.small = (await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 500 })).payout_id;
  t.clock.advance(60_000);
  t1 = new Date(t.clock.now());
  ids.medium = (await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 5_000 })).payout_id;
  t.clock.advance(60_000);
  t2 = new Date(t.clock.now());
  ids.large = (await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 50_000 })).payout_id;
  t.clock.advance(60_000);
  const bulk = await t.app.inject({
    method: "POST",
    url: "/v1/payouts/bulk",
    headers: bearer(key),
    payload: {
      uploadId: newKey("upload"),
      rows: [{ beneficiary_id: beneficiaryId, amount_minor: 5_000, currency: "EUR", idempotency_key: newKey() }],
    },
  });
  expect(bulk.statusCode, bulk.body).toBe(200);
  ids.csv = bulk.json().results[0].payout_id;
  t.clock.advance(60_000);
  // Approving the small one changes its updated_at to now, after every creation.
  const approve = await t.app.inject({
    method: "POST",
    url: `/v1/payouts/${ids.small}/approve`,
    headers: bearer(key),
    payload: {},
  });
  expect(approve.statusCode, approve.body).toBeLessThan(300);

  // Another Business and the production environment hold payouts that match every filter below.
  const other = await registerBusiness(t.app);
  const otherPayee = await payableBeneficiary(t.app, other.keys.sandbox);
  await createPayout(t.app, other.keys.sandbox, { beneficiary_id: otherPayee.beneficiaryId, amount_minor: 5_000 });
  const prodPayee = await payableBeneficiary(t.app, business.keys.production);
  await createPayout(t.app, business.keys.production, { beneficiary_id: prodPayee.beneficiaryId, amount_minor: 5_000 });
});
afterAll(async () => t?.close());

describe("payout list filters", () => {
  it("filters by channel", async () => {
    expect((await list("channel=csv")).ids).toEqual([ids.csv]);
    expect((await list("channel=api")).ids).toEqual([ids.large, ids.medium, ids.small]);
  });

  it("filters by currency", async () => {
    expect((await list("currency=EUR")).ids).toHaveLength(4);
    expect((await list("currency=USD")).ids).toEqual([]);
  });

  it("filters by amount range in minor units, both ends inclusive", async () => {
    expect((await list("amount_min=5000&amount_max=5000")).ids).toEqual([ids.csv, ids.medium]);
    expect((await list("amount_min=5001")).ids).toEqual([ids.large]);
    expect((await list("amount_max=4999")).ids).toEqual([ids.small]);
  });

  it("filters by created range, start inclusive and end exclusive", async () => {
    const from = encodeURIComponent(t1.toISOString());
    const to = encodeURIComponent(t2.toISOString());
    expect((await list(`created_from=${from}&created_to=${to}`)).ids).toEqual([ids.medium]);
    expect((await list(`created_to=${from}`)).ids).toEqual([ids.small]);
    expect((await list(`created_from=${encodeURIComponent(t0.toISOString())}`)).ids).toHaveLength(4);
  });

  it("filters by updated range: a payout changed later leaves a range that its creation fell in", async () => {
    const to = encodeURIComponent(new Date(t2.getTime() + 1).toISOString());
    // small was created at t0 but approved after the bulk upload: its updated_at is not in [t0, t2].
    expect((await list(`updated_from=${encodeURIComponent(t0.toISOString())}&updated_to=${to}`)).ids).toEqual([
      ids.large,
      ids.medium,
    ]);
    expect((await list(`updated_from=${encodeURIComponent(new Date(t2.getTime() + 120_000).toISOString())}`)).ids).toEqual([
      ids.small,
    ]);
  });

  it("combines filters with status and keeps them across cursor pages", async () => {
    expect((await list("status=pending_approval&amount_min=1000&channel=api")).ids).toEqual([ids.large, ids.medium]);
    const first = await list("currency=EUR&amount_min=1000&limit=1");
    expect(first.ids).toEqual([ids.csv]);
    const second = await list(`currency=EUR&amount_min=1000&limit=1&cursor=${first.next}`);
    expect(second.ids).toEqual([ids.large]);
    const third = await list(`currency=EUR&amount_min=1000&limit=1&cursor=${second.next}`);
    expect(third.ids).toEqual([ids.medium]);
    expect(third.next).toBeNull();
  });

  it("refuses a range whose end is not after its start, with the field named", async () => {
    const from = encodeURIComponent(t2.toISOString());
    const to = encodeURIComponent(t1.toISOString());
    for (const [query, field] of [
      [`created_from=${from}&created_to=${to}`, "created_to"],
      [`updated_from=${from}&updated_to=${from}`, "updated_to"],
      ["amount_min=500&amount_max=499", "amount_max"],
    ] as const) {
      const response = await t.app.inject({ method: "GET", url: `/v1/payouts?${query}`, headers: bearer(key) });
      expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor: actor() });
      expect(response.json().error.details).toEqual([expect.objectContaining({ field, code: "range_reversed" })]);
    }
  });

  it("refuses malformed filter values with the envelope, never a 500", async () => {
    for (const query of ["channel=fax", "currency=eur", "amount_min=0", "amount_max=1.5", "created_from=yesterday"]) {
      const response = await t.app.inject({ method: "GET", url: `/v1/payouts?${query}`, headers: bearer(key) });
      expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor: actor() });
    }
  });

  it("shows neither another Business's nor the other environment's payouts", async () => {
    const all = (await list("amount_min=5000&amount_max=5000")).ids;
    expect(all.sort()).toEqual([ids.csv, ids.medium].sort());
    const production = (await list("amount_min=5000&amount_max=5000", business.keys.production)).ids;
    expect(production).toHaveLength(1);
    expect(production).not.toContain(ids.medium);
  });
});

describe("a failed payout's replacements (replaces_payout_id)", () => {
  const db = () => t.runtime.deps.database.db;
  async function fail(payoutId: string): Promise<void> {
    await db().update(payouts).set({ status: "failed", failureReason: "Account closed" }).where(eq(payouts.id, payoutId));
  }

  it("lists every replacement of the payout, live and ended, and nothing else, across pages", async () => {
    // A Business of its own, so the other tests' counts stay as they are.
    const owner = await registerBusiness(t.app);
    const k = owner.keys.sandbox;
    const { beneficiaryId } = await payableBeneficiary(t.app, k);
    const failed = (await createPayout(t.app, k, { beneficiary_id: beneficiaryId })).payout_id;
    await fail(failed);
    const otherFailed = (await createPayout(t.app, k, { beneficiary_id: beneficiaryId })).payout_id;
    await fail(otherFailed);

    // Two replacements that ended without moving money (rejected, failed), then the live one; the same
    // Beneficiary's other payouts, and another failed payout's replacement, come in between.
    const rejected = (await createPayout(t.app, k, { beneficiary_id: beneficiaryId, replaces_payout_id: failed })).payout_id;
    expect((await decide(t.app, k, rejected, "reject")).statusCode).toBe(201);
    await createPayout(t.app, k, { beneficiary_id: beneficiaryId });
    const failedAgain = (await createPayout(t.app, k, { beneficiary_id: beneficiaryId, replaces_payout_id: failed })).payout_id;
    await fail(failedAgain);
    await createPayout(t.app, k, { beneficiary_id: beneficiaryId, replaces_payout_id: otherFailed });
    const live = (await createPayout(t.app, k, { beneficiary_id: beneficiaryId, replaces_payout_id: failed })).payout_id;
    await createPayout(t.app, k, { beneficiary_id: beneficiaryId });

    expect((await list(`replaces_payout_id=${failed}`, k)).ids).toEqual([live, failedAgain, rejected]);
    // Upper case names the same payout.
    expect((await list(`replaces_payout_id=${failed.toUpperCase()}`, k)).ids).toEqual([live, failedAgain, rejected]);
    // Combined with another filter.
    expect((await list(`replaces_payout_id=${failed}&status=pending_approval`, k)).ids).toEqual([live]);
    // Pages keep the filter.
    const first = await list(`replaces_payout_id=${failed}&limit=2`, k);
    expect(first.ids).toEqual([live, failedAgain]);
    const second = await list(`replaces_payout_id=${failed}&limit=2&cursor=${first.next}`, k);
    expect(second.ids).toEqual([rejected]);
    expect(second.next).toBeNull();
    // A payout that replaces nothing has no replacements.
    expect((await list(`replaces_payout_id=${live}`, k)).ids).toEqual([]);
  });

  it("shows neither another Business's nor the other environment's payouts naming the same id", async () => {
    const owner = await registerBusiness(t.app);
    const { beneficiaryId } = await payableBeneficiary(t.app, owner.keys.sandbox);
    const failed = (await createPayout(t.app, owner.keys.sandbox, { beneficiary_id: beneficiaryId })).payout_id;
    await fail(failed);
    const replacement = (
      await createPayout(t.app, owner.keys.sandbox, { beneficiary_id: beneficiaryId, replaces_payout_id: failed })
    ).payout_id;
    // The API refuses to replace another tenant's payout, so these rows are written directly: ended, so the
    // live-replacement key (which is not per tenant) allows them beside the live one.
    const stranger = await registerBusiness(t.app);
    const strangers = (
      await createPayout(t.app, stranger.keys.sandbox, {
        beneficiary_id: (await payableBeneficiary(t.app, stranger.keys.sandbox)).beneficiaryId,
      })
    ).payout_id;
    const production = (
      await createPayout(t.app, owner.keys.production, {
        beneficiary_id: (await payableBeneficiary(t.app, owner.keys.production)).beneficiaryId,
      })
    ).payout_id;
    for (const id of [strangers, production])
      await db().update(payouts).set({ replacesPayoutId: failed, status: "canceled" }).where(eq(payouts.id, id));

    expect((await list(`replaces_payout_id=${failed}`, owner.keys.sandbox)).ids).toEqual([replacement]);
    // Each of the others sees only its own row.
    expect((await list(`replaces_payout_id=${failed}`, owner.keys.production)).ids).toEqual([production]);
    expect((await list(`replaces_payout_id=${failed}`, stranger.keys.sandbox)).ids).toEqual([strangers]);
  });

  it("refuses a malformed id with the envelope", async () => {
    for (const value of ["not-a-uuid", "", "01900000-0000-7000-8000-00000000000"]) {
      const response = await t.app.inject({
        method: "GET",
        url: `/v1/payouts?replaces_payout_id=${value}`,
        headers: bearer(key),
      });
      expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor: actor() });
    }
  });
});
