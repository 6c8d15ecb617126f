// Every posting rule against the production simulator's scenarios (src/rails/README.md): approval holds,
// disbursed posts, failed/canceled void, returned and a late return after settled reverse, a compliance hold
// changes nothing; the payout's funding_status follows. Track-only (the default): payouts never wait. Runs on
// PGlite, and on PostgreSQL with TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide, getPayout, payableBeneficiary } from "../payouts/payout-fixtures.js";
import { expectLedgerConsistent, onlyFundingAccount, payoutSteps, transfersOf } from "./funding-fixtures.js";

const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;

let t: TestApp;
const db = () => t.runtime.deps.database.db;

beforeAll(async () => {
  t = await buildTestApp({ env: { PAYOUT_RETURN_WINDOW_HOURS: "48" } });
});
afterAll(async () => t?.close());

async function drain(): Promise<void> {
  await t.runtime.createWorker(`funding-${Math.random()}`).drain();
}

/** A fresh Business (its own funding accounts), a production payout of `amountMinor` EUR approved. */
async function approved(amountMinor: number) {
  const business = await registerBusiness(t.app, `Funding ${amountMinor}`);
  const key = business.keys.production;
  const { beneficiaryId } = await payableBeneficiary(t.app, key);
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: amountMinor });
  expect(payout.funding_status).toBe("not_tracked");
  expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
  const at = t.clock.now().getTime();
  await drain();
  return {
    key,
    id: payout.payout_id,
    advanceTo: async (ms: number) => {
      if (at + ms > t.clock.now().getTime()) t.clock.set(new Date(at + ms));
      await drain();
    },
  };
}

const fundingStatus = async (key: string, id: string) => (await getPayout(t.app, key, id)).funding_status;

describe("posting rules on the production simulator's scenarios", () => {
  it("approval holds the amount on the simulator's account (created with the first payout of the currency)", async () => {
    const p = await approved(50_00);
    expect(await fundingStatus(p.key, p.id)).toBe("reserved");
    const account = await onlyFundingAccount(t.app, p.key);
    expect(account).toMatchObject({
      kind: "simulator",
      currency: "EUR",
      enforcement: "track_only",
      posted_minor: 0,
      pending_minor: 5000,
    });
    expect(account.available_minor).toBe(-5000);
    const [hold] = await transfersOf(t.app, p.key, account.id);
    expect(hold).toMatchObject({
      step: "hold",
      cause: { type: "payout", id: p.id },
      idempotency_key: `payout:${p.id}:hold`,
      posted_after_minor: 0,
      pending_after_minor: 5000,
      available_after_minor: -5000,
    });
    expect(hold?.entries).toEqual([
      { account: "funding", amount_minor: -5000, pending: true },
      { account: "payees_in_transit", amount_minor: 5000, pending: true },
    ]);
    await expectLedgerConsistent(db(), account);
  });

  it("default path: disbursed posts the hold; settlement posts nothing more", async () => {
    const p = await approved(50_00);
    await p.advanceTo(5 * MIN);
    expect(await getPayout(t.app, p.key, p.id)).toMatchObject({ status: "disbursed", funding_status: "posted" });
    let account = await onlyFundingAccount(t.app, p.key);
    expect(account).toMatchObject({ posted_minor: -5000, pending_minor: 0 });
    await p.advanceTo(3 * D);
    expect(await getPayout(t.app, p.key, p.id)).toMatchObject({ status: "settled", funding_status: "posted" });
    account = await onlyFundingAccount(t.app, p.key);
    expect(await payoutSteps(t.app, p.key, account.id, p.id)).toEqual(["hold", "post"]);
    await expectLedgerConsistent(db(), account);
  });

  it("100001 refused at submission: the hold is voided", async () => {
    const p = await approved(100_001);
    await drain();
    expect(await getPayout(t.app, p.key, p.id)).toMatchObject({ status: "failed", funding_status: "released" });
    const account = await onlyFundingAccount(t.app, p.key);
    expect(account).toMatchObject({ posted_minor: 0, pending_minor: 0, available_minor: 0 });
    expect(await payoutSteps(t.app, p.key, account.id, p.id)).toEqual(["hold", "void"]);
    await expectLedgerConsistent(db(), account);
  });

  it("100002 failed after acknowledgment and 100003 canceled by the rail: voided", async () => {
    for (const amount of [100_002, 100_003]) {
      const p = await approved(amount);
      await p.advanceTo(10 * MIN);
      expect(await getPayout(t.app, p.key, p.id)).toMatchObject({
        status: amount === 100_002 ? "failed" : "canceled",
        funding_status: "released",
      });
      const account = await onlyFundingAccount(t.app, p.key);
      expect(account).toMatchObject({ posted_minor: 0, pending_minor: 0 });
      expect(await payoutSteps(t.app, p.key, account.id, p.id)).toEqual(["hold", "void"]);
      await expectLedgerConsistent(db(), account);
    }
  });

  it("100004 returned inside the window: a reversing credit brings the money back", async () => {
    const p = await approved(100_004);
    await p.advanceTo(2 * D);
    expect(await getPayout(t.app, p.key, p.id)).toMatchObject({ status: "returned", funding_status: "reversed" });
    const account = await onlyFundingAccount(t.app, p.key);
    expect(account).toMatchObject({ posted_minor: 0, pending_minor: 0 });
    const transfers = await transfersOf(t.app, p.key, account.id);
    expect(transfers.map((x) => x.step)).toEqual(["reverse", "post", "hold"]);
    expect(transfers[0]?.entries).toEqual([
      { account: "payees_in_transit", amount_minor: -100_004, pending: false },
      { account: "funding", amount_minor: 100_004, pending: false },
    ]);
    await expectLedgerConsistent(db(), account);
  });

  it("100005 late return after settled: reversed the same way", async () => {
    const p = await approved(100_005);
    // Step by step: disbursed_at is when the outcome job ran, and the window closes 48 h after it.
    for (const ms of [5 * MIN, 2 * H, 5 * MIN + 48 * H]) await p.advanceTo(ms);
    expect(await getPayout(t.app, p.key, p.id)).toMatchObject({ status: "settled", funding_status: "posted" });
    await p.advanceTo(61 * D);
    expect(await getPayout(t.app, p.key, p.id)).toMatchObject({ status: "returned", funding_status: "reversed" });
    const account = await onlyFundingAccount(t.app, p.key);
    expect(account).toMatchObject({ posted_minor: 0, pending_minor: 0 });
    expect(await payoutSteps(t.app, p.key, account.id, p.id)).toEqual(["hold", "post", "reverse"]);
    await expectLedgerConsistent(db(), account);
  });

  it("100007 compliance hold keeps the hold; 100006 cleared then disbursed posts it", async () => {
    const held = await approved(100_007);
    await held.advanceTo(2 * H);
    expect(await getPayout(t.app, held.key, held.id)).toMatchObject({ status: "compliance_hold", funding_status: "reserved" });
    let account = await onlyFundingAccount(t.app, held.key);
    expect(account).toMatchObject({ posted_minor: 0, pending_minor: 100_007 });
    expect(await payoutSteps(t.app, held.key, account.id, held.id)).toEqual(["hold"]);

    const cleared = await approved(100_006);
    await cleared.advanceTo(2 * H);
    expect(await getPayout(t.app, cleared.key, cleared.id)).toMatchObject({ status: "disbursed", funding_status: "posted" });
    account = await onlyFundingAccount(t.app, cleared.key);
    expect(account).toMatchObject({ posted_minor: -100_006, pending_minor: 0 });
    expect(await payoutSteps(t.app, cleared.key, account.id, cleared.id)).toEqual(["hold", "post"]);
    await expectLedgerConsistent(db(), account);
  });

  it("a balance at a past time is the after-values of the last transfer at or before it", async () => {
    const p = await approved(50_00);
    const beforeDisbursed = t.clock.now().toISOString();
    await p.advanceTo(10 * MIN);
    const account = await onlyFundingAccount(t.app, p.key);
    const read = async (at: string) =>
      (
        await t.app.inject({
          method: "GET",
          url: `/v1/funding-accounts/${account.id}/balance?at=${encodeURIComponent(at)}`,
          headers: { authorization: `Bearer ${p.key}` },
        })
      ).json();
    expect(await read(beforeDisbursed)).toMatchObject({ posted_minor: 0, pending_minor: 5000, available_minor: -5000 });
    expect(await read(t.clock.now().toISOString())).toMatchObject({ posted_minor: -5000, pending_minor: 0 });
    expect(await read("2020-01-01T00:00:00.000Z")).toMatchObject({ posted_minor: 0, pending_minor: 0, available_minor: 0 });
  });
});
