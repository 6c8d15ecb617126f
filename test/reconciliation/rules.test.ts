// The matching rules (issue 28), each on both databases: end_to_end_id, batch (one line for a 3-payout batch, a
// partially rejected batch booked as one line of the accepted amount), return (with a fee), top_up, amount_date
// (unique, and two equal amounts to review); a difference within the tolerance to fees; unknown debit and credit.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankFileItems } from "../../src/modules/bank-rails/bank-rails.schema.js";
import type { PayoutReconciliation } from "../../src/modules/payouts/payouts.reconciliation.js";
import { transaction } from "../../src/platform/db/client.js";
import { bearer } from "../helpers/factories.js";
import type { TestApp } from "../helpers/test-app.js";
import { getPayout, payoutEvents } from "../payouts/payout-fixtures.js";
import {
  bookingOf,
  buildReconApp,
  e2e,
  getJson,
  line,
  linesOf,
  reconService,
  type Scenario,
  sentPayouts,
  statement,
} from "./recon-fixtures.js";

let t: TestApp;
const db = () => t.runtime.deps.database.db;

beforeAll(async () => {
  ({ t } = await buildReconApp());
});
afterAll(async () => t?.close());

describe("end_to_end_id", () => {
  it("a booked debit naming one payout's EndToEndId disburses it at the booking date and marks it reconciled", async () => {
    const s = await sentPayouts(t, [1_234]);
    const payoutId = s.payouts[0] as string;
    const applied = await reconService(t).receiveStatements(s.tenant, [statement(s, [bookingOf(payoutId, 1_234)])]);
    expect(applied.created).toBe(true);
    const stmt = applied.statements[0];
    const [only] = await linesOf(t, s.key, String(stmt?.id));
    expect(only).toMatchObject({
      status: "matched",
      match: { rule: "end_to_end_id", payout_ids: [payoutId], difference_minor: 0 },
    });
    const payout = await getPayout(t.app, s.key, payoutId);
    expect(payout).toMatchObject({
      status: "disbursed",
      disbursed_at: "2026-06-01T00:00:00.000Z",
      reconciliation_status: "reconciled",
    });
    const types = (await payoutEvents(db(), payoutId)).map((e) => e.type);
    expect(types).toContain("payout.reconciled");
    const read = await getJson(t, s.key, `/v1/bank-statements/${stmt?.id}`);
    expect(read).toMatchObject({ object: "bank_statement", line_count: 1, lines_by_status: { matched: 1 } });
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/bank-statements/${stmt?.id}`, headers: bearer(s.business.keys.sandbox) }))
        .statusCode,
    ).toBe(404);
  });
});

describe("one statement, set by set", () => {
  it("two entries naming the same payout: the first books it, the second goes to review; the other entries are matched", async () => {
    const s = await sentPayouts(t, [1_500, 2_500]);
    const [first, second] = s.payouts as [string, string];
    const lines = [
      bookingOf(first, 1_500, { bankReference: "TWICE-A" }),
      bookingOf(first, 1_500, { bankReference: "TWICE-B" }),
      bookingOf(second, 2_500, { bankReference: "OTHER-C" }),
    ];
    const applied = await reconService(t).receiveStatements(s.tenant, [statement(s, lines)]);
    const byRef = new Map((await linesOf(t, s.key, String(applied.statements[0]?.id))).map((l) => [String(l.bank_reference), l]));
    expect(byRef.get("TWICE-A")).toMatchObject({ status: "matched", match: { rule: "end_to_end_id", payout_ids: [first] } });
    expect(byRef.get("TWICE-B")).toMatchObject({
      status: "needs_review",
      match: null,
      review_reason: "A payout this entry names is matched to another line already.",
      candidates: [{ payout_id: first, amount_minor: 1_500 }],
    });
    expect(byRef.get("OTHER-C")).toMatchObject({ status: "matched", match: { rule: "end_to_end_id", payout_ids: [second] } });
    // Each payout moved once: one payout.reconciled each, whatever the statement said twice.
    for (const payoutId of [first, second]) {
      expect((await payoutEvents(db(), payoutId)).filter((e) => e.type === "payout.reconciled")).toHaveLength(1);
      expect(await getPayout(t.app, s.key, payoutId)).toMatchObject({ reconciliation_status: "reconciled" });
    }
  });
});

async function account(s: Scenario) {
  return getJson(t, s.key, `/v1/funding-accounts/${s.fundingAccountId}`);
}
async function apply(s: Scenario, lines: Parameters<typeof statement>[1], overrides: Parameters<typeof statement>[2] = {}) {
  const applied = await reconService(t).receiveStatements(s.tenant, [statement(s, lines, overrides)]);
  const stmt = applied.statements[0];
  if (stmt === undefined) throw new Error("no statement");
  return { stmt, lines: await linesOf(t, s.key, stmt.id) };
}

describe("batch", () => {
  it("one line for a 3-payout payment block books all three (PmtInfId and NbOfTxs), money posted once", async () => {
    const s = await sentPayouts(t, [1_000, 2_000, 3_000]);
    const before = await account(s);
    const { lines } = await apply(s, [
      line({ amountMinor: 6_000, paymentInformationId: s.block, batchCount: 3, batchTotalMinor: 6_000 }),
    ]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ status: "matched", match: { rule: "batch", difference_minor: 0 } });
    expect([...((lines[0] as { match: unknown }).match as { payout_ids: string[] }).payout_ids].sort()).toEqual(
      [...s.payouts].sort(),
    );
    for (const id of s.payouts)
      expect(await getPayout(t.app, s.key, id)).toMatchObject({ status: "disbursed", reconciliation_status: "reconciled" });
    // The holds became posted debits: 60.00 out of posted, nothing left held.
    const after = await account(s);
    expect(Number(after.posted_minor) - Number(before.posted_minor)).toBe(-6_000);
    expect(after.pending_minor).toBe(0);
  });

  it("a partially rejected block booked as one line of the accepted amount books the accepted payouts only", async () => {
    const s = await sentPayouts(t, [1_500, 2_500, 4_000]);
    const rejected = s.payouts[1] as string;
    await t.runtime.deps.database.db
      .update(bankFileItems)
      .set({ bankStatus: "RJCT" })
      .where(eq(bankFileItems.payoutId, rejected));
    const { lines } = await apply(s, [line({ amountMinor: 5_500, paymentInformationId: s.block, batchCount: 2 })]);
    expect(lines[0]).toMatchObject({ status: "matched", match: { rule: "batch" } });
    expect([...((lines[0] as { match: unknown }).match as { payout_ids: string[] }).payout_ids].sort()).toEqual(
      [s.payouts[0], s.payouts[2]].sort(),
    );
    expect(await getPayout(t.app, s.key, rejected)).toMatchObject({ reconciliation_status: "unreconciled" });
  });

  it("a block booked for the whole amount despite a rejection goes to review with its candidates, moving nothing", async () => {
    const s = await sentPayouts(t, [1_100, 2_200]);
    await t.runtime.deps.database.db
      .update(bankFileItems)
      .set({ bankStatus: "RJCT" })
      .where(eq(bankFileItems.payoutId, s.payouts[0] as string));
    const { lines } = await apply(s, [line({ amountMinor: 3_300, paymentInformationId: s.block })]);
    expect(lines[0]).toMatchObject({ status: "needs_review", match: null });
    expect(((lines[0] as { candidates: unknown }).candidates as Array<{ payout_id: string }>).map((c) => c.payout_id)).toEqual([
      s.payouts[1],
    ]);
    expect(String(lines[0]?.review_reason)).toMatch(/2 sent less 1 rejected/);
    expect(await getPayout(t.app, s.key, s.payouts[1] as string)).toMatchObject({
      status: "approved",
      reconciliation_status: "unreconciled",
    });
  });
});

describe("return", () => {
  const returnLine = (payoutId: string, originalMinor: number, feeMinor = 0) =>
    line({
      direction: "credit",
      amountMinor: originalMinor - feeMinor,
      bookingDate: "2026-06-03",
      valueDate: "2026-06-03",
      details: [
        {
          endToEndId: null,
          instructionId: null,
          paymentInformationId: null,
          amountMinor: originalMinor - feeMinor,
          returnInfo: { originalEndToEndId: e2e(payoutId), reasonCode: "AC04", originalAmountMinor: originalMinor, feeMinor },
          remittance: null,
        },
      ],
    });

  it("three returns in one statement (one with a fee) return each payout once: one event and one reversal each", async () => {
    const s = await sentPayouts(t, [1_000, 2_000, 3_000]);
    const [a, b, c] = s.payouts as [string, string, string];
    await apply(s, [bookingOf(a, 1_000), bookingOf(b, 2_000), bookingOf(c, 3_000)]);
    const before = await account(s);
    const { lines } = await apply(s, [returnLine(a, 1_000), returnLine(b, 2_000, 150), returnLine(c, 3_000)]);
    expect(lines.map((l) => l.status)).toEqual(["matched", "matched", "matched"]);
    for (const id of [a, b, c]) {
      expect(await getPayout(t.app, s.key, id)).toMatchObject({ status: "returned", funding_status: "reversed" });
      const types = (await payoutEvents(db(), id)).map((e) => e.type);
      expect(types.filter((type) => type === "payout.returned")).toHaveLength(1);
      expect(types.indexOf("payout.returned")).toBeGreaterThan(types.indexOf("payout.reconciled"));
    }
    const after = await account(s);
    expect(Number(after.posted_minor) - Number(before.posted_minor)).toBe(1_000 + 1_850 + 3_000);
    const transfers = (await getJson(t, s.key, `/v1/funding-accounts/${s.fundingAccountId}/transfers`)).transfers as Array<{
      step: string;
      cause: { id: string };
      entries: Array<{ account: string; amount_minor: number }>;
    }>;
    const reversals = transfers.filter((tr) => tr.step === "reverse");
    expect(reversals.map((tr) => tr.cause.id).sort()).toEqual([a, b, c].sort());
    expect(reversals.find((tr) => tr.cause.id === b)?.entries).toContainEqual(
      expect.objectContaining({ account: "fees", amount_minor: 150 }),
    );
  });

  it("a return decided on a row another transaction moved since is refused and moves nothing", async () => {
    const s = await sentPayouts(t, [4_000]);
    const payoutId = s.payouts[0] as string;
    await apply(s, [bookingOf(payoutId, 4_000)]);
    const payoutsModule = t.runtime.deps.modules.modules.find((m) => m.name === "payouts");
    const moves = (payoutsModule?.offers as { reconciliation?: PayoutReconciliation } | undefined)?.reconciliation;
    if (moves === undefined) throw new Error("no payouts module");
    const stale = await transaction(db(), (tx) => moves.lockPayouts(tx, s.tenant, [payoutId]));
    // Returned meanwhile (a return line of another statement).
    await apply(s, [returnLine(payoutId, 4_000)]);
    const posted = Number((await account(s)).posted_minor);
    const outcomes = await transaction(db(), async (tx) =>
      moves.applyStatementMoves(tx, s.tenant, [{ kind: "return", payoutId, reason: "AC04", returnedAmountMinor: 4_000 }], {
        ...stale,
        tx,
      }),
    );
    expect(outcomes).toEqual([{ kind: "refused", reason: "the payout moved meanwhile" }]);
    expect(Number((await account(s)).posted_minor)).toBe(posted);
    const types = (await payoutEvents(db(), payoutId)).map((e) => e.type);
    expect(types.filter((type) => type === "payout.returned")).toHaveLength(1);
  });

  it("a return with a fee returns the payout: the amount that came back is credited, the fee posted to fees", async () => {
    const s = await sentPayouts(t, [10_000]);
    const payoutId = s.payouts[0] as string;
    await apply(s, [bookingOf(payoutId, 10_000)]);
    const before = await account(s);
    const { lines } = await apply(s, [
      line({
        direction: "credit",
        amountMinor: 9_700,
        bookingDate: "2026-06-03",
        valueDate: "2026-06-03",
        details: [
          {
            endToEndId: null,
            instructionId: null,
            paymentInformationId: null,
            amountMinor: 9_700,
            returnInfo: { originalEndToEndId: e2e(payoutId), reasonCode: "AC04", originalAmountMinor: 10_000, feeMinor: 300 },
            remittance: null,
          },
        ],
      }),
    ]);
    expect(lines[0]).toMatchObject({
      status: "matched",
      match: { rule: "return", payout_ids: [payoutId], difference_minor: -300 },
    });
    expect(await getPayout(t.app, s.key, payoutId)).toMatchObject({
      status: "returned",
      failure_reason: expect.stringMatching(/AC04/),
    });
    const after = await account(s);
    expect(Number(after.posted_minor) - Number(before.posted_minor)).toBe(9_700);
    const transfers = (await getJson(t, s.key, `/v1/funding-accounts/${s.fundingAccountId}/transfers`)).transfers as Array<{
      step: string;
      entries: Array<{ account: string; amount_minor: number }>;
    }>;
    const reverse = transfers.find((tr) => tr.step === "reverse");
    expect(reverse?.entries).toContainEqual(expect.objectContaining({ account: "fees", amount_minor: 300 }));
  });
});

describe("tolerance", () => {
  it("a debit within the configured tolerance is matched with its difference posted to fees; beyond it, review", async () => {
    const tolerant = (await buildReconApp({ RECONCILIATION_TOLERANCE_MINOR: "50" })).t;
    try {
      const s = await sentPayouts(tolerant, [4_000, 6_000]);
      const [within, beyond] = s.payouts as [string, string];
      const applied = await reconService(tolerant).receiveStatements(s.tenant, [
        statement(s, [
          bookingOf(within, 4_030, { bankReference: "FEE-30" }),
          bookingOf(beyond, 6_060, { bankReference: "FEE-60" }),
        ]),
      ]);
      const lines = await linesOf(tolerant, s.key, String(applied.statements[0]?.id));
      const byRef = new Map(lines.map((l) => [String(l.bank_reference), l]));
      expect(byRef.get("FEE-30")).toMatchObject({
        status: "matched",
        match: { rule: "end_to_end_id", payout_ids: [within], difference_minor: 30 },
      });
      expect(byRef.get("FEE-60")).toMatchObject({ status: "needs_review" });
      expect(await getPayout(tolerant.app, s.key, within)).toMatchObject({ reconciliation_status: "reconciled" });
      expect(await getPayout(tolerant.app, s.key, beyond)).toMatchObject({ reconciliation_status: "unreconciled" });
      const transfers = (await getJson(tolerant, s.key, `/v1/funding-accounts/${s.fundingAccountId}/transfers`))
        .transfers as Array<{ step: string; entries: Array<{ account: string; amount_minor: number }> }>;
      const fee = transfers.filter((tr) => tr.step === "fee");
      expect(fee).toHaveLength(1);
      expect(fee[0]?.entries).toContainEqual(expect.objectContaining({ account: "fees", amount_minor: 30 }));
    } finally {
      await tolerant.close();
    }
  });
});

describe("top_up", () => {
  it("a credit carrying a top-up's reference is matched to it and credits nothing more", async () => {
    const s = await sentPayouts(t, [1_000]);
    const recorded = await t.app.inject({
      method: "POST",
      url: `/v1/funding-accounts/${s.fundingAccountId}/top-ups`,
      headers: bearer(s.key),
      payload: { amount_minor: 500_000, reference: "WIRE-7731-ACME" },
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const before = await account(s);
    const { lines } = await apply(s, [
      line({ direction: "credit", amountMinor: 500_000, remittance: "Transfer WIRE 7731 ACME from operating" }),
    ]);
    expect(lines[0]).toMatchObject({
      status: "matched",
      match: { rule: "top_up", top_up_id: recorded.json().id, payout_ids: [] },
    });
    expect((await account(s)).posted_minor).toBe(before.posted_minor);
  });
});

describe("amount_date", () => {
  it("a debit with no reference, its amount unique among the payouts sent in the window, is matched", async () => {
    const s = await sentPayouts(t, [4_321]);
    const today = t.clock.now().toISOString().slice(0, 10);
    const { lines } = await apply(s, [line({ amountMinor: 4_321, bookingDate: today, valueDate: today })]);
    expect(lines[0]).toMatchObject({ status: "matched", match: { rule: "amount_date", payout_ids: [s.payouts[0]] } });
  });

  it("two equal amounts without references go to review with both candidates, never a guess", async () => {
    const s = await sentPayouts(t, [7_777, 7_777]);
    const today = t.clock.now().toISOString().slice(0, 10);
    const { lines } = await apply(s, [
      line({ amountMinor: 7_777, bookingDate: today }),
      line({ amountMinor: 7_777, bookingDate: today }),
    ]);
    expect(lines.map((l) => l.status)).toEqual(["needs_review", "needs_review"]);
    for (const l of lines)
      expect(
        (l.candidates as Array<{ payout_id: string; payee: { display_name: string } }>).map((c) => c.payout_id).sort(),
      ).toEqual([...s.payouts].sort());
    expect(
      ((lines[0] as { candidates: unknown }).candidates as Array<{ payee: { display_name: string } }>)[0]?.payee.display_name,
    ).toEqual(expect.any(String));
    for (const id of s.payouts)
      expect(await getPayout(t.app, s.key, id)).toMatchObject({ status: "approved", reconciliation_status: "unreconciled" });
    const review = await getJson(t, s.key, "/v1/statement-lines?status=needs_review&limit=200");
    expect((review.statement_lines as Array<{ id: string }>).map((l) => l.id)).toEqual(
      expect.arrayContaining(lines.map((l) => l.id)),
    );
  });
});

describe("money the service did not send", () => {
  it("an unknown debit goes to suspense and lowers available; an unknown credit funds the account", async () => {
    const s = await sentPayouts(t, [1_000]);
    const before = await account(s);
    const { lines } = await apply(s, [
      line({ amountMinor: 1_250, remittance: "Kontofuehrungsentgelt", bankTransactionCode: "ACMT/MDOP/CHRG" }),
      line({ direction: "credit", amountMinor: 88_800, remittance: "Rechnung 4711" }),
    ]);
    const debit = lines.find((l) => l.direction === "debit");
    const credit = lines.find((l) => l.direction === "credit");
    expect(debit).toMatchObject({ status: "unmatched", match: null, transfer_id: expect.any(String) });
    expect(credit).toMatchObject({ status: "unmatched", match: null, transfer_id: expect.any(String) });
    const after = await account(s);
    expect(Number(after.available_minor) - Number(before.available_minor)).toBe(88_800 - 1_250);
    const transfers = (await getJson(t, s.key, `/v1/funding-accounts/${s.fundingAccountId}/transfers`)).transfers as Array<{
      id: string;
      entries: Array<{ account: string; amount_minor: number }>;
    }>;
    expect(transfers.find((tr) => tr.id === debit?.transfer_id)?.entries).toContainEqual(
      expect.objectContaining({ account: "suspense", amount_minor: 1_250 }),
    );
    const unmatched = await getJson(t, s.key, `/v1/statement-lines?status=unmatched&funding_account_id=${s.fundingAccountId}`);
    expect((unmatched.statement_lines as unknown[]).length).toBe(2);
    const credited = await getJson(t, s.key, "/v1/events?type=funding_account.credited");
    expect(JSON.stringify(credited)).toContain(String(credit?.id));
  });

  it("a pending entry moves no money and is booked (and matched) when the end-of-day statement books it", async () => {
    const s = await sentPayouts(t, [2_468]);
    const payoutId = s.payouts[0] as string;
    const pending = bookingOf(payoutId, 2_468, { status: "pending", bookingDate: null, bankReference: "ACSR-PEND-1" });
    const first = await apply(s, [pending], { format: "camt.052", messageVersion: "camt.052.001.08", closingBookedMinor: null });
    expect(first.lines[0]).toMatchObject({ status: "pending", entry_status: "pending" });
    expect(await getPayout(t.app, s.key, payoutId)).toMatchObject({ status: "approved", reconciliation_status: "unreconciled" });
    await apply(s, [bookingOf(payoutId, 2_468, { bankReference: "ACSR-PEND-1" })]);
    const read = await getJson(t, s.key, `/v1/statement-lines/${first.lines[0]?.id}`);
    expect(read).toMatchObject({ status: "matched", entry_status: "booked", statement_id: first.stmt.id });
    expect(await getPayout(t.app, s.key, payoutId)).toMatchObject({ status: "disbursed", reconciliation_status: "reconciled" });
  });
});

describe("balances proved", () => {
  it("a closing balance off by 1.00 raises funding_account.balance_mismatch; a person resolves it", async () => {
    const s = await sentPayouts(t, [5_000]);
    const ledger = Number((await account(s)).posted_minor);
    const { stmt } = await apply(s, [bookingOf(s.payouts[0] as string, 5_000)], { closingBookedMinor: ledger - 5_000 - 100 });
    const read = await getJson(t, s.key, `/v1/bank-statements/${stmt.id}`);
    expect(read.balance_check).toMatchObject({
      status: "mismatch",
      ledger_minor: ledger - 5_000,
      bank_minor: ledger - 5_100,
      difference_minor: -100,
    });
    const events = await getJson(t, s.key, "/v1/events?type=funding_account.balance_mismatch");
    expect(JSON.stringify(events)).toContain(stmt.id);
    const resolved = await t.app.inject({
      method: "POST",
      url: `/v1/bank-statements/${stmt.id}/resolve-mismatch`,
      headers: bearer(s.key),
      payload: { reason: "Bank charge booked on the account, explained with the bank" },
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().balance_check).toMatchObject({
      status: "resolved",
      resolved_reason: expect.stringMatching(/Bank charge/),
    });
    const again = await t.app.inject({
      method: "POST",
      url: `/v1/bank-statements/${stmt.id}/resolve-mismatch`,
      headers: bearer(s.key),
      payload: { reason: "x" },
    });
    expect(again.statusCode).toBe(409);
  });

  it("the first statement's opening balance, accepted by an admin, makes the closing balance agree; once per account", async () => {
    const s = await sentPayouts(t, [3_000]);
    const ledger = Number((await account(s)).posted_minor);
    const { stmt } = await apply(s, [bookingOf(s.payouts[0] as string, 3_000)], {
      openingBookedMinor: 1_000_000,
      closingBookedMinor: 1_000_000 + ledger - 3_000,
      sequenceNumber: 7,
    });
    expect((await getJson(t, s.key, `/v1/bank-statements/${stmt.id}`)).balance_check).toMatchObject({
      status: "mismatch",
      difference_minor: 1_000_000,
    });
    const accepted = await t.app.inject({
      method: "POST",
      url: `/v1/bank-statements/${stmt.id}/accept-opening-balance`,
      headers: bearer(s.key),
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().balance_check).toMatchObject({ status: "agrees", difference_minor: 0 });
    const twice = await t.app.inject({
      method: "POST",
      url: `/v1/bank-statements/${stmt.id}/accept-opening-balance`,
      headers: bearer(s.key),
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe("OPENING_BALANCE_ALREADY_SET");
    // The next statement agrees; one that skips a sequence number is a mismatch naming the gap.
    const next = await apply(s, [], {
      sequenceNumber: 8,
      closingBookedMinor: 1_000_000 + ledger - 3_000,
      closingDate: "2026-06-02",
    });
    expect((await getJson(t, s.key, `/v1/bank-statements/${next.stmt.id}`)).balance_check).toMatchObject({ status: "agrees" });
    const gap = await apply(s, [], {
      sequenceNumber: 10,
      closingBookedMinor: 1_000_000 + ledger - 3_000,
      closingDate: "2026-06-04",
    });
    expect((await getJson(t, s.key, `/v1/bank-statements/${gap.stmt.id}`)).balance_check).toMatchObject({
      status: "mismatch",
      difference_minor: 0,
      sequence_gap: { expected: 9, received: 10 },
    });
  });
});
