// Funding races under real concurrency (PostgreSQL only: PGlite runs one transaction at a time), each repeated with
// random interleavings, the ledger's invariants (ledger-invariants.ts) checked after every round:
// - approvals racing a credit on an enforced account: every approval ends reserved or waiting, never lost; once the
//   release has run, exactly the payouts the money covers are reserved (no payout left waiting while available
//   covers it), and the balances are exact;
// - cancels racing the release of waiting payouts: a canceled payout never ends up holding funds, a payout the
//   release reserved is paid (not canceled), each hold is voided or posted at most once.
// Rounds: LEDGER_RACE_ROUNDS (default 12; test/funding/races-postgres.test.ts has its own, FUNDING_RACE_ROUNDS).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import {
  createPayout,
  createScriptedRail,
  decide,
  newKey,
  payableBeneficiary,
  railsWithProduction,
  type ScriptedRail,
} from "../payouts/payout-fixtures.js";
import { credit, fundingAccountOf, fundingStatusCounts, setEnforcement } from "./funding-helpers.js";
import { ledgerViolations } from "./ledger-invariants.js";

const ROUNDS = Number(process.env.LEDGER_RACE_ROUNDS || 12);
const TIMEOUT_MS = 60_000 + ROUNDS * 20_000;
const PAYOUTS = 12;
const AMOUNT = 1000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = (max: number) => pause(Math.floor(Math.random() * (max + 1)));

describe.skipIf(!onPostgres)("funding races on PostgreSQL", () => {
  let t: TestApp;
  let rail: ScriptedRail;
  const db = () => t.runtime.deps.database.db;
  const drain = () => t.runtime.createWorker(`w-${newKey()}`).drain();

  beforeAll(async () => {
    rail = createScriptedRail();
    t = await buildTestApp({ rails: railsWithProduction(rail), env: { RATE_LIMIT_REQUESTS: "10000000" } });
  });
  afterAll(async () => t?.close());

  /** A Business whose funding account of `environment` exists, is enforced (overdraft 0) and has `available` 0. */
  async function enforcedAccount(environment: "sandbox" | "production") {
    const business: RegisteredBusiness = await registerBusiness(t.app);
    const key = business.keys[environment];
    const tenant = { businessId: business.businessId, environment };
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    // The first approval opens the account (track_only) and holds 1; a credit of 1 brings available to 0.
    const first = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 1 });
    expect((await decide(t.app, key, first.payout_id, "approve")).statusCode).toBe(201);
    const account = await fundingAccountOf(db(), business.businessId, environment);
    if (account === null) throw new Error("the first approval opened no funding account");
    await credit(t, tenant, key, account.id, 1);
    expect(await setEnforcement(t, key, account.id, "enforce", 0)).toBe(true);
    await drain();
    return { business, key, tenant, beneficiaryId, accountId: account.id };
  }

  async function expectInvariants(businessId: string, round: number) {
    expect(await ledgerViolations(db(), { businessId }), `round ${round}`).toEqual([]);
  }

  it(
    "approvals racing a credit: every approval reserved or waiting, then exactly those the money covers reserved",
    async () => {
      const { business, key, tenant, beneficiaryId, accountId } = await enforcedAccount("sandbox");
      let expectedPosted = (await fundingAccountOf(db(), business.businessId, "sandbox"))?.posted ?? 0;
      const tally = { reservedAtOnce: 0, waitedThenReserved: 0 };
      let span = 100;
      for (let round = 0; round < ROUNDS; round += 1) {
        const before = await fundingAccountOf(db(), business.businessId, "sandbox");
        const available = (before?.posted ?? 0) - (before?.pending ?? 0);
        expect(available, `round ${round}: starts with nothing available`).toBe(0);
        const payouts = [];
        for (let i = 0; i < PAYOUTS; i += 1) {
          payouts.push((await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: AMOUNT })).payout_id);
        }
        // Enough for some of them (never all): 1 to PAYOUTS - 1 payouts' worth.
        const covered = 1 + Math.floor(Math.random() * (PAYOUTS - 1));
        // Every third round the credit lands before the approvals, every third after them (so both sides of the race
        // happen whatever the machine's load); otherwise anywhere in the span the approvals took last round (it is
        // faster than an HTTP approval).
        const order = round % 3 === 0 ? "credit_first" : round % 3 === 1 ? "credit_last" : "raced";
        if (order === "credit_first") await credit(t, tenant, key, accountId, covered * AMOUNT);
        const started = performance.now();
        const answers = await Promise.all([
          ...payouts.map((id) => jitter(8).then(() => decide(t.app, key, id, "approve"))),
          order === "raced" ? jitter(span).then(() => credit(t, tenant, key, accountId, covered * AMOUNT)) : null,
        ]);
        if (order === "raced") span = Math.max(10, Math.round(performance.now() - started));
        if (order === "credit_last") await credit(t, tenant, key, accountId, covered * AMOUNT);
        for (const answer of answers.slice(0, PAYOUTS)) {
          expect(answer?.statusCode, answer?.body).toBe(201);
        }
        // Right after the race: each approval either holds or waits; what is held never exceeds the credit.
        const raced = await fundingStatusCounts(db(), accountId, payouts);
        expect((raced.reserved ?? 0) + (raced.awaiting_funds ?? 0), `round ${round}: ${JSON.stringify(raced)}`).toBe(PAYOUTS);
        expect(raced.reserved ?? 0).toBeLessThanOrEqual(covered);
        if (order === "credit_first") expect(raced.reserved ?? 0, `round ${round}: the money was there`).toBe(covered);
        if (order === "credit_last") expect(raced.reserved ?? 0, `round ${round}: no money yet`).toBe(0);
        tally.reservedAtOnce += raced.reserved ?? 0;
        if (process.env.LEDGER_RACE_DEBUG) console.info(`round ${round}: covered ${covered}, at once ${JSON.stringify(raced)}`);
        await expectInvariants(business.businessId, round);

        // The release (and the sandbox rail's disbursement of each reserved payout) runs.
        await drain();
        await drain();
        const settled = await fundingStatusCounts(db(), accountId, payouts);
        expect(settled, `round ${round}: covered ${covered}`).toEqual({
          posted: covered,
          awaiting_funds: PAYOUTS - covered,
        });
        tally.waitedThenReserved += covered - (raced.reserved ?? 0);
        expectedPosted += covered * AMOUNT - covered * AMOUNT;
        const after = await fundingAccountOf(db(), business.businessId, "sandbox");
        expect({ posted: after?.posted, pending: after?.pending, awaiting: after?.awaitingCount }).toEqual({
          posted: expectedPosted,
          pending: 0,
          awaiting: PAYOUTS - covered,
        });
        await expectInvariants(business.businessId, round);
        // The ones still waiting are funded for the next round's start: credited and released, then paid.
        await credit(t, tenant, key, accountId, (PAYOUTS - covered) * AMOUNT);
        await drain();
        await drain();
        expect(await fundingStatusCounts(db(), accountId, payouts)).toEqual({ posted: PAYOUTS });
        await expectInvariants(business.businessId, round);
      }
      // Both sides happened: approvals that found the credit, and approvals that waited for it (ROUNDS >= 2).
      expect(tally.reservedAtOnce).toBeGreaterThan(0);
      expect(tally.waitedThenReserved).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );

  it(
    "cancels racing the release of waiting payouts: a canceled payout never holds funds",
    async () => {
      const { business, key, tenant, beneficiaryId, accountId } = await enforcedAccount("production");
      const tally = { canceledWhileWaiting: 0, refused: 0, canceledAfterReserve: 0 };
      let span = 100;
      for (let round = 0; round < ROUNDS; round += 1) {
        // Held before the round: the payouts of earlier rounds (sent to the rail, which has not answered yet).
        const heldBefore = (await fundingAccountOf(db(), business.businessId, "production"))?.pending ?? 0;
        const payouts = [];
        for (let i = 0; i < PAYOUTS; i += 1) {
          const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: AMOUNT });
          expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
          payouts.push(payout.payout_id);
        }
        expect(await fundingStatusCounts(db(), accountId, payouts)).toEqual({ awaiting_funds: PAYOUTS });
        // Funds for all of them arrive; the release (and the disbursements it dispatches) runs while half are canceled.
        await credit(t, tenant, key, accountId, PAYOUTS * AMOUNT);
        // At least one target each round (the first payout), the others by a coin.
        const targets = payouts.filter((_, i) => i === 0 || Math.random() < 0.5);
        const cancel = (id: string) =>
          t.app.inject({ method: "POST", url: `/v1/payouts/${id}/cancel`, headers: bearer(key), payload: {} });
        // Every third round the cancels land before the worker runs, every third after it (so both outcomes happen
        // whatever the machine's load); otherwise anywhere in the span the worker's run took last round: before the
        // release, between the release and the disbursement, after the disbursement.
        const order = round % 3 === 0 ? "cancels_first" : round % 3 === 1 ? "cancels_last" : "raced";
        let answers: Awaited<ReturnType<typeof cancel>>[];
        if (order === "cancels_first") {
          answers = await Promise.all(targets.map(cancel));
          await drain();
        } else if (order === "cancels_last") {
          await drain();
          answers = await Promise.all(targets.map(cancel));
        } else {
          const [drainMs, ...raced] = await Promise.all([
            jitter(6).then(async () => {
              const started = performance.now();
              await drain();
              return performance.now() - started;
            }),
            ...targets.map((id) => jitter(span).then(() => cancel(id))),
          ]);
          span = Math.max(10, Math.round((drainMs as number) * 1.2));
          answers = raced as Awaited<ReturnType<typeof cancel>>[];
        }
        await drain();
        await drain();
        const canceled = new Set<string>();
        for (const [i, answer] of answers.entries()) {
          if (answer.statusCode === 200) canceled.add(targets[i] as string);
          else {
            expect(answer.statusCode, answer.body).toBe(409);
            expect(order, `round ${round}: a cancel before the release was refused`).not.toBe("cancels_first");
            tally.refused += 1;
          }
        }
        const rows = await queryRows<{ id: string; status: string; funding_status: string; held: boolean }>(
          db(),
          sql`select id, status::text, funding_status,
                   exists (select 1 from ledger_transfers t where t.cause_type = 'payout' and t.cause_id = payouts.id::text
                           and t.step = 'hold') as held
            from payouts where id in (${sql.join(
              payouts.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`,
        );
        for (const row of rows) {
          if (canceled.has(row.id)) {
            expect(row.status, `round ${round}`).toBe("canceled");
            expect(
              rail.submissions.some((s) => s.payoutId === row.id),
              `round ${round}: canceled, yet sent`,
            ).toBe(false);
            expect(row.funding_status).toBe("released");
            if (row.held) tally.canceledAfterReserve += 1;
            else tally.canceledWhileWaiting += 1;
          } else {
            // Not canceled: reserved by the release and sent to the rail once.
            expect(row.status, `round ${round}: ${row.id}`).toBe("approved");
            expect(rail.submissions.filter((s) => s.payoutId === row.id)).toHaveLength(1);
          }
        }
        const account = await fundingAccountOf(db(), business.businessId, "production");
        // Held: exactly the payouts not canceled; the canceled ones' money is available again.
        expect({ pending: account?.pending, awaiting: account?.awaitingCount }).toEqual({
          pending: heldBefore + (PAYOUTS - canceled.size) * AMOUNT,
          awaiting: 0,
        });
        await expectInvariants(business.businessId, round);
        // The next round starts from available 0 again: what the canceled payouts left available is held by one
        // more payout of exactly that amount (it fits, so it is reserved at its approval).
        const spare = (account?.posted ?? 0) - (account?.pending ?? 0);
        if (spare > 0) {
          const sink = await createPayout(t.app, key, {
            beneficiary_id: beneficiaryId,
            amount_minor: spare,
            idempotency_key: newKey(),
          });
          expect((await decide(t.app, key, sink.payout_id, "approve")).statusCode).toBe(201);
          await drain();
        }
      }
      expect(tally.canceledWhileWaiting + tally.canceledAfterReserve).toBeGreaterThan(0);
      if (process.env.LEDGER_RACE_DEBUG) console.info(`cancels: ${JSON.stringify(tally)}`);
      expect(tally.refused).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );
});
