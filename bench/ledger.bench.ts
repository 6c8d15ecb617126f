// The ledger (issue 27), two benchmarks:
//   ledger_hot_account (PostgreSQL): holds and posts on ONE funding account, the funding module's own posting
//     functions (holdForPayout then postForPayout, each in its own transaction: the idempotency look-up, the one
//     conditional update of the funding row, the transfer and its entries) from 32 concurrent loops in the bench
//     process on a scratch database; beside the ceiling, measured in the same run on the same database and table:
//     the same number of loops doing only the bare single-row conditional updates of a hold and a post on another
//     funding account row (autocommit, prepared), which is the row lock every posting has to queue behind.
//     Target: >= 1,000 holds+posts per second on 2 cores.
//   ledger_payout_approval: POST /v1/payouts then POST /v1/payouts/{id}/approve (sandbox: the approval holds on
//     the sandbox funding account), 32 closed loops over HTTP, with the ledger (this build) and without it
//     (BENCH_LEDGER_BASELINE_ENTRY: this commit with the posting rules switched off, built by
//     bench/ledger-baseline.sh), alternated on, off, on, off... (BENCH_LEDGER_PASSES pairs, 3 by default) so a
//     change of the machine's load hits both. Target: throughput >= 85% of the build without the ledger, p99 at
//     most 20% higher.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createFundingPostings } from "../src/modules/funding/funding.postings.js";
import { systemClock } from "../src/platform/clock.js";
import { openDatabase, transaction } from "../src/platform/db/client.js";
import { runMigrations } from "../src/platform/db/migrate.js";
import { businesses } from "../src/platform/db/shared.schema.js";
import type { EventRecorder } from "../src/platform/events/outbox.js";
import { uuidV7Generator } from "../src/platform/ids.js";
import { createScratchDatabase } from "./lib/scratch-postgres.js";
import { registerBusiness, startService } from "./lib/service.js";
import { prepareServiceBuild } from "./lib/service-build.js";
import { percentile, round } from "./lib/stats.js";
import type { BenchContext, Benchmark, Engine, Json } from "./lib/types.js";

const LOOPS = 32;
const HOT_TARGET_PER_SEC = 1000;
const APPROVAL_THROUGHPUT_RATIO = 0.85;
const APPROVAL_P99_RATIO = 1.2;
const r = (value: number, digits: number): number => round(value, digits) ?? Number.NaN;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface Measured {
  readonly ops_per_sec: number;
  readonly ops: number;
  readonly errors: number;
  readonly latency_p50_ms: number;
  readonly latency_p99_ms: number;
}

/** `loops` closed loops of `op` for `seconds`; latency per op. */
async function closedLoops(loops: number, seconds: number, op: (loop: number, n: number) => Promise<void>): Promise<Measured> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: unknown = null;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: loops }, async (_, loop) => {
      let n = 0;
      while (performance.now() < deadline) {
        const begin = performance.now();
        try {
          await op(loop, n);
          latencies.push(performance.now() - begin);
        } catch (error) {
          errors += 1;
          firstError ??= error;
        }
        n += 1;
      }
    }),
  );
  if (errors > 0 && latencies.length === 0) throw firstError;
  const elapsed = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    ops_per_sec: r(latencies.length / elapsed, 1),
    ops: latencies.length,
    errors,
    latency_p50_ms: r(percentile(sorted, 50), 2),
    latency_p99_ms: r(percentile(sorted, 99), 2),
  };
}

// --- holds and posts on one hot funding account -----------------------------------------------------------------

const noEvents: EventRecorder = {
  record: async () => {
    throw new Error("the hot-account benchmark records no event (no low-balance threshold is set)");
  },
} as unknown as EventRecorder;

async function runHotAccount(context: BenchContext): Promise<{ readonly [key: string]: Json }> {
  if (context.postgresServerUrl === null) return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  const scratch = await createScratchDatabase(context.postgresServerUrl, "bench_ledger");
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: "", poolSize: LOOPS });
  const bare = new pg.Pool({ connectionString: scratch.url, max: LOOPS });
  bare.on("error", () => {});
  try {
    const db = database.db;
    await runMigrations(db);
    const businessId = uuidV7Generator.newId();
    await db.insert(businesses).values({ id: businessId, name: "Bench ledger", createdAt: new Date() });
    const tenant = { businessId, environment: "production" as const };
    const postings = createFundingPostings({
      clock: systemClock,
      ids: uuidV7Generator,
      events: noEvents,
      jobStore: { enqueue: async () => "none" } as never,
    });
    // Two funding accounts of the Business (EUR and USD: one per currency and source): the hot one the postings
    // use, and the ceiling's. Both enforced, with money enough for every hold of the run.
    const [hot, ceilingRow] = await transaction(db, async (tx) => [
      await postings.ensureFundingAccount(tx, tenant, "EUR", { kind: "simulator" }),
      await postings.ensureFundingAccount(tx, tenant, "USD", { kind: "simulator" }),
    ]);
    if (hot === undefined || ceilingRow === undefined) throw new Error("no funding account");
    await bare.query(
      "update funding_accounts set enforcement = 'enforce', posted_minor = 1000000000000 where id = any($1::uuid[])",
      [[ceilingRow.id]],
    );
    await transaction(db, (tx) =>
      postings.creditFundingAccount(tx, tenant, {
        fundingAccountId: hot.id,
        amountMinor: 1_000_000_000_000,
        cause: { type: "top_up", id: "bench" },
        idempotencyKey: "top_up:bench:credit",
      }),
    );
    await bare.query("update funding_accounts set enforcement = 'enforce' where id = $1", [hot.id]);

    const prefix = randomBytes(4).toString("hex");
    // One op = a hold then its post (two transactions): ops/s x 2 = postings/s.
    const holdAndPost = async (loop: number, n: number) => {
      const payout = {
        id: `${prefix}-${loop}-${n}`,
        businessId,
        environment: "production" as const,
        amountMinor: 1000 + (n % 100),
        currency: "EUR",
        fundingAccountId: hot.id,
        fundingStatus: "not_tracked" as const,
      };
      const held = await transaction(db, (tx) => postings.holdForPayout(tx, payout, { kind: "simulator" }));
      if (held.status !== "reserved") throw new Error(`hold not reserved: ${held.status}`);
      await transaction(db, (tx) => postings.postForPayout(tx, { ...payout, fundingStatus: "reserved" }));
    };
    const HOLD = {
      name: "ceiling_hold",
      text: `update funding_accounts set pending_minor = pending_minor + $2, updated_at = now()
             where id = $1 and (enforcement = 'track_only' or posted_minor - pending_minor - $2 >= -overdraft_limit_minor)`,
    };
    const POST = {
      name: "ceiling_post",
      text: "update funding_accounts set posted_minor = posted_minor - $2, pending_minor = pending_minor - $2, updated_at = now() where id = $1",
    };
    const bareHoldAndPost = async (_loop: number, n: number) => {
      const amount = 1000 + (n % 100);
      const held = await bare.query({ ...HOLD, values: [ceilingRow.id, amount] });
      if (held.rowCount !== 1) throw new Error("ceiling hold refused");
      await bare.query({ ...POST, values: [ceilingRow.id, amount] });
    };

    // The same two updates, each in its own explicit transaction (BEGIN, UPDATE, COMMIT): the row stays locked
    // from the UPDATE until the COMMIT reaches the server, one more round trip through this process, which any
    // posting inside a use case's transaction pays. It tells the round trip's cost apart from the posting's own.
    const inTransaction = async (query: { name: string; text: string }, values: unknown[]) => {
      const client = await bare.connect();
      try {
        await client.query("begin");
        const result = await client.query({ ...query, values });
        await client.query("commit");
        return result;
      } finally {
        client.release();
      }
    };
    const bareHoldAndPostInTransactions = async (_loop: number, n: number) => {
      const amount = 1000 + (n % 100);
      const held = await inTransaction(HOLD, [ceilingRow.id, amount]);
      if (held.rowCount !== 1) throw new Error("ceiling hold refused");
      await inTransaction(POST, [ceilingRow.id, amount]);
    };

    const warm = Math.min(context.settings.warmupSeconds, 5);
    context.log(`ledger_hot_account: warming up ${warm}s each`);
    await closedLoops(LOOPS, warm, holdAndPost);
    await closedLoops(LOOPS, warm, bareHoldAndPost);
    context.log(`ledger_hot_account: postings ${context.settings.measureSeconds}s`);
    const ledger = await closedLoops(LOOPS, context.settings.measureSeconds, holdAndPost);
    context.log(`ledger_hot_account: bare conditional updates ${context.settings.measureSeconds}s`);
    const ceiling = await closedLoops(LOOPS, context.settings.measureSeconds, bareHoldAndPost);
    context.log(`ledger_hot_account: bare conditional updates in transactions ${context.settings.measureSeconds}s`);
    const ceilingInTransactions = await closedLoops(LOOPS, context.settings.measureSeconds, bareHoldAndPostInTransactions);
    const postingsPerSec = r(ledger.ops_per_sec * 2, 1);
    const ceilingPerSec = r(ceiling.ops_per_sec * 2, 1);
    const ceilingInTransactionsPerSec = r(ceilingInTransactions.ops_per_sec * 2, 1);
    // The books balance after the load: the row is the fold of its entries.
    const check = await bare.query<{ ok: boolean }>(
      `select f.posted_minor = coalesce(sum(e.amount_minor) filter (where not e.pending), 0)
              and f.pending_minor = coalesce(-sum(e.amount_minor) filter (where e.pending), 0) as ok
       from funding_accounts f join ledger_accounts a on a.funding_account_id = f.id
       left join ledger_entries e on e.ledger_account_id = a.id where f.id = $1 group by f.id`,
      [hot.id],
    );
    return {
      loops: LOOPS,
      postings_per_sec: postingsPerSec,
      hold_then_post: { ...ledger },
      ceiling: {
        statement:
          "bare single-row conditional UPDATEs of a hold and a post (autocommit, prepared) on another funding_accounts row",
        updates_per_sec: ceilingPerSec,
        hold_then_post: { ...ceiling },
      },
      ceiling_in_transactions: {
        statement: "the same UPDATEs, each in its own BEGIN ... COMMIT (the row locked until the COMMIT's round trip)",
        updates_per_sec: ceilingInTransactionsPerSec,
        hold_then_post: { ...ceilingInTransactions },
      },
      ratio_to_ceiling: r(postingsPerSec / ceilingPerSec, 3),
      ratio_to_ceiling_in_transactions: r(postingsPerSec / ceilingInTransactionsPerSec, 3),
      books_balance_after_load: check.rows[0]?.ok === true,
      target: { postings_per_sec: HOT_TARGET_PER_SEC },
      met: ledger.errors === 0 && postingsPerSec >= HOT_TARGET_PER_SEC,
    };
  } finally {
    await bare.end();
    await database.close();
    await scratch.drop();
  }
}

// --- payout creation and approval, with and without the ledger ---------------------------------------------------

async function call(baseUrl: string, key: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function measureApprovals(context: BenchContext, engine: Engine, label: string): Promise<Measured> {
  // BENCH_LEDGER_POOL_SIZE: the service's pool (default one connection per loop; 10 is the service's default,
  // where requests queue for a connection while others wait for the hot funding row).
  const poolSize = process.env.BENCH_LEDGER_POOL_SIZE || String(LOOPS);
  const service = await startService(context, engine, { DATABASE_POOL_SIZE: poolSize });
  try {
    const baseUrl = service.server.baseUrl;
    const business = await registerBusiness(service, `ledger-${label.replace(/\W+/g, "-")}-${engine}`);
    const key = business.sandboxKey;
    const beneficiary = await call(baseUrl, key, "POST", "/v1/beneficiaries", {
      beneficiary_type: "person",
      email: `payee-${randomBytes(4).toString("hex")}@bench.example.com`,
      first_name: "Payee",
      last_name: "One",
      country_of_residence: "DE",
    });
    const id = String(beneficiary.id);
    await call(baseUrl, key, "POST", `/v1/beneficiaries/${id}/bank-accounts`, {
      account_holder_name: "Payee One",
      country: "DE",
      currency: "EUR",
      iban: "DE89370400440532013000",
    });
    await call(baseUrl, key, "POST", `/v1/beneficiaries/${id}/acknowledge`);
    const prefix = randomBytes(6).toString("hex");
    const createAndApprove = async (loop: number, n: number) => {
      const payout = await call(baseUrl, key, "POST", "/v1/payouts", {
        beneficiary_id: id,
        amount_minor: 1000 + (n % 5000),
        currency: "EUR",
        idempotency_key: `${prefix}-${loop}-${n}`,
      });
      await call(baseUrl, key, "POST", `/v1/payouts/${String(payout.payout_id)}/approve`);
    };
    await closedLoops(LOOPS, context.settings.warmupSeconds, createAndApprove);
    const measured = await closedLoops(LOOPS, context.settings.measureSeconds, createAndApprove);
    context.log(
      `[${engine}] ${label}: ${measured.ops_per_sec} create+approve/s, p99 ${measured.latency_p99_ms} ms, ${measured.errors} errors (pool ${poolSize})`,
    );
    return measured;
  } finally {
    await service.dispose();
  }
}

async function runApprovals(context: BenchContext, engine: Engine): Promise<{ readonly [key: string]: Json }> {
  if (engine === "postgres" && context.postgresServerUrl === null) {
    return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  }
  const baselineEntry = process.env.BENCH_LEDGER_BASELINE_ENTRY;
  if (!baselineEntry) {
    return {
      skipped:
        "set BENCH_LEDGER_BASELINE_ENTRY=$(bash bench/ledger-baseline.sh): this commit built with the ledger off (see bench/README.md)",
    };
  }
  const baseline = await prepareServiceBuild(ROOT, "entry", context.log, baselineEntry);
  const withoutLedger = { ...context, service: baseline };
  const on: Measured[] = [];
  const off: Measured[] = [];
  const passes = Math.max(1, Number(process.env.BENCH_LEDGER_PASSES || 3));
  for (let pass = 0; pass < passes; pass += 1) {
    on.push(await measureApprovals(context, engine, "ledger on"));
    off.push(await measureApprovals(withoutLedger, engine, "ledger off"));
  }
  const mean = (runs: Measured[], field: "ops_per_sec" | "latency_p99_ms") =>
    r(runs.reduce((sum, run) => sum + run[field], 0) / runs.length, 2);
  const throughputRatio = r(mean(on, "ops_per_sec") / mean(off, "ops_per_sec"), 3);
  const p99Ratio = r(mean(on, "latency_p99_ms") / mean(off, "latency_p99_ms"), 3);
  return {
    ledger_on: {
      runs: on.map((run) => ({ ...run })),
      mean_ops_per_sec: mean(on, "ops_per_sec"),
      mean_p99_ms: mean(on, "latency_p99_ms"),
    },
    ledger_off: {
      build: baselineEntry,
      runs: off.map((run) => ({ ...run })),
      mean_ops_per_sec: mean(off, "ops_per_sec"),
      mean_p99_ms: mean(off, "latency_p99_ms"),
    },
    service_pool_size: Number(process.env.BENCH_LEDGER_POOL_SIZE || LOOPS),
    throughput_ratio: throughputRatio,
    p99_ratio: p99Ratio,
    target: { throughput_ratio_min: APPROVAL_THROUGHPUT_RATIO, p99_ratio_max: APPROVAL_P99_RATIO },
    met:
      [...on, ...off].every((run) => run.errors === 0) &&
      throughputRatio >= APPROVAL_THROUGHPUT_RATIO &&
      p99Ratio <= APPROVAL_P99_RATIO,
  };
}

export const ledgerHotAccountBenchmark: Benchmark = {
  name: "ledger_hot_account",
  description: `holds then posts on one funding account (the funding module's postings, ${LOOPS} loops) beside bare conditional updates of a row`,
  async run(context) {
    return { engine: "postgres", ...(await runHotAccount(context)) };
  },
};

export const ledgerPayoutApprovalBenchmark: Benchmark = {
  name: "ledger_payout_approval",
  description: `POST /v1/payouts then approve, ${LOOPS} loops, with the ledger and with this commit built with the ledger off (BENCH_LEDGER_BASELINE_ENTRY)`,
  async run(context) {
    const engines: Record<string, Json> = {};
    for (const engine of context.settings.engines) engines[engine] = await runApprovals(context, engine);
    return {
      routes: "POST /v1/payouts + POST /v1/payouts/{id}/approve (sandbox)",
      loops: LOOPS,
      target: `with the ledger >= ${APPROVAL_THROUGHPUT_RATIO * 100}% of the throughput without it, p99 at most ${Math.round((APPROVAL_P99_RATIO - 1) * 100)}% higher`,
      engines,
    };
  },
};
