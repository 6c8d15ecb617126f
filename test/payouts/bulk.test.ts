// POST /v1/payouts/bulk: the same write path as single payouts, per-row results, replay of a re-upload,
// bad rows reported without aborting the file, and the combined idempotency key.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payouts } from "../../src/modules/payouts/payouts.schema.js";
import { queryRows } from "../../src/platform/db/client.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { asPerson } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { createPayout, newKey, payableBeneficiary, payoutEvents } from "./payout-fixtures.js";

let t: TestApp;
let business: RegisteredBusiness;
let key: string;
let payee: { beneficiaryId: string; destinationId: string };
const db = () => t.runtime.deps.database.db;

beforeAll(async () => {
  t = await buildTestApp();
  business = await registerBusiness(t.app);
  key = business.keys.sandbox;
  payee = await payableBeneficiary(t.app, key);
});
afterAll(async () => t?.close());

const bulk = (payload: unknown, k = key) =>
  t.app.inject({ method: "POST", url: "/v1/payouts/bulk", headers: bearer(k), payload: payload as Record<string, unknown> });

const row = (i: number, extra: Record<string, unknown> = {}) => ({
  beneficiary_id: payee.beneficiaryId,
  bank_account_id: payee.destinationId,
  amount_minor: 100 + i,
  currency: "EUR",
  external_ref: `row-${i}`,
  ...extra,
});

async function payoutsOfUpload(uploadId: string): Promise<number> {
  const [r] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from payouts where upload_id = ${uploadId}`);
  return r?.n ?? 0;
}

describe("bulk payouts", () => {
  it("creates one payout per row, tagged csv and with the upload id, and replays a byte-identical re-upload", async () => {
    const uploadId = newKey("sha256");
    const rows = Array.from({ length: 600 }, (_, i) => row(i));
    const first = await bulk({ uploadId, rows });
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ upload_id: uploadId, created: 600, replayed: 0, failed: 0 });
    expect(body.results.map((r: { index: number }) => r.index)).toEqual(rows.map((_, i) => i));
    expect(body.results[0]).toMatchObject({ index: 0, status: "created", payout_status: "pending_approval", error: null });

    const one = await t.app.inject({ method: "GET", url: `/v1/payouts/${body.results[5].payout_id}`, headers: bearer(key) });
    expect(one.json()).toMatchObject({
      channel: "csv",
      upload_id: uploadId,
      amount_minor: 105,
      external_ref: "row-5",
      idempotency_key: `upload:${uploadId}:5`,
    });
    const listed = await t.app.inject({
      method: "GET",
      url: `/v1/payouts?upload_id=${uploadId}&limit=200`,
      headers: bearer(key),
    });
    expect(listed.json().payouts).toHaveLength(200);

    const again = await bulk({ uploadId, rows });
    expect(again.json()).toMatchObject({ created: 0, replayed: 600, failed: 0 });
    expect(again.json().results.map((r: { payout_id: string }) => r.payout_id)).toEqual(
      body.results.map((r: { payout_id: string }) => r.payout_id),
    );
    expect(await payoutsOfUpload(uploadId)).toBe(600);
  });

  it("reports bad rows with their code and keeps the good ones", async () => {
    const uploadId = newKey("mixed");
    const archived = await payableBeneficiary(t.app, key);
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${archived.beneficiaryId}/archive`, headers: bearer(key) });
    const rows = [
      row(0),
      { ...row(1), amount_minor: -1 },
      "not an object",
      row(3, { currency: "USD" }),
      row(4, { beneficiary_id: archived.beneficiaryId, bank_account_id: archived.destinationId }),
      row(5, { beneficiary_id: "01900000-0000-7000-8000-000000000000" }),
      row(6, { currency: "QQQ" }),
      row(7),
    ];
    const response = await bulk({ uploadId, rows });
    expect(response.statusCode).toBe(200);
    const results = response.json().results as Array<{
      index: number;
      status: string;
      error: { code: string; details?: unknown } | null;
    }>;
    expect(results.map((r) => [r.index, r.status, r.error?.code ?? null])).toEqual([
      [0, "created", null],
      [1, "failed", "validation_failed"],
      [2, "failed", "validation_failed"],
      [3, "failed", "CURRENCY_MISMATCH"],
      [4, "failed", "BENEFICIARY_ARCHIVED"],
      [5, "failed", "not_found"],
      [6, "failed", "validation_failed"],
      [7, "created", null],
    ]);
    expect(JSON.stringify(results[1]?.error)).toContain("rows[1].amount_minor");
    expect(await payoutsOfUpload(uploadId)).toBe(2);

    // The failed rows stored nothing: fixed in a re-upload under the same upload id, they are created.
    const fixed = await bulk({ uploadId, rows: rows.map((r, i) => (i === 3 ? row(3) : r)) });
    expect(fixed.json().results[3]).toMatchObject({ status: "created" });
    expect(fixed.json().results[0]).toMatchObject({ status: "replayed" });
  });

  it("combines a row's own idempotency key with the derived one, and refuses a changed row under the same key", async () => {
    const uploadId = newKey("own");
    const first = await bulk({ uploadId, rows: [row(0, { idempotency_key: "abc" })] });
    const created = first.json().results[0];
    const one = await t.app.inject({ method: "GET", url: `/v1/payouts/${created.payout_id}`, headers: bearer(key) });
    expect(one.json().idempotency_key).toBe(`upload:${uploadId}:0:abc`);
    const changed = await bulk({ uploadId, rows: [row(0, { idempotency_key: "abc", amount_minor: 999 })] });
    expect(changed.json().results[0]).toMatchObject({ status: "failed", error: { code: "IDEMPOTENCY_KEY_REUSED" } });
    const otherKey = await bulk({ uploadId, rows: [row(0, { idempotency_key: "def" })] });
    expect(otherKey.json().results[0]).toMatchObject({ status: "created" });
  });

  it("applies the approval policy to bulk rows (channel csv) and records the same events", async () => {
    const b = await registerBusiness(t.app, "Bulk Policy Co");
    const k = b.keys.sandbox;
    const p = await payableBeneficiary(t.app, k);
    await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      // An approve rule loosens the policy: a person sets it, not a key (CONTROL_WEAKENING_NEEDS_PERSON).
      headers: await asPerson(t.app, b.email),
      payload: { rules: [{ name: "csv-ok", outcome: "approve", channels: ["csv"] }] },
    });
    const response = await bulk(
      { uploadId: newKey(), rows: [{ ...row(0), beneficiary_id: p.beneficiaryId, bank_account_id: p.destinationId }] },
      k,
    );
    const result = response.json().results[0];
    expect(result).toMatchObject({ status: "created", payout_status: "approved" });
    await t.runtime.createWorker("bulk-w").drain();
    expect((await payoutEvents(db(), result.payout_id)).map((e) => e.type)).toContain("payout.disbursed");
  });

  it("replaces failed payouts row by row, with the same checks and codes as the single route", async () => {
    const failedPayout = async (k: string, beneficiaryId: string): Promise<string> => {
      const payout = await createPayout(t.app, k, { beneficiary_id: beneficiaryId });
      await db()
        .update(payouts)
        .set({ status: "failed", failureReason: "Account closed" })
        .where(eq(payouts.id, payout.payout_id));
      return payout.payout_id;
    };
    const failedA = await failedPayout(key, payee.beneficiaryId);
    const failedB = await failedPayout(key, payee.beneficiaryId);
    const alreadyReplaced = await failedPayout(key, payee.beneficiaryId);
    const replacement = await createPayout(t.app, key, {
      beneficiary_id: payee.beneficiaryId,
      replaces_payout_id: alreadyReplaced,
    });
    const pending = await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId });
    const other = await payableBeneficiary(t.app, key);
    const othersFailed = await failedPayout(key, other.beneficiaryId);
    const stranger = await registerBusiness(t.app, "Bulk Stranger Co");
    const strangersFailed = await failedPayout(
      stranger.keys.sandbox,
      (await payableBeneficiary(t.app, stranger.keys.sandbox)).beneficiaryId,
    );

    const uploadId = newKey("replacements");
    const rows = [
      row(0, { replaces_payout_id: failedA.toUpperCase() }),
      row(1, { replaces_payout_id: failedA }),
      row(2, { replaces_payout_id: pending.payout_id }),
      row(3, { replaces_payout_id: othersFailed }),
      row(4, { replaces_payout_id: strangersFailed }),
      row(5, { replaces_payout_id: "01900000-0000-7000-8000-000000000000" }),
      row(6, { replaces_payout_id: alreadyReplaced }),
      row(7, { replaces_payout_id: failedB }),
      row(8, { replaces_payout_id: "not-a-uuid" }),
      row(9),
    ];
    const response = await bulk({ uploadId, rows });
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json().results as Array<{ index: number; status: string; error: { code: string } | null }>;
    expect(results.map((r) => [r.index, r.status, r.error?.code ?? null])).toEqual([
      [0, "created", null],
      [1, "failed", "PAYOUT_ALREADY_REPLACED"],
      [2, "failed", "REPLACED_PAYOUT_NOT_FAILED"],
      [3, "failed", "REPLACEMENT_BENEFICIARY_MISMATCH"],
      [4, "failed", "REPLACED_PAYOUT_NOT_FOUND"],
      [5, "failed", "REPLACED_PAYOUT_NOT_FOUND"],
      [6, "failed", "PAYOUT_ALREADY_REPLACED"],
      [7, "created", null],
      [8, "failed", "validation_failed"],
      [9, "created", null],
    ]);
    const made = response.json().results[0];
    const read = await t.app.inject({ method: "GET", url: `/v1/payouts/${made.payout_id}`, headers: bearer(key) });
    expect(read.json()).toMatchObject({ replaces_payout_id: failedA, channel: "csv", upload_id: uploadId });
    const [replacements] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from payouts where replaces_payout_id = any(${`{${failedA},${alreadyReplaced}}`}::uuid[])`,
    );
    expect(replacements?.n).toBe(2); // the single route's replacement and row 0, nothing more

    // A refused row stored nothing: once the live replacement is rejected, the same file creates row 6.
    await t.app.inject({ method: "POST", url: `/v1/payouts/${replacement.payout_id}/reject`, headers: bearer(key) });
    const again = await bulk({ uploadId, rows });
    expect(again.json().results[6]).toMatchObject({ status: "created", error: null });
    expect(again.json().results[0]).toMatchObject({ status: "replayed", payout_id: made.payout_id });
    expect(again.json().results[1]).toMatchObject({ status: "failed", error: { code: "PAYOUT_ALREADY_REPLACED" } });
  });

  it("validates the envelope: 1 to 1000 rows and an uploadId", async () => {
    const actor = {
      user_id: business.userId,
      membership_id: business.membershipId,
      role: "business_admin" as const,
      environment: "sandbox" as const,
    };
    expectErrorEnvelope(await bulk({ uploadId: "x", rows: [] }), { status: 400, code: "validation_failed", actor });
    expectErrorEnvelope(await bulk({ rows: [row(0)] }), { status: 400, code: "validation_failed", actor });
    const tooMany = Array.from({ length: 1001 }, (_, i) => row(i));
    expectErrorEnvelope(await bulk({ uploadId: "x", rows: tooMany }), { status: 400, code: "validation_failed", actor });
  });

  it("takes amount in currency units as well as amount_minor, and refuses per row too many decimals or two amounts that disagree", async () => {
    const uploadId = newKey("amounts");
    const { amount_minor: _m, ...noMinor } = row(0);
    const rows = [
      { ...noMinor, amount: "12.50", external_ref: "units" },
      { ...noMinor, amount: "12.50", amount_minor: 1250, external_ref: "both" },
      { ...noMinor, amount: "12.505", external_ref: "decimals" },
      { ...noMinor, amount: "12.50", amount_minor: 125, external_ref: "disagree" },
      { ...noMinor, external_ref: "none" },
      { ...noMinor, amount: "1,250.00", external_ref: "separator" },
    ];
    const answer = await bulk({ uploadId, rows });
    expect(answer.statusCode, answer.body).toBe(200);
    const results = answer.json().results;
    expect(results.map((r: { status: string }) => r.status)).toEqual([
      "created",
      "created",
      "failed",
      "failed",
      "failed",
      "failed",
    ]);
    const payout = await t.app.inject({ method: "GET", url: `/v1/payouts/${results[0].payout_id}`, headers: bearer(key) });
    expect(payout.json()).toMatchObject({ amount_minor: 1250, amount: "12.50" });
    expect(results[2].error).toEqual({
      code: "validation_failed",
      message: expect.any(String),
      details: [{ field: "rows[2].amount", code: "too_many_decimals", message: "EUR has at most 2 decimals: 12.505 has 3." }],
    });
    expect(results[3].error.details).toEqual([
      {
        field: "rows[3].amount",
        code: "amounts_disagree",
        message: "amount 12.50 EUR is 1250 minor units but amount_minor is 125: give one of them, or make them equal.",
      },
    ]);
    expect(results[4].error.details).toEqual([expect.objectContaining({ field: "rows[4].amount_minor", code: "required" })]);
    expect(results[5].error.details).toEqual([expect.objectContaining({ field: "rows[5].amount", code: "invalid_format" })]);
    expect(await payoutsOfUpload(uploadId)).toBe(2);
  });

  it("normalises a SHA-256 upload id to sha256-<lowercase hex>, so the dashboard's old bare form and the client's are one upload", async () => {
    const hex = "AB".repeat(32);
    const first = await bulk({ uploadId: hex, rows: [row(0, { external_ref: "norm" })] });
    expect(first.json()).toMatchObject({ upload_id: `sha256-${hex.toLowerCase()}`, created: 1 });
    const again = await bulk({ uploadId: `sha256-${hex.toLowerCase()}`, rows: [row(0, { external_ref: "norm" })] });
    expect(again.json()).toMatchObject({ created: 0, replayed: 1 });
    const listed = await t.app.inject({ method: "GET", url: `/v1/payouts?upload_id=${hex}`, headers: bearer(key) });
    expect(listed.json().payouts).toHaveLength(1);
    expect(await payoutsOfUpload(`sha256-${hex.toLowerCase()}`)).toBe(1);
  });
});
