// The ledger's invariant suite (issue 27): a fast-check model-based test on the real service (PGlite by default,
// PostgreSQL with TEST_DATABASE_URL). Each run is a fresh Business driving random commands through the API and the
// worker: payout creations, approvals, rejections, cancels, rail outcomes (the rail-outcome jobs the simulator's
// control endpoint enqueues: disbursed, failed, canceled, returned, compliance hold and its release; refusals at
// submission), sandbox credits and production credits (the funding module's CreditFundingAccount port, as a top-up's
// approval calls it), enforcement toggled with an overdraft limit, time passing (settlement, expiry of waiting
// payouts), and worker crashes: a job whose transaction committed but whose completion was never recorded (it runs
// again), or a job run twice. After every command:
//   - the SQL invariants of ledger-invariants.ts (entries sum to zero, balances are the fold of their transfers,
//     available >= -overdraft where enforced, at most one post or void per hold, funding_status consistent with
//     status, no dispatch without a hold);
//   - the API: each funding account's posted/pending/available, and GET .../balance?at=T for T at its transfers'
//     times (and just before them, and now) equal the fold of its entries up to T;
//   - the model: posted = the credits this run made - the payouts whose funding is posted.
// Runs: LEDGER_RUNS (default 4 on both engines; each run opens with a payout the rail refuses, so a void is always
// covered; up to 60 commands each:
// LEDGER_MAX_COMMANDS); LEDGER_SEED replays a failing seed (fast-check prints the seed and the shrunk command list on
// failure; the suite also prints the seed it used). A deep local run: LEDGER_RUNS=50.
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, queryRows, transaction } from "../../src/platform/db/client.js";
import type { JobContext, JobHandler, JobHandlers } from "../../src/platform/jobs/worker.js";
import { createWorker, RetryJobError } from "../../src/platform/jobs/worker.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import {
  createScriptedRail,
  enqueueOutcome,
  newKey,
  payableBeneficiary,
  postPayout,
  railsWithProduction,
  type ScriptedRail,
} from "../payouts/payout-fixtures.js";
import { credit as creditAccount, creditPort, setEnforcement } from "./funding-helpers.js";
import { foldAt, ledgerViolations } from "./ledger-invariants.js";

const RUNS = Number(process.env.LEDGER_RUNS || 4);
const SEED = process.env.LEDGER_SEED ? Number(process.env.LEDGER_SEED) : Date.now() % 2_147_483_647;
const MAX_COMMANDS = Number(process.env.LEDGER_MAX_COMMANDS || 60);
/** The scripted rail refuses this amount at submission (the payout fails with its hold voided). */
const REFUSED_AMOUNT = 1313;
const AMOUNTS = [500, 1000, 2500, 4000, REFUSED_AMOUNT] as const;
const CREDITS = [1000, 3000, 10_000, 30_000] as const;
const HOUR = 3_600_000;

type Env = "sandbox" | "production";
type CrashMode = "none" | "after_commit" | "twice";

interface Model {
  /** Credits this run posted, per funding account. */
  readonly credits: Map<string, number>;
  commands: number;
}

interface Real {
  readonly businessId: string;
  readonly keys: Readonly<Record<Env, string>>;
  readonly beneficiaries: Readonly<Record<Env, string>>;
  /** Crash modes for the next jobs the worker runs, consumed in order. */
  crashes: CrashMode[];
}

let t: TestApp;
let rail: ScriptedRail;
const db = (): Db => t.runtime.deps.database.db;

/** Job types whose handlers move money (the ones a crash is injected into). */
const CRASHABLE = /^(payout|funding)\./;

/**
 * The worker's handlers, each run under the crash mode at the head of `real.crashes` (first attempts only, so a
 * job is never buried by crashes alone): `after_commit` runs it with a completion that records nothing (its
 * transaction commits, the job stays claimed) then fails it for an immediate retry, as when a worker dies after its
 * commit; `twice` runs it that way and then again for real.
 */
function crashingHandlers(real: Real, handlers: JobHandlers): JobHandlers {
  const wrapped: Record<string, JobHandler> = {};
  for (const [type, handler] of Object.entries(handlers)) {
    wrapped[type] = async (payload, context) => {
      const mode = CRASHABLE.test(type) && context.job.attempt === 1 ? (real.crashes.shift() ?? "none") : "none";
      if (mode === "none") return handler(payload, context);
      const forgetful: JobContext = {
        job: context.job,
        completeWithin: async () => true,
        completeGrouped: context.completeGrouped,
      };
      await handler(payload, forgetful);
      if (mode === "after_commit") throw new RetryJobError(`injected crash after the commit of ${type}`, 0);
      return handler(payload, context);
    };
  }
  return wrapped;
}

async function drain(real: Real): Promise<void> {
  const worker = createWorker({
    store: t.runtime.deps.jobStore,
    handlers: crashingHandlers(real, t.runtime.handlers),
    clock: t.clock,
    logger: t.runtime.deps.logger,
    workerId: `invariants-${newKey()}`,
    concurrency: 4,
    pollIntervalMs: 1000,
    leaseMs: 60_000,
  });
  await worker.drain();
}

async function payoutsOf(real: Real, env: Env, statuses: readonly string[], dispatched?: boolean) {
  const rows = await queryRows<{ id: string }>(
    db(),
    sql`select id from payouts where business_id = ${real.businessId}::uuid and environment = ${env}
        and status::text in (${sql.join(
          statuses.map((s) => sql`${s}`),
          sql`, `,
        )})
        and (${dispatched ?? null}::boolean is null or (rail_ref is not null) = ${dispatched ?? null}::boolean)
        order by id`,
  );
  return rows.map((r) => r.id);
}

async function fundingAccountOf(real: Real, env: Env): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(
    db(),
    sql`select id from funding_accounts where business_id = ${real.businessId}::uuid and environment = ${env} order by id limit 1`,
  );
  return row?.id ?? null;
}

const pick = <T>(items: readonly T[], index: number): T | undefined =>
  items.length === 0 ? undefined : items[index % items.length];

function inject(real: Real, env: Env, method: "GET" | "POST" | "PATCH", url: string, payload?: Record<string, unknown>) {
  return t.app.inject({ method, url, headers: bearer(real.keys[env]), ...(payload === undefined ? {} : { payload }) });
}

// --- commands -------------------------------------------------------------------------------------------------

abstract class Step implements fc.AsyncCommand<Model, Real> {
  check(): boolean {
    return true;
  }
  abstract act(model: Model, real: Real): Promise<void>;
  async run(model: Model, real: Real): Promise<void> {
    model.commands += 1;
    // A second between commands, so transfers have distinct times and "balance at T" tells them apart.
    t.clock.advance(1000);
    await this.act(model, real);
    await checkInvariants(model, real, this.toString());
  }
  abstract toString(): string;
}

class CreatePayout extends Step {
  constructor(
    readonly env: Env,
    readonly amount: number,
  ) {
    super();
  }
  async act(_m: Model, real: Real) {
    const response = await postPayout(t.app, real.keys[this.env], {
      beneficiary_id: real.beneficiaries[this.env],
      amount_minor: this.amount,
      currency: "EUR",
      idempotency_key: newKey(),
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  toString() {
    return `create(${this.env}, ${this.amount})`;
  }
}

class Decide extends Step {
  constructor(
    readonly env: Env,
    readonly decision: "approve" | "reject",
    readonly index: number,
  ) {
    super();
  }
  async act(_m: Model, real: Real) {
    const id = pick(await payoutsOf(real, this.env, ["pending_approval"]), this.index);
    if (id === undefined) return;
    const response = await inject(
      real,
      this.env,
      "POST",
      `/v1/payouts/${id}/${this.decision}`,
      this.decision === "reject" ? { reason: "no" } : undefined,
    );
    expect(response.statusCode, response.body).toBe(201);
  }
  toString() {
    return `${this.decision}(${this.env}, #${this.index})`;
  }
}

class Cancel extends Step {
  constructor(readonly index: number) {
    super();
  }
  async act(_m: Model, real: Real) {
    const id = pick(await payoutsOf(real, "production", ["pending_approval", "approved"]), this.index);
    if (id === undefined) return;
    const response = await inject(real, "production", "POST", `/v1/payouts/${id}/cancel`, {});
    expect([200, 409], response.body).toContain(response.statusCode);
  }
  toString() {
    return `cancel(#${this.index})`;
  }
}

type OutcomeType = "disbursed" | "failed" | "canceled" | "returned" | "compliance_hold" | "compliance_hold_cleared";

class RailOutcome extends Step {
  constructor(
    readonly type: OutcomeType,
    readonly index: number,
    readonly crashes: CrashMode[],
  ) {
    super();
  }
  async act(_m: Model, real: Real) {
    // A rail answers only for payouts it was given.
    const id = pick(
      await payoutsOf(real, "production", ["approved", "disbursed", "settled", "compliance_hold"], true),
      this.index,
    );
    if (id === undefined) return;
    const outcome =
      this.type === "disbursed" || this.type === "compliance_hold_cleared"
        ? { type: this.type }
        : { type: this.type, reason: `simulated ${this.type}` };
    await enqueueOutcome(db(), id, outcome as Parameters<typeof enqueueOutcome>[2], t.clock.now());
    real.crashes.push(...this.crashes);
    await drain(real);
    real.crashes = [];
  }
  toString() {
    return `outcome(${this.type}, #${this.index}, crashes ${this.crashes.join("/") || "none"})`;
  }
}

class Credit extends Step {
  constructor(
    readonly env: Env,
    readonly amount: number,
  ) {
    super();
  }
  async act(model: Model, real: Real) {
    const account = await fundingAccountOf(real, this.env);
    if (account === null) return;
    const tenant = { businessId: real.businessId, environment: this.env };
    if (this.env === "sandbox") {
      await creditAccount(t, tenant, real.keys.sandbox, account, this.amount);
    } else {
      // A top-up's approval calls the port; a retried approval (same idempotency key) posts nothing more.
      const id = crypto.randomUUID();
      const input = {
        fundingAccountId: account,
        amountMinor: this.amount,
        cause: { type: "top_up" as const, id },
        idempotencyKey: `top_up:${id}:credit`,
      };
      await transaction(db(), (tx) => creditPort(t)(tx, tenant, input));
      await transaction(db(), (tx) => creditPort(t)(tx, tenant, input));
    }
    model.credits.set(account, (model.credits.get(account) ?? 0) + this.amount);
  }
  toString() {
    return `credit(${this.env}, ${this.amount})`;
  }
}

class Enforcement extends Step {
  constructor(
    readonly env: Env,
    readonly enforce: boolean,
    readonly overdraft: number,
  ) {
    super();
  }
  async act(_m: Model, real: Real) {
    const account = await fundingAccountOf(real, this.env);
    if (account === null) return;
    // Turning enforcement on over an account already below its limit may be refused; the invariants hold either way.
    await setEnforcement(t, real.keys[this.env], account, this.enforce ? "enforce" : "track_only", this.overdraft);
  }
  toString() {
    return `enforcement(${this.env}, ${this.enforce ? "enforce" : "track_only"}, overdraft ${this.overdraft})`;
  }
}

class Drain extends Step {
  constructor(readonly crashes: CrashMode[]) {
    super();
  }
  async act(_m: Model, real: Real) {
    real.crashes.push(...this.crashes);
    await drain(real);
    real.crashes = [];
  }
  toString() {
    return `drain(crashes ${this.crashes.join("/") || "none"})`;
  }
}

class Advance extends Step {
  constructor(readonly hours: number) {
    super();
  }
  async act(_m: Model, real: Real) {
    t.clock.advance(this.hours * HOUR);
    await drain(real);
  }
  toString() {
    return `advance(${this.hours}h)`;
  }
}

// --- checks after every command --------------------------------------------------------------------------------

async function checkInvariants(model: Model, real: Real, after: string, everyInstant = false): Promise<void> {
  const violations = await ledgerViolations(db(), { businessId: real.businessId });
  expect(violations, `after ${after}`).toEqual([]);
  const accounts = await queryRows<{ id: string; environment: Env }>(
    db(),
    sql`select id, environment from funding_accounts where business_id = ${real.businessId}::uuid`,
  );
  for (const account of accounts) {
    const read = await inject(real, account.environment, "GET", `/v1/funding-accounts/${account.id}`);
    expect(read.statusCode, read.body).toBe(200);
    const body = read.json() as { posted_minor: number; pending_minor: number; available_minor: number };
    const fold = await foldAt(db(), account.id, null);
    expect(
      { posted: body.posted_minor, pending: body.pending_minor, available: body.available_minor },
      `after ${after}: GET /v1/funding-accounts/${account.id}`,
    ).toEqual({ ...fold, available: fold.posted - fold.pending });

    // The model: money in minus the payouts whose funding is posted (a return reverses all of it).
    const [posted] = await queryRows<{ minor: string }>(
      db(),
      sql`select coalesce(sum(amount_minor), 0)::text as minor from payouts
          where funding_account_id = ${account.id}::uuid and funding_status = 'posted'`,
    );
    expect(fold.posted, `after ${after}: posted = credits - posted payouts`).toBe(
      (model.credits.get(account.id) ?? 0) - Number(posted?.minor ?? 0),
    );

    // Balance at T: at every transfer's time, just before it, and now.
    const times = sampleTimes(
      await queryRows<{ at: Date }>(
        db(),
        sql`select distinct created_at as at from ledger_transfers where funding_account_id = ${account.id}::uuid order by 1`,
      ),
      everyInstant,
    );
    const instants = new Set<number>([t.clock.now().getTime()]);
    for (const { at } of times) {
      const ms = new Date(at).getTime();
      instants.add(ms);
      instants.add(ms - 1);
    }
    for (const ms of instants) {
      const at = new Date(ms).toISOString();
      const balance = await inject(
        real,
        account.environment,
        "GET",
        `/v1/funding-accounts/${account.id}/balance?at=${encodeURIComponent(at)}`,
      );
      expect(balance.statusCode, balance.body).toBe(200);
      const b = balance.json() as { posted_minor: number; pending_minor: number; available_minor: number };
      const expected = await foldAt(db(), account.id, new Date(ms));
      expect(
        { posted: b.posted_minor, pending: b.pending_minor, available: b.available_minor },
        `after ${after}: balance at ${at}`,
      ).toEqual({
        ...expected,
        available: expected.posted - expected.pending,
      });
    }
  }
}

/**
 * The transfer times "balance at T" is checked at after a step: every one at the end of a run; after each step the
 * latest two (where the step's transfers are) and one earlier, so a step costs a bounded number of reads however
 * long the run.
 */
function sampleTimes<T>(times: readonly T[], every: boolean): readonly T[] {
  if (every || times.length <= 3) return times;
  return [times[Math.floor(Math.random() * (times.length - 2))] as T, ...times.slice(-2)];
}

/** What the runs reached (printed at the end, so a run that exercised nothing shows it). */
const coverage = new Map<string, number>();
async function tallyCoverage(real: Real, model: Model): Promise<void> {
  const add = (key: string, count: number) => coverage.set(key, (coverage.get(key) ?? 0) + count);
  add("commands", model.commands);
  const rows = await queryRows<{ key: string; n: number }>(
    db(),
    sql`select 'transfer:' || step as key, count(*)::int as n from ledger_transfers where business_id = ${real.businessId}::uuid group by step
        union all
        select 'payout:' || status::text || '/' || funding_status, count(*)::int from payouts where business_id = ${real.businessId}::uuid group by status, funding_status
        union all
        select 'account:' || enforcement, count(*)::int from funding_accounts where business_id = ${real.businessId}::uuid group by enforcement
        union all
        select 'event:' || type, count(*)::int from events where business_id = ${real.businessId}::uuid and type like 'payout.%funds%' group by type
        union all
        select 'job-retried:' || type, count(*)::int from jobs where attempts > 1 and payload->>'payoutId' in (select id::text from payouts where business_id = ${real.businessId}::uuid) group by type`,
  );
  for (const row of rows) add(row.key, row.n);
}

// --- arbitraries ------------------------------------------------------------------------------------------------

const env = fc.constantFrom<Env>("sandbox", "production");
const index = fc.nat({ max: 50 });
const crashes = fc.array(fc.constantFrom<CrashMode>("none", "none", "after_commit", "twice"), { maxLength: 4 });
const create = fc.tuple(env, fc.constantFrom(...AMOUNTS)).map(([e, a]) => new CreatePayout(e, a));
const approve = fc.tuple(env, index).map(([e, i]) => new Decide(e, "approve", i));
const outcome = fc
  .tuple(
    fc.constantFrom<OutcomeType>(
      "disbursed",
      "disbursed",
      "failed",
      "canceled",
      "returned",
      "compliance_hold",
      "compliance_hold_cleared",
    ),
    index,
    crashes,
  )
  .map(([type, i, c]) => new RailOutcome(type, i, c));
const drainStep = crashes.map((c) => new Drain(c));
const credit = fc.tuple(env, fc.constantFrom(...CREDITS)).map(([e, a]) => new Credit(e, a));
/** fc.commands picks uniformly among these: repeats weigh the mix towards payouts that get somewhere. */
const commands = [
  create,
  create,
  create,
  approve,
  approve,
  approve,
  fc.tuple(env, index).map(([e, i]) => new Decide(e, "reject", i)),
  index.map((i) => new Cancel(i)),
  outcome,
  outcome,
  outcome,
  credit,
  credit,
  fc.tuple(env, fc.boolean(), fc.constantFrom(0, 0, 2000)).map(([e, on, o]) => new Enforcement(e, on, o)),
  fc.tuple(env, fc.constantFrom(0, 2000)).map(([e, o]) => new Enforcement(e, true, o)),
  drainStep,
  drainStep,
  drainStep,
  fc.constantFrom(1, 50, 80).map((h) => new Advance(h)),
];

describe(`ledger invariants under random payouts, credits and crashes (${onPostgres ? "PostgreSQL" : "PGlite"})`, () => {
  beforeAll(async () => {
    rail = createScriptedRail();
    const accept = rail.script;
    rail.script = (request) =>
      request.amountMinor === REFUSED_AMOUNT ? { accepted: false, reason: "Refused by the test rail" } : accept(request);
    t = await buildTestApp({
      rails: railsWithProduction(rail),
      env: { RATE_LIMIT_REQUESTS: "10000000", PAYOUT_RETURN_WINDOW_HOURS: "48" },
    });
  });
  afterAll(async () => t?.close());

  it(
    `holds every invariant after every step (runs: ${RUNS}, seed: ${SEED})`,
    async () => {
      let runs = 0;
      const property = fc.asyncProperty(
        fc.commands(commands, { maxCommands: MAX_COMMANDS, size: "max" }),
        fc.record({ sandbox: fc.boolean(), production: fc.boolean() }),
        async (cmds, enforcedFromStart) => {
          runs += 1;
          const business = await registerBusiness(t.app, `Invariants ${runs}`);
          const keys = { sandbox: business.keys.sandbox, production: business.keys.production };
          const beneficiaries = {
            sandbox: (await payableBeneficiary(t.app, keys.sandbox)).beneficiaryId,
            production: (await payableBeneficiary(t.app, keys.production)).beneficiaryId,
          };
          const real: Real = { businessId: business.businessId, keys, beneficiaries, crashes: [] };
          const model: Model = { credits: new Map(), commands: 0 };
          // Each environment's funding account opened by a first approval (a hold of 1, credited), and enforced from
          // the start or not, so that payouts wait for funds in about half of the runs from their first approval.
          for (const environment of ["sandbox", "production"] as const) {
            const first = await postPayout(t.app, keys[environment], {
              beneficiary_id: beneficiaries[environment],
              amount_minor: 1,
              currency: "EUR",
              idempotency_key: newKey(),
            });
            expect(first.statusCode, first.body).toBe(201);
            const approved = await inject(real, environment, "POST", `/v1/payouts/${first.json().payout_id}/approve`);
            expect(approved.statusCode, approved.body).toBe(201);
            const account = await fundingAccountOf(real, environment);
            if (account === null) throw new Error(`the first ${environment} approval opened no funding account`);
            // Credited for it and for one payout the rail refuses at submission: approved here, so that every run voids
            // at least one hold (its submission runs with the commands' jobs, or in the final drain), whatever the
            // random commands do (a seed of four runs once left out a void and failed the coverage check below).
            await creditAccount(t, { businessId: real.businessId, environment }, keys[environment], account, 1 + REFUSED_AMOUNT);
            model.credits.set(account, 1 + REFUSED_AMOUNT);
            const refused = await postPayout(t.app, keys[environment], {
              beneficiary_id: beneficiaries[environment],
              amount_minor: REFUSED_AMOUNT,
              currency: "EUR",
              idempotency_key: newKey(),
            });
            expect(refused.statusCode, refused.body).toBe(201);
            const refusedApproval = await inject(real, environment, "POST", `/v1/payouts/${refused.json().payout_id}/approve`);
            expect(refusedApproval.statusCode, refusedApproval.body).toBe(201);
            if (enforcedFromStart[environment])
              expect(await setEnforcement(t, keys[environment], account, "enforce", 0)).toBe(true);
          }
          await checkInvariants(model, real, "opening the funding accounts");
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          // Whatever is left due runs, then the invariants hold at rest too.
          await drain(real);
          await checkInvariants(model, real, "the final drain", true);
          await tallyCoverage(real, model);
        },
      );
      try {
        await fc.assert(property, { numRuns: RUNS, seed: SEED, endOnFailure: !process.env.LEDGER_SHRINK });
      } catch (error) {
        console.error(`ledger invariants failed: replay with LEDGER_SEED=${SEED} (LEDGER_SHRINK=1 to shrink)`);
        throw error;
      } finally {
        console.info(`ledger invariants, seed ${SEED}: ${JSON.stringify(Object.fromEntries([...coverage].sort()))}`);
      }
      // Not vacuous: the runs moved money through holds, posts and voids.
      for (const step of ["hold", "post", "void", "credit"])
        expect(coverage.get(`transfer:${step}`) ?? 0, step).toBeGreaterThan(0);
    },
    Math.max(300_000, RUNS * 120_000),
  );
});
