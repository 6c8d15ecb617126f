// POST /v1/payouts: response shape, idempotency (replay, reuse, the 24-hour window on the injected clock,
// nothing stored on refusal), every gate with its code, destination resolution, replacement, and the reads.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beneficiaries } from "../../src/modules/beneficiaries/beneficiaries.schema.js";
import { destinations } from "../../src/modules/destinations/destinations.schema.js";
import { payouts } from "../../src/modules/payouts/payouts.schema.js";
import { queryRows } from "../../src/platform/db/client.js";
import { CORRIDORS } from "../destinations/destination-fixtures.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { createPayout, newKey, PERSON_IDENTITY, payableBeneficiary, postPayout } from "./payout-fixtures.js";

let t: TestApp;
let business: RegisteredBusiness;
let key: string;
const db = () => t.runtime.deps.database.db;
const actor = () => ({
  user_id: business.userId,
  membership_id: business.membershipId,
  role: "business_admin" as const,
  environment: "sandbox" as const,
});

beforeAll(async () => {
  t = await buildTestApp();
  business = await registerBusiness(t.app);
  key = business.keys.sandbox;
});
afterAll(async () => t?.close());

async function countPayouts(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from payouts`);
  return row?.n ?? 0;
}

describe("creation", () => {
  it("answers 201 with the documented shape and status pending_approval", async () => {
    const { beneficiaryId, destinationId } = await payableBeneficiary(t.app, key);
    const response = await postPayout(t.app, key, {
      beneficiary_id: beneficiaryId,
      bank_account_id: destinationId,
      amount_minor: 1050,
      currency: "EUR",
      external_ref: "invoice-7",
      idempotency_key: newKey(),
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers["idempotent-replayed"]).toBeUndefined();
    const body = response.json();
    expect(body).toMatchObject({
      status: "pending_approval",
      environment: "sandbox",
      amount_minor: 1050,
      amount: "10.50",
      currency: "EUR",
      beneficiary_id: beneficiaryId,
      bank_account_id: destinationId,
      destination_last4: "3000",
      external_ref: "invoice-7",
      channel: "api",
      upload_id: null,
      replaces_payout_id: null,
      rail: null,
      rail_ref: null,
      disbursement_status: null,
      failure_reason: null,
    });
    expect(body.payout_id).toMatch(/^[0-9a-f-]{36}$/);
    const read = await t.app.inject({ method: "GET", url: `/v1/payouts/${body.payout_id}`, headers: bearer(key) });
    expect(read.json()).toEqual(body);
  });

  it("formats the amount by the currency's exponent (JPY has none)", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key, CORRIDORS.us_aba.body);
    const usd = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 5, currency: "USD" });
    expect(usd.amount).toBe("0.05");
  });

  it("takes the idempotency key from the Idempotency-Key header when the body has none", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const headerKey = newKey("header");
    const body = { beneficiary_id: beneficiaryId, amount_minor: 100, currency: "EUR" };
    const first = await postPayout(t.app, key, body, { "idempotency-key": headerKey });
    expect(first.statusCode).toBe(201);
    expect(first.json().idempotency_key).toBe(headerKey);
    const again = await postPayout(t.app, key, body, { "idempotency-key": headerKey });
    expect(again.statusCode).toBe(200);
    expect(again.json().payout_id).toBe(first.json().payout_id);
  });

  it("refuses a request without any idempotency key", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const response = await postPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 100, currency: "EUR" });
    expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor: actor() });
    expect(response.json().error.details[0]).toMatchObject({ field: "idempotency_key", code: "required" });
  });

  it.each([
    [{ amount_minor: 0 }, "amount_minor"],
    [{ amount_minor: -5 }, "amount_minor"],
    [{ amount_minor: 12.5 }, "amount_minor"],
    [{ amount_minor: Number.MAX_SAFE_INTEGER + 1 }, "amount_minor"],
    [{ amount_minor: "100" }, "amount_minor"],
    [{ currency: "eur" }, "currency"],
    [{ currency: "ZZZ" }, "currency"],
    [{ currency: "XAU" }, "currency"],
    [{ beneficiary_id: "not-a-uuid" }, "beneficiary_id"],
    [{ surprise: true }, "surprise"],
  ])("refuses %j with validation_failed naming %s", async (patch, field) => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const response = await postPayout(t.app, key, {
      beneficiary_id: beneficiaryId,
      amount_minor: 100,
      currency: "EUR",
      idempotency_key: newKey(),
      ...patch,
    });
    expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor: actor() });
    expect(JSON.stringify(response.json().error.details)).toContain(field);
  });
});

describe("idempotency", () => {
  it("replays the same request with 200 and Idempotent-Replayed, creating nothing", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const body = { beneficiary_id: beneficiaryId, amount_minor: 700, currency: "EUR", idempotency_key: newKey() };
    const first = await postPayout(t.app, key, body);
    const before = await countPayouts();
    const replay = await postPayout(t.app, key, { ...body, beneficiary_id: beneficiaryId.toUpperCase() });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json()).toEqual(first.json());
    expect(await countPayouts()).toBe(before);
  });

  it("refuses the same key with a different request (422) and stores nothing", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const body = { beneficiary_id: beneficiaryId, amount_minor: 700, currency: "EUR", idempotency_key: newKey() };
    await postPayout(t.app, key, body);
    const before = await countPayouts();
    const reused = await postPayout(t.app, key, { ...body, amount_minor: 701 });
    expectErrorEnvelope(reused, { status: 422, code: "IDEMPOTENCY_KEY_REUSED", actor: actor() });
    expect(await countPayouts()).toBe(before);
  });

  it("scopes keys per environment: the same key in production is another payout", async () => {
    const sandboxPayee = await payableBeneficiary(t.app, key);
    const productionPayee = await payableBeneficiary(t.app, business.keys.production);
    const shared = newKey("shared");
    const a = await postPayout(t.app, key, {
      beneficiary_id: sandboxPayee.beneficiaryId,
      amount_minor: 1,
      currency: "EUR",
      idempotency_key: shared,
    });
    const b = await postPayout(t.app, business.keys.production, {
      beneficiary_id: productionPayee.beneficiaryId,
      amount_minor: 1,
      currency: "EUR",
      idempotency_key: shared,
    });
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
  });

  it("keeps a key for 24 hours, then lets it name a new payout", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const body = { beneficiary_id: beneficiaryId, amount_minor: 900, currency: "EUR", idempotency_key: newKey("window") };
    const first = await postPayout(t.app, key, body);
    t.clock.advance(24 * 3_600_000 - 1_000);
    const inside = await postPayout(t.app, key, body);
    expect(inside.statusCode).toBe(200);
    expect(inside.json().payout_id).toBe(first.json().payout_id);
    t.clock.advance(2_000);
    const after = await postPayout(t.app, key, body);
    expect(after.statusCode).toBe(201);
    expect(after.json().payout_id).not.toBe(first.json().payout_id);
    // The new payout now owns the key for the next 24 hours.
    const replay = await postPayout(t.app, key, body);
    expect(replay.json().payout_id).toBe(after.json().payout_id);
  });

  it("stores nothing when a gate refuses, so the key can be used once the cause is fixed", async () => {
    const beneficiary = await createBeneficiary(t.app, key, PERSON_IDENTITY);
    await registerBankAccount(t.app, key, beneficiary.id);
    const body = { beneficiary_id: beneficiary.id, amount_minor: 100, currency: "EUR", idempotency_key: newKey() };
    const refused = await postPayout(t.app, key, body);
    expectErrorEnvelope(refused, { status: 422, code: "BENEFICIARY_NOT_COMPLIANT", actor: actor() });
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(key) });
    const created = await postPayout(t.app, key, body);
    expect(created.statusCode).toBe(201);
  });
});

describe("gates", () => {
  async function refusedWith(beneficiaryId: string, code: string, status: number, extra: Record<string, unknown> = {}) {
    const before = await countPayouts();
    const response = await postPayout(t.app, key, {
      beneficiary_id: beneficiaryId,
      amount_minor: 100,
      currency: "EUR",
      idempotency_key: newKey(),
      ...extra,
    });
    expectErrorEnvelope(response, { status, code, actor: actor() });
    expect(await countPayouts()).toBe(before);
    return response;
  }

  it("refuses an unknown Beneficiary with not_found", async () => {
    await refusedWith("01900000-0000-7000-8000-000000000000", "not_found", 404);
  });

  it("refuses an archived Beneficiary (BENEFICIARY_ARCHIVED)", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiaryId}/archive`, headers: bearer(key) });
    await refusedWith(beneficiaryId, "BENEFICIARY_ARCHIVED", 422);
  });

  it("refuses while re-acknowledgment is required (REACKNOWLEDGMENT_REQUIRED)", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const update = await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${beneficiaryId}`,
      headers: bearer(key),
      payload: { last_name: "Smith" },
    });
    expect(update.json().reacknowledgment_required).toBe(true);
    await refusedWith(beneficiaryId, "REACKNOWLEDGMENT_REQUIRED", 422);
  });

  it("refuses a Beneficiary not yet compliant (BENEFICIARY_NOT_COMPLIANT) or suspended (BENEFICIARY_SUSPENDED)", async () => {
    const pending = await createBeneficiary(t.app, key, PERSON_IDENTITY);
    await registerBankAccount(t.app, key, pending.id);
    await refusedWith(pending.id, "BENEFICIARY_NOT_COMPLIANT", 422);
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    await db().update(beneficiaries).set({ complianceStatus: "suspended" }).where(eq(beneficiaries.id, beneficiaryId));
    await refusedWith(beneficiaryId, "BENEFICIARY_SUSPENDED", 409);
  });

  it("refuses a Beneficiary whose enrollment the rail rejected (BENEFICIARY_ENROLLMENT_REJECTED)", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    await db().update(beneficiaries).set({ enrollmentStatus: "rejected" }).where(eq(beneficiaries.id, beneficiaryId));
    await refusedWith(beneficiaryId, "BENEFICIARY_ENROLLMENT_REJECTED", 422);
  });

  it("refuses an unknown, another Beneficiary's, or a deleted destination (BANK_ACCOUNT_NOT_FOUND)", async () => {
    const { beneficiaryId, destinationId } = await payableBeneficiary(t.app, key);
    const other = await payableBeneficiary(t.app, key);
    await refusedWith(beneficiaryId, "BANK_ACCOUNT_NOT_FOUND", 404, { bank_account_id: other.destinationId });
    await refusedWith(beneficiaryId, "BANK_ACCOUNT_NOT_FOUND", 404, { bank_account_id: "01900000-0000-7000-8000-000000000000" });
    await t.app.inject({
      method: "DELETE",
      url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts/${destinationId}`,
      headers: bearer(key),
    });
    await refusedWith(beneficiaryId, "BANK_ACCOUNT_NOT_FOUND", 404, { bank_account_id: destinationId });
  });

  it("refuses a destination that is not payout-usable, naming the failing check", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const swift = await unverifiedSwiftAccount(beneficiaryId);
    expect(swift.payout_usable).toBe(false);
    await refusedWith(beneficiaryId, "BANK_ACCOUNT_NOT_VALIDATED", 422, { bank_account_id: swift.id, currency: "JPY" });
    const refusedByRail = await registerBankAccount(t.app, key, beneficiaryId, CORRIDORS.gb_sort_code.body);
    await db()
      .update(destinations)
      .set({ status: "rejected", railRejectionReason: "Account closed" })
      .where(eq(destinations.id, refusedByRail.id));
    await refusedWith(beneficiaryId, "BANK_ACCOUNT_REJECTED", 422, { bank_account_id: refusedByRail.id, currency: "GBP" });
  });

  it("refuses a currency other than the destination's (CURRENCY_MISMATCH)", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const response = await refusedWith(beneficiaryId, "CURRENCY_MISMATCH", 422, { currency: "USD" });
    expect(response.json().error.message).toContain("EUR");
  });
});

/**
 * A SWIFT-only (unvalidated) account the rail has not verified. Registering it for a compliant Beneficiary
 * enrolls it and the rail verifies it (enrollment), so it is put back to `unverified`, as it is
 * before enrollment, to reach the validation gate.
 */
async function unverifiedSwiftAccount(beneficiaryId: string) {
  const swift = await registerBankAccount(t.app, key, beneficiaryId, CORRIDORS.jp_swift.body);
  await db().update(destinations).set({ status: "unverified" }).where(eq(destinations.id, swift.id));
  const listed = await t.app.inject({
    method: "GET",
    url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts`,
    headers: bearer(key),
  });
  const found = (listed.json() as { bank_accounts: Array<{ id: string; payout_usable: boolean }> }).bank_accounts.find(
    (account) => account.id === swift.id,
  );
  if (found === undefined) throw new Error("registered account not listed");
  return found;
}

describe("destination resolution", () => {
  it("uses the declared destination when set, and never another in its place", async () => {
    const { beneficiaryId, destinationId } = await payableBeneficiary(t.app, key);
    const second = await registerBankAccount(t.app, key, beneficiaryId, CORRIDORS.gb_sort_code.body);
    await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${beneficiaryId}/declared-destination`,
      headers: bearer(key),
      payload: { destination_id: second.id },
    });
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, currency: "GBP" });
    expect(payout.bank_account_id).toBe(second.id);
    // The declared one is GBP: an EUR payout is refused rather than sent to the EUR account.
    const eur = await postPayout(t.app, key, {
      beneficiary_id: beneficiaryId,
      amount_minor: 1,
      currency: "EUR",
      idempotency_key: newKey(),
    });
    expectErrorEnvelope(eur, { status: 422, code: "CURRENCY_MISMATCH", actor: actor() });
    // Naming a destination still wins over the declaration.
    const named = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, bank_account_id: destinationId });
    expect(named.bank_account_id).toBe(destinationId);
  });

  it("uses the only payout-usable destination when none is declared, ignoring unusable ones", async () => {
    const { beneficiaryId, destinationId } = await payableBeneficiary(t.app, key);
    await unverifiedSwiftAccount(beneficiaryId);
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
    expect(payout.bank_account_id).toBe(destinationId);
  });

  it("refuses as ambiguous with several usable destinations, and with none", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    await registerBankAccount(t.app, key, beneficiaryId, CORRIDORS.gb_sort_code.body);
    const ambiguous = await postPayout(t.app, key, {
      beneficiary_id: beneficiaryId,
      amount_minor: 1,
      currency: "EUR",
      idempotency_key: newKey(),
    });
    expectErrorEnvelope(ambiguous, { status: 422, code: "DESTINATION_AMBIGUOUS", actor: actor() });

    const bare = await createBeneficiary(t.app, key, PERSON_IDENTITY);
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${bare.id}/acknowledge`, headers: bearer(key) });
    const none = await postPayout(t.app, key, {
      beneficiary_id: bare.id,
      amount_minor: 1,
      currency: "EUR",
      idempotency_key: newKey(),
    });
    expectErrorEnvelope(none, { status: 422, code: "NO_PAYOUT_DESTINATION", actor: actor() });
  });
});

describe("replacement", () => {
  async function failedPayout(beneficiaryId: string): Promise<string> {
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
    await db().update(payouts).set({ status: "failed", failureReason: "Account closed" }).where(eq(payouts.id, payout.payout_id));
    return payout.payout_id;
  }

  it("recovers a failed payout once; a second live replacement is refused", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const failedId = await failedPayout(beneficiaryId);
    const replacement = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, replaces_payout_id: failedId });
    expect(replacement.replaces_payout_id).toBe(failedId);
    const second = await postPayout(t.app, key, {
      beneficiary_id: beneficiaryId,
      amount_minor: 1234,
      currency: "EUR",
      idempotency_key: newKey(),
      replaces_payout_id: failedId,
    });
    expectErrorEnvelope(second, { status: 409, code: "PAYOUT_ALREADY_REPLACED", actor: actor() });
    // Once the replacement itself is rejected, it no longer counts as live.
    await t.app.inject({ method: "POST", url: `/v1/payouts/${replacement.payout_id}/reject`, headers: bearer(key) });
    const third = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, replaces_payout_id: failedId });
    expect(third.replaces_payout_id).toBe(failedId);
  });

  it("refuses replacing a payout that is not failed, of another Beneficiary, or unknown", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const pending = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
    const other = await payableBeneficiary(t.app, key);
    const otherFailed = await failedPayout(other.beneficiaryId);
    const attempt = (replaces: string) =>
      postPayout(t.app, key, {
        beneficiary_id: beneficiaryId,
        amount_minor: 1,
        currency: "EUR",
        idempotency_key: newKey(),
        replaces_payout_id: replaces,
      });
    expectErrorEnvelope(await attempt(pending.payout_id), { status: 422, code: "REPLACED_PAYOUT_NOT_FAILED", actor: actor() });
    expectErrorEnvelope(await attempt(otherFailed), { status: 422, code: "REPLACEMENT_BENEFICIARY_MISMATCH", actor: actor() });
    expectErrorEnvelope(await attempt("01900000-0000-7000-8000-000000000000"), {
      status: 422,
      code: "REPLACED_PAYOUT_NOT_FOUND",
      actor: actor(),
    });
  });
});

describe("reads", () => {
  it("lists newest first with filters and cursor pages", async () => {
    const other = await registerBusiness(t.app, "List Co");
    const k = other.keys.sandbox;
    const a = await payableBeneficiary(t.app, k);
    const b = await payableBeneficiary(t.app, k);
    const created = [];
    for (let i = 0; i < 5; i += 1) {
      created.push(
        await createPayout(t.app, k, { beneficiary_id: i < 3 ? a.beneficiaryId : b.beneficiaryId, external_ref: `ref-${i}` }),
      );
    }
    const list = async (query: string) => {
      const response = await t.app.inject({ method: "GET", url: `/v1/payouts${query}`, headers: bearer(k) });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { payouts: Array<{ payout_id: string }>; next_cursor: string | null };
    };
    const all = await list("");
    expect(all.payouts.map((p) => p.payout_id)).toEqual(created.map((p) => p.payout_id).reverse());
    const first = await list("?limit=2");
    expect(first.payouts).toHaveLength(2);
    const second = await list(`?limit=2&cursor=${first.next_cursor}`);
    expect(second.payouts.map((p) => p.payout_id)).toEqual([created[2]?.payout_id, created[1]?.payout_id]);
    expect((await list(`?beneficiary_id=${b.beneficiaryId}`)).payouts).toHaveLength(2);
    expect((await list("?external_ref=ref-1")).payouts.map((p) => p.payout_id)).toEqual([created[1]?.payout_id]);
    expect((await list("?status=approved")).payouts).toHaveLength(0);
    const bad = await t.app.inject({ method: "GET", url: "/v1/payouts?cursor=bogus", headers: bearer(k) });
    expect(bad.statusCode).toBe(400);
  });

  it("lists the payouts changed since a time, oldest change first, across pages", async () => {
    const other = await registerBusiness(t.app, "Catch-up Co");
    const k = other.keys.sandbox;
    const payee = await payableBeneficiary(t.app, k);
    const old = await createPayout(t.app, k, { beneficiary_id: payee.beneficiaryId });
    t.clock.advance(60_000);
    const since = t.clock.now().toISOString();
    const fresh = [];
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1_000);
      fresh.push(await createPayout(t.app, k, { beneficiary_id: payee.beneficiaryId }));
    }
    t.clock.advance(1_000);
    // A change to the old payout brings it back into the catch-up window, after the others.
    await t.app.inject({ method: "POST", url: `/v1/payouts/${old.payout_id}/reject`, headers: bearer(k) });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/v1/payouts?updatedSince=${encodeURIComponent(since)}&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const page = (await t.app.inject({ method: "GET", url, headers: bearer(k) })).json();
      seen.push(...page.payouts.map((p: { payout_id: string }) => p.payout_id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual([...fresh.map((p) => p.payout_id), old.payout_id]);
  });

  it("answers 404 for an unknown payout and 400 for a malformed id", async () => {
    const missing = await t.app.inject({
      method: "GET",
      url: "/v1/payouts/01900000-0000-7000-8000-000000000000",
      headers: bearer(key),
    });
    expectErrorEnvelope(missing, { status: 404, code: "not_found", actor: actor() });
    const malformed = await t.app.inject({ method: "GET", url: "/v1/payouts/nope", headers: bearer(key) });
    expect(malformed.statusCode).toBe(400);
  });
});
