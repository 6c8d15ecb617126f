// Two workers reading the same statement at once (issue 28), on PostgreSQL (PGlite runs transactions one after
// another, so a race there proves nothing): one statement, each line once, each payout reconciled once with one
// payout.reconciled event, the money posted once; and two different statements carrying the same entries.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../helpers/test-app.js";
import { payoutEvents } from "../payouts/payout-fixtures.js";
import { bookingOf, buildReconApp, getJson, line, reconService, sentPayouts, statement } from "./recon-fixtures.js";

const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
let t: TestApp;
const db = () => t.runtime.deps.database.db;

beforeAll(async () => {
  if (onPostgres) ({ t } = await buildReconApp());
});
afterAll(async () => t?.close());

describe.skipIf(!onPostgres)("two workers reading the same statement (PostgreSQL)", () => {
  it("the same statement twice at once, and two statements with the same entries at once, record and move everything once", async () => {
    for (let round = 0; round < 3; round += 1) {
      const s = await sentPayouts(t, [1_000 + round, 2_000 + round, 3_000 + round]);
      const before = Number((await getJson(t, s.key, `/v1/funding-accounts/${s.fundingAccountId}`)).posted_minor);
      const entries = [
        bookingOf(s.payouts[0] as string, 1_000 + round),
        bookingOf(s.payouts[1] as string, 2_000 + round, { bankReference: null }),
        line({ amountMinor: 77 + round, remittance: "Bank fee" }),
      ];
      const same = statement(s, entries);
      const other = statement(s, entries, { messageId: `OTHER-${round}` });
      const service = reconService(t);
      const results = await Promise.allSettled([
        service.receiveStatements(s.tenant, [same]),
        service.receiveStatements(s.tenant, [same]),
        service.receiveStatements(s.tenant, [other]),
      ]);
      for (const r of results) expect(r.status, r.status === "rejected" ? String(r.reason) : "").toBe("fulfilled");
      const created = results.map((r) => (r.status === "fulfilled" ? r.value.created : null));
      expect(created.slice(0, 2).sort()).toEqual([false, true]);
      const lines = await db().execute(
        sql`select count(*)::int as n from statement_lines where funding_account_id = ${s.fundingAccountId}`,
      );
      expect((lines as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(3);
      for (const payoutId of s.payouts.slice(0, 2)) {
        const types = (await payoutEvents(db(), payoutId)).map((e) => e.type);
        expect(types.filter((type) => type === "payout.reconciled")).toHaveLength(1);
        expect(types.filter((type) => type === "payout.disbursed")).toHaveLength(1);
      }
      const after = Number((await getJson(t, s.key, `/v1/funding-accounts/${s.fundingAccountId}`)).posted_minor);
      expect(after - before).toBe(-(1_000 + round) - (2_000 + round) - (77 + round));
    }
  });
});
