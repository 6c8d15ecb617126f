// The release of waiting payouts takes them `FOR UPDATE SKIP LOCKED` (it never waits for a payout a cancel or an
// expiry holds): a waiting payout whose row another transaction holds is skipped, and the release schedules itself
// again, so the payout is reserved (and sent) once that transaction ends. PostgreSQL only: PGlite runs one
// transaction at a time, so no row is ever locked by another one.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUNDING_RELEASE_JOB } from "../../src/modules/funding/index.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import { registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import { createPayout, decide, getPayout, payableBeneficiary, payoutEvents } from "../payouts/payout-fixtures.js";
import { expectLedgerConsistent, onlyFundingAccount, sandboxCredit, setFunding } from "./funding-fixtures.js";

describe.skipIf(!onPostgres)("the release of waiting payouts and a payout row locked elsewhere (PostgreSQL)", () => {
  let t: TestApp;
  const db = () => t.runtime.deps.database.db;
  const drain = () => t.runtime.createWorker(`release-${Math.random()}`).drain();

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it("skips the locked payout, reserves the next one, and runs again to reserve the skipped one once it is free", async () => {
    const business = await registerBusiness(t.app, "Release and locks");
    const key = business.keys.sandbox;
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const opener = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 1 });
    expect((await decide(t.app, key, opener.payout_id, "approve")).statusCode).toBe(201);
    await drain();
    const account = await onlyFundingAccount(t.app, key);
    expect((await sandboxCredit(t.app, key, account.id, 1)).statusCode).toBe(201);
    expect((await setFunding(t.app, key, account.id, { enforcement: "enforce" })).statusCode).toBe(200);

    // Two payouts wait for funds, the first in approval order is the one another transaction will hold.
    const ids: string[] = [];
    for (const amount of [1000, 2000]) {
      const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: amount });
      expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
      ids.push(payout.payout_id);
    }
    const [lockedId, freeId] = ids as [string, string];
    for (const id of ids) expect((await getPayout(t.app, key, id)).funding_status).toBe("awaiting_funds");

    const pool = t.runtime.deps.database.pool;
    if (pool === null) throw new Error("a PostgreSQL test has a pool");
    const other = await pool.connect();
    try {
      await other.query("begin");
      await other.query("select id from payouts where id = $1 for update", [lockedId]);

      // Money for both arrives; the release runs while the first payout's row is held.
      expect((await sandboxCredit(t.app, key, account.id, 3000)).statusCode).toBe(201);
      await drain();
      expect(await getPayout(t.app, key, lockedId)).toMatchObject({ status: "approved", funding_status: "awaiting_funds" });
      expect((await getPayout(t.app, key, freeId)).funding_status).not.toBe("awaiting_funds");
      const again = await db()
        .select({ runAt: jobs.runAt })
        .from(jobs)
        .where(
          and(
            eq(jobs.type, FUNDING_RELEASE_JOB.type),
            sql`${jobs.payload}->>'fundingAccountId' = ${account.id}`,
            eq(jobs.status, "pending"),
          ),
        );
      expect(again, "the release scheduled itself again").toHaveLength(1);
      expect(again[0]?.runAt.getTime()).toBeGreaterThan(t.clock.now().getTime());
    } finally {
      await other.query("rollback");
      other.release();
    }

    // The other transaction ended: the next run reserves the skipped payout, and the worker sends it.
    t.clock.advance(1000);
    await drain();
    await drain();
    expect(await getPayout(t.app, key, lockedId)).toMatchObject({ funding_status: "posted" });
    expect((await payoutEvents(db(), lockedId)).map((e) => e.type)).toContain("payout.funds_reserved");
    const after = await onlyFundingAccount(t.app, key);
    expect(after).toMatchObject({ available_minor: 0, awaiting_funds: { count: 0, amount_minor: 0 } });
    await expectLedgerConsistent(db(), after);
  });
});
