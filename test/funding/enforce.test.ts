// Enforcement: with `enforce`, an approval the available balance does not cover waits (status approved,
// funding_status awaiting_funds, payout.awaiting_funds, nothing sent); credits release waiting payouts in approval
// order, skipping those that do not fit (payout.funds_reserved, then dispatched); cancel works while waiting;
// production payouts expire after awaiting_funds_expiry_hours failing with `insufficient_funds...`; sandbox ones
// never do. Settings: 409 FUNDING_ACCOUNT_OVERDRAWN, an API key cannot weaken enforcement, validation errors in
// the envelope, sandbox credits refused in production. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { createPayout, decide, getPayout, payableBeneficiary, payoutEvents } from "../payouts/payout-fixtures.js";
import { expectLedgerConsistent, onlyFundingAccount, sandboxCredit, setFunding } from "./funding-fixtures.js";

const H = 3_600_000;
let t: TestApp;
const db = () => t.runtime.deps.database.db;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

function actorOf(
  business: RegisteredBusiness,
  environment: "sandbox" | "production",
  role: "business_admin" | "business_read_only" = "business_admin",
) {
  return { user_id: business.userId, membership_id: business.membershipId, role, environment };
}

const drain = () => t.runtime.createWorker(`enforce-${Math.random()}`).drain();

async function approve(key: string, beneficiaryId: string, amountMinor: number): Promise<string> {
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: amountMinor });
  const response = await decide(t.app, key, payout.payout_id, "approve");
  expect(response.statusCode).toBe(201);
  return payout.payout_id;
}

describe("enforce in sandbox", () => {
  let business: RegisteredBusiness;
  let key: string;
  let beneficiaryId: string;

  beforeAll(async () => {
    business = await registerBusiness(t.app, "Enforce sandbox");
    key = business.keys.sandbox;
    beneficiaryId = (await payableBeneficiary(t.app, key)).beneficiaryId;
  });

  it("waits, then releases in approval order skipping what does not fit; never expires", async () => {
    const first = await approve(key, beneficiaryId, 1234);
    expect((await getPayout(t.app, key, first)).funding_status).toBe("reserved");
    let account = await onlyFundingAccount(t.app, key);
    expect(account).toMatchObject({ kind: "sandbox", available_minor: -1234 });

    // Enforce needs the balance to satisfy it now.
    expectErrorEnvelope(await setFunding(t.app, key, account.id, { enforcement: "enforce" }), {
      status: 409,
      code: "FUNDING_ACCOUNT_OVERDRAWN",
      actor: actorOf(business, "sandbox"),
    });
    expect((await sandboxCredit(t.app, key, account.id, 1234)).statusCode).toBe(201);
    const enforced = await setFunding(t.app, key, account.id, { enforcement: "enforce" });
    expect(enforced.statusCode, enforced.body).toBe(200);
    expect(enforced.json()).toMatchObject({ enforcement: "enforce", available_minor: 0 });

    const big = await approve(key, beneficiaryId, 5000);
    const mid = await approve(key, beneficiaryId, 2000);
    const small = await approve(key, beneficiaryId, 1000);
    await drain();
    for (const id of [big, mid, small]) {
      expect(await getPayout(t.app, key, id)).toMatchObject({
        status: "approved",
        funding_status: "awaiting_funds",
        rail_ref: null,
        disbursement_status: null,
      });
      expect((await payoutEvents(db(), id)).map((e) => e.type)).toEqual(["payout.awaiting_funds"]);
    }
    account = await onlyFundingAccount(t.app, key);
    expect(account).toMatchObject({ pending_minor: 0, awaiting_funds: { count: 3, amount_minor: 8000 } });

    // 3000 arrives: the 5000 does not fit and is skipped; the 2000 and the 1000 are reserved and sent.
    const credit = await sandboxCredit(t.app, key, account.id, 3000);
    expect(credit.statusCode).toBe(201);
    expect(credit.json()).toMatchObject({ step: "credit", cause: { type: "sandbox_credit" }, posted_after_minor: 3000 });
    await drain();
    expect(await getPayout(t.app, key, big)).toMatchObject({ status: "approved", funding_status: "awaiting_funds" });
    for (const id of [mid, small]) {
      expect(await getPayout(t.app, key, id)).toMatchObject({ status: "disbursed", funding_status: "posted" });
      expect((await payoutEvents(db(), id)).map((e) => e.type).slice(0, 2)).toEqual([
        "payout.awaiting_funds",
        "payout.funds_reserved",
      ]);
    }
    account = await onlyFundingAccount(t.app, key);
    expect(account).toMatchObject({ available_minor: 0, awaiting_funds: { count: 1, amount_minor: 5000 } });

    // Sandbox payouts never expire.
    t.clock.set(new Date(t.clock.now().getTime() + 200 * H));
    await drain();
    expect(await getPayout(t.app, key, big)).toMatchObject({ status: "approved", funding_status: "awaiting_funds" });

    expect((await sandboxCredit(t.app, key, account.id, 5000)).statusCode).toBe(201);
    await drain();
    expect(await getPayout(t.app, key, big)).toMatchObject({ status: "disbursed", funding_status: "posted" });
    account = await onlyFundingAccount(t.app, key);
    expect(account).toMatchObject({ available_minor: 0, pending_minor: 0, awaiting_funds: { count: 0, amount_minor: 0 } });
    await expectLedgerConsistent(db(), account);
  });

  it("an API key cannot turn enforcement off (a weakened control needs a person)", async () => {
    const account = await onlyFundingAccount(t.app, key);
    expectErrorEnvelope(await setFunding(t.app, key, account.id, { enforcement: "track_only" }), {
      status: 403,
      code: "CONTROL_WEAKENING_NEEDS_PERSON",
      actor: actorOf(business, "sandbox"),
    });
    expect((await onlyFundingAccount(t.app, key)).enforcement).toBe("enforce");
  });

  it("validation errors answer the envelope; a read-only key cannot change settings", async () => {
    const account = await onlyFundingAccount(t.app, key);
    const bad = expectErrorEnvelope(await setFunding(t.app, key, account.id, { overdraft_limit_minor: -1 }), {
      status: 400,
      code: "validation_failed",
      actor: actorOf(business, "sandbox"),
    });
    expect(bad.details?.[0]).toMatchObject({ field: "overdraft_limit_minor" });
    expectErrorEnvelope(await setFunding(t.app, key, account.id, {}), {
      status: 400,
      code: "validation_failed",
      actor: actorOf(business, "sandbox"),
    });
    const badAt = await t.app.inject({
      method: "GET",
      url: `/v1/funding-accounts/${account.id}/balance?at=yesterday`,
      headers: bearer(key),
    });
    expectErrorEnvelope(badAt, { status: 400, code: "validation_failed", actor: actorOf(business, "sandbox") });
    const badCredit = await t.app.inject({
      method: "POST",
      url: `/v1/sandbox/funding-accounts/${account.id}/credits`,
      headers: bearer(key),
      payload: { amount_minor: 0 },
    });
    expectErrorEnvelope(badCredit, { status: 400, code: "validation_failed", actor: actorOf(business, "sandbox") });
    const readOnly = await createApiKey(t.app, key, "business_read_only");
    expectErrorEnvelope(await setFunding(t.app, readOnly.key, account.id, { name: "x" }), {
      status: 403,
      code: "forbidden",
      actor: actorOf(business, "sandbox", "business_read_only"),
    });
    expectErrorEnvelope(await sandboxCredit(t.app, readOnly.key, account.id, 100), {
      status: 403,
      code: "forbidden",
      actor: actorOf(business, "sandbox", "business_read_only"),
    });
  });
});

describe("enforce in production", () => {
  let business: RegisteredBusiness;
  let key: string;
  let beneficiaryId: string;
  let accountId: string;

  beforeAll(async () => {
    business = await registerBusiness(t.app, "Enforce production");
    key = business.keys.production;
    beneficiaryId = (await payableBeneficiary(t.app, key)).beneficiaryId;
    // 100001 is refused at submission (the simulator): the account exists, its hold voided, available 0.
    await approve(key, beneficiaryId, 100_001);
    await drain();
    accountId = (await onlyFundingAccount(t.app, key)).id;
    const enforced = await setFunding(t.app, key, accountId, { enforcement: "enforce", awaiting_funds_expiry_hours: 24 });
    expect(enforced.statusCode, enforced.body).toBe(200);
  });

  it("a sandbox credit is refused in production", async () => {
    expectErrorEnvelope(await sandboxCredit(t.app, key, accountId, 100), {
      status: 403,
      code: "forbidden",
      actor: actorOf(business, "production"),
    });
  });

  it("a waiting payout can be canceled; it leaves the queue", async () => {
    const id = await approve(key, beneficiaryId, 5000);
    await drain();
    expect(await getPayout(t.app, key, id)).toMatchObject({ status: "approved", funding_status: "awaiting_funds" });
    const canceled = await t.app.inject({ method: "POST", url: `/v1/payouts/${id}/cancel`, headers: bearer(key), payload: {} });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(await getPayout(t.app, key, id)).toMatchObject({ status: "canceled", funding_status: "released" });
    expect(await onlyFundingAccount(t.app, key)).toMatchObject({ awaiting_funds: { count: 0, amount_minor: 0 } });
  });

  it("a payout still waiting after awaiting_funds_expiry_hours fails with insufficient_funds", async () => {
    const id = await approve(key, beneficiaryId, 7000);
    t.clock.set(new Date(t.clock.now().getTime() + 24 * H - 1000));
    await drain();
    expect(await getPayout(t.app, key, id)).toMatchObject({ status: "approved", funding_status: "awaiting_funds" });
    t.clock.set(new Date(t.clock.now().getTime() + 2000));
    await drain();
    const failed = await getPayout(t.app, key, id);
    expect(failed).toMatchObject({ status: "failed", funding_status: "released", rail_ref: null });
    expect(String(failed.failure_reason)).toMatch(/^insufficient_funds/);
    const account = await onlyFundingAccount(t.app, key);
    expect(account).toMatchObject({ awaiting_funds: { count: 0, amount_minor: 0 }, pending_minor: 0 });
    await expectLedgerConsistent(db(), account);
  });
});
