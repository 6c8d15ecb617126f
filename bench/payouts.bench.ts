// Payouts, on each engine:
//   payout_create: `POST /v1/payouts` at 32 connections, every request with a fresh idempotency key, spread over
//     64 payable Beneficiaries, beside the raw single-row INSERT ceiling of the same database and driver in the
//     same run (32 concurrent `INSERT` statements of a payout-sized row with a unique key, from this process).
//     Target on PostgreSQL: >= 1,000 creations/s with p99 < 50 ms.
//   payout_bulk: `POST /v1/payouts/bulk` with 1,000 valid rows over a real port, wall time as a client sees it.
//     Target on PostgreSQL: < 0.5 s (median of the measured runs).
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describeLoad, type LoadSummary, runLoad } from "./lib/load.js";
import { type CpuPerRequest, postgresBackendPids, startCpuWindow } from "./lib/process-cpu.js";
import { createScratchDatabase } from "./lib/scratch-postgres.js";
import { registerBusiness, startService } from "./lib/service.js";
import { percentile, round } from "./lib/stats.js";
import { createTempDir } from "./lib/temp-dir.js";
import type { BenchContext, Benchmark, Engine, Json } from "./lib/types.js";

const CONNECTIONS = 32;
const PAYEES = 64;
const TARGET_RPS = 1000;
const TARGET_P99_MS = 50;
const BULK_ROWS = 1000;
const BULK_RUNS = 7;
const BULK_TARGET_SECONDS = 0.5;
const TARGET_ENGINE: Engine = "postgres";

async function call(
  baseUrl: string,
  key: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Payable Beneficiaries (identity, one validated EUR account, acknowledged). */
async function payees(baseUrl: string, key: string, count: number): Promise<Array<{ id: string; account: string }>> {
  const made: Array<{ id: string; account: string }> = [];
  for (let i = 0; i < count; i += 1) {
    const beneficiary = await call(baseUrl, key, "POST", "/v1/beneficiaries", {
      beneficiary_type: "person",
      email: `payee-${i}-${randomBytes(4).toString("hex")}@bench.example.com`,
      first_name: "Payee",
      last_name: `Number ${i}`,
      country_of_residence: "DE",
    });
    const id = String(beneficiary.id);
    const account = await call(baseUrl, key, "POST", `/v1/beneficiaries/${id}/bank-accounts`, {
      account_holder_name: `Payee Number ${i}`,
      country: "DE",
      currency: "EUR",
      iban: "DE89370400440532013000",
    });
    await call(baseUrl, key, "POST", `/v1/beneficiaries/${id}/acknowledge`);
    made.push({ id, account: String(account.id) });
  }
  return made;
}

function loadFigures(load: LoadSummary): { readonly [key: string]: Json } {
  return {
    requests_per_sec: load.requests_per_sec,
    latency_p50_ms: load.latency_p50_ms,
    latency_p99_ms: load.latency_p99_ms,
    latency_max_ms: load.latency_max_ms,
    responses_2xx: load.responses_2xx,
    non2xx: load.non2xx,
    non2xx_status: load.non2xx_status,
    errors: load.errors,
  };
}

const CEILING_TABLE = `create table ceiling_payouts (
  id uuid primary key, business_id uuid not null, beneficiary_id uuid not null, amount_minor bigint not null,
  currency varchar(3) not null, idempotency_key text not null unique, status text not null,
  created_at timestamptz not null, updated_at timestamptz not null)`;
const CEILING_INSERT = `insert into ceiling_payouts values ($1, $2, $3, $4, 'EUR', $5, 'pending_approval', now(), now())`;

/** 32 closed loops of single-row INSERTs for `seconds`: the most the database and driver do per second here. */
async function insertCeiling(
  insert: (values: unknown[]) => Promise<unknown>,
  seconds: number,
): Promise<{ readonly [key: string]: Json }> {
  const latencies: number[] = [];
  const business = randomUUID();
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        await insert([randomUUID(), business, randomUUID(), 1234, randomUUID()]);
        latencies.push(performance.now() - begin);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    inserts_per_sec: round(latencies.length / elapsed, 1),
    latency_p50_ms: round(percentile(sorted, 50), 3),
    latency_p99_ms: round(percentile(sorted, 99), 3),
    statement: "single-row INSERT (prepared) with a primary key and a unique key, 32 concurrent",
  };
}

async function ceilingFor(context: BenchContext, engine: Engine): Promise<{ readonly [key: string]: Json }> {
  const seconds = context.settings.measureSeconds;
  if (engine === "postgres") {
    const scratch = await createScratchDatabase(context.postgresServerUrl as string, "bench_ceiling");
    const pool = new pg.Pool({ connectionString: scratch.url, max: CONNECTIONS });
    // An idle client losing its connection (another job on a shared server) must not kill the run.
    pool.on("error", () => {});
    try {
      await pool.query(CEILING_TABLE);
      await insertCeiling((values) => pool.query({ name: "ceiling_insert", text: CEILING_INSERT, values }), 2);
      return {
        driver: "pg Pool (32 connections)",
        ...(await insertCeiling((values) => pool.query({ name: "ceiling_insert", text: CEILING_INSERT, values }), seconds)),
      };
    } finally {
      await pool.end();
      await scratch.drop();
    }
  }
  const dir = await createTempDir("bench-ceiling-pglite");
  const client = new PGlite(path.join(dir.path, "pgdata"));
  try {
    await client.waitReady;
    await client.exec(CEILING_TABLE);
    await insertCeiling((values) => client.query(CEILING_INSERT, values), 2);
    return {
      driver: "PGlite on disk, in-process",
      ...(await insertCeiling((values) => client.query(CEILING_INSERT, values), seconds)),
    };
  } finally {
    await client.close();
    await dir.remove();
  }
}

async function runCreate(context: BenchContext, engine: Engine): Promise<{ readonly [key: string]: Json }> {
  if (engine === "postgres" && context.postgresServerUrl === null) {
    return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  }
  const service = await startService(context, engine, { DATABASE_POOL_SIZE: String(CONNECTIONS) });
  let load: LoadSummary;
  let cpu: CpuPerRequest;
  try {
    const baseUrl = service.server.baseUrl;
    const business = await registerBusiness(service, `payout-create-${engine}`);
    const people = await payees(baseUrl, business.sandboxKey, PAYEES);
    let n = 0;
    const prefix = randomBytes(6).toString("hex");
    const bodyFactory = () => {
      n += 1;
      const payee = people[n % people.length] as { id: string; account: string };
      return JSON.stringify({
        beneficiary_id: payee.id,
        bank_account_id: payee.account,
        amount_minor: 1000 + (n % 5000),
        currency: "EUR",
        external_ref: `bench-${n}`,
        idempotency_key: `${prefix}-${n}`,
      });
    };
    const options = {
      url: `${baseUrl}/v1/payouts`,
      connections: CONNECTIONS,
      method: "POST" as const,
      headers: { authorization: `Bearer ${business.sandboxKey}`, "content-type": "application/json" },
      bodyFactory,
    };
    context.log(`[${engine}] payout_create: warming up ${context.settings.warmupSeconds}s`);
    context.log(
      describeLoad(`[${engine}] warm-up`, await runLoad({ ...options, durationSeconds: context.settings.warmupSeconds })),
    );
    const backends =
      service.scratch !== null && context.postgresServerUrl !== null
        ? await postgresBackendPids(context.postgresServerUrl, service.scratch.name)
        : null;
    const cpuWindow = startCpuWindow(service.server.pid, backends);
    load = await runLoad({ ...options, durationSeconds: context.settings.measureSeconds });
    cpu = cpuWindow.finish(load.responses_2xx + load.non2xx);
    context.log(describeLoad(`[${engine}] payout_create`, load));
  } finally {
    await service.dispose();
  }
  context.log(`[${engine}] raw INSERT ceiling: ${context.settings.measureSeconds}s`);
  const ceiling = await ceilingFor(context, engine);
  const rps = load.requests_per_sec ?? 0;
  const p99 = load.latency_p99_ms ?? Number.POSITIVE_INFINITY;
  return {
    ...loadFigures(load),
    cpu_per_request: {
      server_process_us: cpu.server_process_us,
      ...(cpu.postgres_backends_us === null ? {} : { postgres_backends_us: cpu.postgres_backends_us }),
      machine_busy_cores: cpu.machine_busy_cores,
    },
    insert_ceiling: ceiling,
    ratio_to_insert_ceiling: round(rps / Number(ceiling.inserts_per_sec), 3),
    target: { requests_per_sec: TARGET_RPS, latency_p99_ms: TARGET_P99_MS },
    target_applies: engine === TARGET_ENGINE,
    met: load.errors === 0 && load.non2xx === 0 && rps >= TARGET_RPS && p99 < TARGET_P99_MS,
  };
}

async function runBulk(context: BenchContext, engine: Engine): Promise<{ readonly [key: string]: Json }> {
  if (engine === "postgres" && context.postgresServerUrl === null) {
    return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  }
  const service = await startService(context, engine);
  try {
    const baseUrl = service.server.baseUrl;
    const business = await registerBusiness(service, `payout-bulk-${engine}`);
    const people = await payees(baseUrl, business.sandboxKey, PAYEES);
    const seconds: number[] = [];
    for (let run = 0; run < BULK_RUNS; run += 1) {
      const rows = Array.from({ length: BULK_ROWS }, (_, i) => {
        const payee = people[i % people.length] as { id: string; account: string };
        return {
          beneficiary_id: payee.id,
          bank_account_id: payee.account,
          amount_minor: 100 + i,
          currency: "EUR",
          external_ref: `line-${i}`,
        };
      });
      const body = JSON.stringify({ uploadId: randomBytes(32).toString("hex"), rows });
      const started = performance.now();
      const response = await fetch(`${baseUrl}/v1/payouts/bulk`, {
        method: "POST",
        headers: { authorization: `Bearer ${business.sandboxKey}`, "content-type": "application/json" },
        body,
      });
      const result = (await response.json()) as { created?: number };
      const elapsed = (performance.now() - started) / 1000;
      if (response.status !== 200 || result.created !== BULK_ROWS) {
        throw new Error(`bulk answered ${response.status} with created ${String(result.created)}`);
      }
      seconds.push(elapsed);
      context.log(`[${engine}] bulk of ${BULK_ROWS} rows, run ${run + 1}: ${(elapsed * 1000).toFixed(0)} ms`);
    }
    const measured = seconds.slice(1).sort((a, b) => a - b);
    const median = measured[Math.floor(measured.length / 2)] ?? Number.NaN;
    return {
      rows: BULK_ROWS,
      first_run_s: round(seconds[0] ?? Number.NaN, 3),
      median_s: round(median, 3),
      min_s: round(measured[0] ?? Number.NaN, 3),
      max_s: round(measured[measured.length - 1] ?? Number.NaN, 3),
      target_s: BULK_TARGET_SECONDS,
      target_applies: engine === TARGET_ENGINE,
      met: median < BULK_TARGET_SECONDS,
    };
  } finally {
    await service.dispose();
  }
}

export const payoutCreateBenchmark: Benchmark = {
  name: "payout_create",
  description: `POST /v1/payouts at ${CONNECTIONS} connections with a fresh idempotency key per request, beside the raw INSERT ceiling`,
  async run(context) {
    const engines: Record<string, Json> = {};
    for (const engine of context.settings.engines) engines[engine] = await runCreate(context, engine);
    return {
      route: "POST /v1/payouts",
      connections: CONNECTIONS,
      target: `>= ${TARGET_RPS} creations/s with p99 < ${TARGET_P99_MS} ms on ${TARGET_ENGINE}, no errors or non-2xx`,
      engines,
    };
  },
};

export const payoutBulkBenchmark: Benchmark = {
  name: "payout_bulk",
  description: `POST /v1/payouts/bulk with ${BULK_ROWS} valid rows, ${BULK_RUNS} runs (first one reported apart)`,
  async run(context) {
    const engines: Record<string, Json> = {};
    for (const engine of context.settings.engines) engines[engine] = await runBulk(context, engine);
    return { route: "POST /v1/payouts/bulk", engines };
  },
};
