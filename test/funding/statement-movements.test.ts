// Several statement movements of one funding account posted in one statement (funding postStatementMovements,
// ledger postTransfers, used by the reconciliation intake for a statement's unmatched lines and fees): each
// transfer carries the balances after it in the order given, a key repeated within a call or across calls posts
// nothing more (the first transfer of the key comes back), the row ends at the fold of its entries. Runs on
// PGlite, and on PostgreSQL with TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFundingPostings } from "../../src/modules/funding/funding.postings.js";
import { listTransfersCausedBy } from "../../src/modules/ledger/ledger.shared.js";
import { transaction } from "../../src/platform/db/client.js";
import { registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide, payableBeneficiary } from "../payouts/payout-fixtures.js";
import { expectLedgerConsistent, onlyFundingAccount } from "./funding-fixtures.js";

let t: TestApp;
const db = () => t.runtime.deps.database.db;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

const line = (id: string) => ({ type: "statement_line" as const, id });

describe("statement movements posted in one statement", () => {
  it("gives each transfer the balances after it, in order; a repeated key posts nothing, within a call and across calls", async () => {
    const business = await registerBusiness(t.app, "Bulk movements");
    const key = business.keys.sandbox;
    const tenant = { businessId: business.businessId, environment: "sandbox" as const };
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    // The first approval opens the sandbox account: posted 0, 100 held.
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 100 });
    expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
    const account = await onlyFundingAccount(t.app, key);
    expect(account).toMatchObject({ posted_minor: 0, pending_minor: 100 });
    const { clock, ids, events, jobStore } = t.runtime.deps;
    const postings = createFundingPostings({ clock, ids, events, jobStore });

    const first = await transaction(db(), (tx) =>
      postings.postStatementMovements(tx, tenant, account.id, [
        { amountMinor: 500, counterpart: "outside_world", step: "credit", cause: line("a"), idempotencyKey: "bulk:a" },
        { amountMinor: -200, counterpart: "fees", step: "fee", cause: line("b"), idempotencyKey: "bulk:b" },
        { amountMinor: 500, counterpart: "outside_world", step: "credit", cause: line("a"), idempotencyKey: "bulk:a" },
        { amountMinor: -50, counterpart: "suspense", step: "post", cause: line("c"), idempotencyKey: "bulk:c" },
      ]),
    );
    expect(first.map((x) => [x.idempotencyKey, x.postedAfterMinor, x.pendingAfterMinor])).toEqual([
      ["bulk:a", 500, 100],
      ["bulk:b", 300, 100],
      ["bulk:a", 500, 100],
      ["bulk:c", 250, 100],
    ]);
    expect(first[2]?.id).toBe(first[0]?.id);
    expect(first[1]?.entries).toEqual([
      { account: "fees", amountMinor: 200, pending: false },
      { account: "funding", amountMinor: -200, pending: false },
    ]);
    // Recorded in the order given (seq ascending).
    expect((first[1]?.seq ?? 0) > (first[0]?.seq ?? 0) && (first[3]?.seq ?? 0) > (first[1]?.seq ?? 0)).toBe(true);

    const second = await transaction(db(), (tx) =>
      postings.postStatementMovements(tx, tenant, account.id, [
        { amountMinor: -200, counterpart: "fees", step: "fee", cause: line("b"), idempotencyKey: "bulk:b" },
        { amountMinor: 1000, counterpart: "outside_world", step: "credit", cause: line("d"), idempotencyKey: "bulk:d" },
      ]),
    );
    expect(second.map((x) => [x.idempotencyKey, x.postedAfterMinor])).toEqual([
      ["bulk:b", 300],
      ["bulk:d", 1250],
    ]);
    expect(second[0]?.id).toBe(first[1]?.id);
    // Every key already recorded: nothing changes, the recorded transfers come back.
    const third = await transaction(db(), (tx) =>
      postings.postStatementMovements(tx, tenant, account.id, [
        { amountMinor: 500, counterpart: "outside_world", step: "credit", cause: line("a"), idempotencyKey: "bulk:a" },
      ]),
    );
    expect(third.map((x) => x.id)).toEqual([first[0]?.id]);

    for (const cause of ["a", "b", "c", "d"]) expect(await listTransfersCausedBy(db(), tenant, line(cause))).toHaveLength(1);
    const after = await onlyFundingAccount(t.app, key);
    expect(after).toMatchObject({ posted_minor: 1250, pending_minor: 100 });
    await expectLedgerConsistent(db(), after);
  });
});
