// The funding row as the one serialisation point of its balance, under real concurrency (PostgreSQL only: PGlite
// runs one transaction at a time): 50 concurrent approvals of 10.00 against 200.00 available with `enforce`
// reserve exactly 20, the other 30 wait; the row's balances equal the fold of its transfers. Rounds:
// FUNDING_RACE_ROUNDS (default 3; 100 for a deep local run). The ledger's own race file
// (test/ledger/funding-races-postgres.test.ts) has its own variable, LEDGER_RACE_ROUNDS.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import { createPayout, decide, payableBeneficiary } from "../payouts/payout-fixtures.js";
import { expectLedgerConsistent, onlyFundingAccount, sandboxCredit, setFunding } from "./funding-fixtures.js";

const ROUNDS = Number(process.env.FUNDING_RACE_ROUNDS || 3);
const APPROVALS = 50;
const AMOUNT = 1000;
const AVAILABLE = 20_000;

describe.skipIf(!onPostgres)("funding races on PostgreSQL", () => {
  let t: TestApp;
  const db = () => t.runtime.deps.database.db;

  beforeAll(async () => {
    // 20 approvals at once on the funding row (the rest queue for a connection): a real race, and room on the server
    // (max_connections 100) for the other test file the PostgreSQL pass runs beside this one.
    t = await buildTestApp({ env: { DATABASE_POOL_SIZE: "20" } });
  });
  afterAll(async () => t?.close());

  it(`${APPROVALS} concurrent approvals of 10.00 against 200.00 available reserve exactly 20 (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const business = await registerBusiness(t.app, `Funding race ${round}`);
      const key = business.keys.sandbox;
      const { beneficiaryId } = await payableBeneficiary(t.app, key);
      // The first approval creates the sandbox account (track-only: held at once); the worker disburses it.
      const opener = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 1 });
      expect((await decide(t.app, key, opener.payout_id, "approve")).statusCode).toBe(201);
      await t.runtime.createWorker(`race-${round}`).drain();
      const account = await onlyFundingAccount(t.app, key);
      expect((await sandboxCredit(t.app, key, account.id, AVAILABLE + 1)).statusCode).toBe(201);
      expect((await setFunding(t.app, key, account.id, { enforcement: "enforce" })).statusCode).toBe(200);

      const ids: string[] = [];
      for (let i = 0; i < APPROVALS; i += 1) {
        ids.push((await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: AMOUNT })).payout_id);
      }
      // The pool's connections opened before the race (opening 50 at once on a loaded machine can exceed the pool's
      // 5 s connection limit and answer 503, which is not what this test is about).
      const pool = t.runtime.deps.database.pool;
      if (pool) await Promise.all(Array.from({ length: 20 }, () => pool.query("select 1")));
      const answers = await Promise.all(ids.map((id) => decide(t.app, key, id, "approve")));
      expect(answers.filter((a) => a.statusCode !== 201).map((a) => a.body)).toEqual([]);

      const statuses = await queryRows<{ funding_status: string; count: number }>(
        db(),
        sql`select funding_status, count(*)::int as count from payouts where id in ${ids} group by funding_status order by funding_status`,
      );
      expect(statuses).toEqual([
        { funding_status: "awaiting_funds", count: APPROVALS - AVAILABLE / AMOUNT },
        { funding_status: "reserved", count: AVAILABLE / AMOUNT },
      ]);
      const after = await onlyFundingAccount(t.app, key);
      expect(after).toMatchObject({
        available_minor: 0,
        pending_minor: AVAILABLE,
        awaiting_funds: { count: APPROVALS - AVAILABLE / AMOUNT, amount_minor: (APPROVALS - AVAILABLE / AMOUNT) * AMOUNT },
      });
      await expectLedgerConsistent(db(), after);
    }
  });
});
