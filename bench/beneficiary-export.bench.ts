// `GET /v1/beneficiaries/export` over a real port with 100,000 Beneficiaries (each with a bank account, half
// of them declared), on each engine: does the service's memory stay flat while it streams the file?
//
// A first service process migrates the database and registers the Business, then stops; the bench inserts the
// rows straight into the database with multi-row INSERTs (pg into the scratch database, or PGlite opened on the
// service's DATA_DIR), 100,000 in sandbox and 10,000 in production. A fresh service then serves the small
// export and the large one over a real port, read as fast as they arrive, while the bench samples the service
// process's resident memory (/proc/<pid>/status VmRSS, every 20 ms) and V8 heap (/metrics, every 250 ms).
//
// Peak RSS with default settings mostly measures how long V8 lets garbage pile up before a full collection
// (the heap grows by tens of MB whatever the row count), so it is reported, with the peak per quarter of the
// rows, but the target is sharper: the same 100,000 rows must also stream from a fresh service whose V8 old
// space is capped at 64 MiB, of which the idle service already uses about 40. An export that held its rows or
// the 44 MB file would die of heap exhaustion there; a streaming one just collects garbage sooner.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import {
  BENCH_METRICS_TOKEN,
  type RegisteredBusiness,
  registerBusiness,
  type ServiceUnderTest,
  startService,
} from "./lib/service.js";
import { round } from "./lib/stats.js";
import { createTempDir } from "./lib/temp-dir.js";
import type { BenchContext, Benchmark, Engine, Json } from "./lib/types.js";

const ROUTE = "/v1/beneficiaries/export";
const LARGE = 100_000;
const SMALL = 10_000;
const ROWS_PER_INSERT = 1_000;
/** V8 old-space cap of the second service run; the idle service uses about 40 MB of it. */
const HEAP_CAP_MB = 64;
const MB = 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `query(text, params)`: what pg.Client and PGlite have in common. */
interface Sql {
  query(text: string, params: unknown[]): Promise<unknown>;
}

/** One multi-row INSERT: `rows` tuples of `width` parameters each. */
function insertStatement(table: string, columns: readonly string[], rows: number): string {
  const tuples: string[] = [];
  for (let r = 0; r < rows; r += 1) {
    tuples.push(`(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(",")})`);
  }
  return `insert into ${table} (${columns.join(",")}) values ${tuples.join(",")}`;
}

const BENEFICIARY_COLUMNS = [
  "id",
  "business_id",
  "environment",
  "beneficiary_type",
  "name",
  "nickname",
  "email",
  "email_normalized",
  "phone",
  "first_name",
  "last_name",
  "country_of_residence",
  "tax_id_last4",
  "postal_address",
  "compliance_status",
  "acknowledged_at",
  "declared_destination_id",
  "created_at",
  "updated_at",
] as const;

const DESTINATION_COLUMNS = [
  "id",
  "business_id",
  "environment",
  "beneficiary_id",
  "kind",
  "scheme",
  "account_holder_name",
  "country",
  "currency",
  "account_type",
  "sensitive_encrypted",
  "fingerprint",
  "last4",
  "validation_status",
  "created_at",
  "updated_at",
] as const;

/**
 * Inserts `count` Beneficiaries of one tenant, each with one validated bank account; every second one declares
 * it. Names carry commas and quotes (and every 1,000th a line break) so the writer has quoting to do.
 */
async function insertBeneficiaries(
  db: Sql,
  tenant: { businessId: string; environment: "sandbox" | "production" },
  count: number,
): Promise<void> {
  const now = new Date().toISOString();
  for (let start = 0; start < count; start += ROWS_PER_INSERT) {
    const size = Math.min(ROWS_PER_INSERT, count - start);
    const beneficiaryParams: unknown[] = [];
    const destinationParams: unknown[] = [];
    for (let k = 0; k < size; k += 1) {
      const i = start + k;
      const id = uuidv7();
      const destinationId = uuidv7();
      const name = i % 1000 === 0 ? `Payee ${i}, "Senior"\nline two` : `Payee ${i}, "Jr"`;
      const email = `${tenant.environment}-${i}@bench.example.com`;
      beneficiaryParams.push(
        id,
        tenant.businessId,
        tenant.environment,
        "person",
        name,
        i % 3 === 0 ? `Nick ${i}` : null,
        email,
        email,
        `+4915${String(100000000 + i)}`,
        "Payee",
        `Number ${i}`,
        "DE",
        String(1000 + (i % 9000)),
        JSON.stringify({ line1: `Hauptstraße ${i}, Hinterhaus`, city: "Berlin", postal_code: "10115", country: "DE" }),
        i % 2 === 0 ? "compliant" : "pending",
        i % 2 === 0 ? now : null,
        i % 2 === 0 ? destinationId : null,
        now,
        now,
      );
      destinationParams.push(
        destinationId,
        tenant.businessId,
        tenant.environment,
        id,
        "bank_account",
        "iban",
        `Payee ${i}`,
        "DE",
        "EUR",
        "checking",
        "not-decrypted-by-the-export",
        `fingerprint-${i}`,
        String(1000 + (i % 9000)),
        "validated",
        now,
        now,
      );
    }
    await db.query(insertStatement("beneficiaries", BENEFICIARY_COLUMNS, size), beneficiaryParams);
    await db.query(insertStatement("destinations", DESTINATION_COLUMNS, size), destinationParams);
  }
}

async function seed(db: Sql, business: RegisteredBusiness, log: (message: string) => void): Promise<void> {
  const started = performance.now();
  await insertBeneficiaries(db, { businessId: business.businessId, environment: "sandbox" }, LARGE);
  await insertBeneficiaries(db, { businessId: business.businessId, environment: "production" }, SMALL);
  log(`inserted ${LARGE + SMALL} Beneficiaries and destinations in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Resident set size of a process in bytes (Linux), or null. */
function residentBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] === undefined ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}

async function heapUsedBytes(baseUrl: string): Promise<number | null> {
  try {
    const response = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
    if (!response.ok) return null;
    const text = await response.text();
    const match = /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)$/m.exec(text);
    return match?.[1] === undefined ? null : Number(match[1]);
  } catch {
    return null;
  }
}

interface MemorySample {
  /** Rows received by the client when the sample was taken. */
  readonly rows: number;
  readonly rss: number;
}

/** Samples RSS (fast, from /proc) and heap (slower, from /metrics) until stopped, with the download's progress. */
function startMemorySampler(pid: number, baseUrl: string, progress: () => number) {
  const samples: MemorySample[] = [];
  const sample = () => {
    const rss = residentBytes(pid);
    if (rss !== null) samples.push({ rows: progress(), rss });
  };
  sample();
  const rssTimer = setInterval(sample, 20);
  let peakHeap = 0;
  let running = true;
  const heapLoop = (async () => {
    while (running) {
      peakHeap = Math.max(peakHeap, (await heapUsedBytes(baseUrl)) ?? 0);
      await sleep(250);
    }
  })();
  return {
    async stop(): Promise<{ samples: MemorySample[]; peakHeap: number }> {
      running = false;
      clearInterval(rssTimer);
      sample();
      await heapLoop;
      return { samples, peakHeap };
    },
  };
}

/** The highest RSS seen while the client had received each quarter of the rows. */
function peakByQuarter(samples: readonly MemorySample[], total: number): (number | null)[] {
  const peaks: (number | null)[] = [null, null, null, null];
  for (const { rows, rss } of samples) {
    const quarter = Math.min(3, Math.floor((rows / Math.max(total, 1)) * 4));
    peaks[quarter] = Math.max(peaks[quarter] ?? 0, rss);
  }
  return peaks;
}

/** Median of a few samples over half a second, so one allocation spike does not move the baseline. */
async function idleMemory(pid: number, baseUrl: string): Promise<{ rss: number; heap: number }> {
  const rss: number[] = [];
  const heap: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    rss.push(residentBytes(pid) ?? 0);
    heap.push((await heapUsedBytes(baseUrl)) ?? 0);
    await sleep(100);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return { rss: median(rss), heap: median(heap) };
}

interface ExportRun {
  readonly rows: number;
  readonly bytes: number;
  readonly status: number;
  readonly wallSeconds: number;
  readonly firstByteMs: number;
  readonly samples: readonly MemorySample[];
  readonly peakRss: number;
  readonly peakHeap: number;
  readonly contentType: string | null;
}

/** Downloads the export, counting bytes and CRLF-ended records, while sampling the service's memory. */
async function download(service: ServiceUnderTest, key: string): Promise<ExportRun> {
  let records = 0;
  const sampler = startMemorySampler(service.server.pid, service.server.baseUrl, () => Math.max(0, records - 1));
  const started = performance.now();
  const response = await fetch(`${service.server.baseUrl}${ROUTE}`, { headers: { authorization: `Bearer ${key}` } });
  const firstByteMs = performance.now() - started;
  let bytes = 0;
  let previousEndedWithCr = false;
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error("the export has no body");
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (let i = 0; i < value.length; i += 1) {
      if (value[i] === 10 && (i === 0 ? previousEndedWithCr : value[i - 1] === 13)) records += 1;
    }
    previousEndedWithCr = value[value.length - 1] === 13;
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const { samples, peakHeap } = await sampler.stop();
  return {
    rows: records - 1, // the header row
    bytes,
    status: response.status,
    wallSeconds,
    firstByteMs,
    samples,
    peakRss: samples.reduce((peak, sample) => Math.max(peak, sample.rss), 0),
    peakHeap,
    contentType: response.headers.get("content-type"),
  };
}

function figures(
  run: ExportRun,
  expectedRows: number,
  idle: { rss: number; heap: number },
  before: { rss: number; heap: number },
) {
  const mb = (bytes: number | null) => (bytes === null ? null : round(bytes / MB, 1));
  return {
    rows: run.rows,
    rows_expected: expectedRows,
    status: run.status,
    content_type: run.contentType,
    bytes: run.bytes,
    mb: round(run.bytes / MB, 1),
    wall_s: round(run.wallSeconds, 2),
    time_to_first_byte_ms: round(run.firstByteMs, 1),
    rows_per_sec: round(run.rows / run.wallSeconds, 0),
    mb_per_sec: round(run.bytes / MB / run.wallSeconds, 1),
    rss_samples: run.samples.length,
    rss_before_mb: mb(before.rss),
    rss_peak_mb: mb(run.peakRss),
    rss_peak_by_quarter_of_rows_mb: peakByQuarter(run.samples, expectedRows).map(mb),
    rss_growth_over_before_mb: mb(run.peakRss - before.rss),
    rss_growth_over_idle_mb: mb(run.peakRss - idle.rss),
    heap_used_before_mb: mb(before.heap),
    heap_used_peak_mb: mb(run.peakHeap),
    heap_growth_over_before_mb: mb(run.peakHeap - before.heap),
  };
}

type StartService = (env: Readonly<Record<string, string>>) => Promise<ServiceUnderTest>;

const complete = (run: ExportRun, rows: number) => run.status === 200 && run.rows === rows;

/** Default settings: the 10,000-row export, then the 100,000-row one, in one service process. */
async function measureDefault(context: BenchContext, engine: Engine, start: StartService, business: RegisteredBusiness) {
  const service = await start({});
  try {
    const pid = service.server.pid;
    const baseUrl = service.server.baseUrl;
    // A first request warms authentication and routing (JIT), not the export itself.
    await (await fetch(`${baseUrl}/v1/api-keys`, { headers: { authorization: `Bearer ${business.sandboxKey}` } })).text();
    const idle = await idleMemory(pid, baseUrl);
    context.log(`[${engine}] idle service: RSS ${(idle.rss / MB).toFixed(1)} MB, heap ${(idle.heap / MB).toFixed(1)} MB`);
    const small = await download(service, business.productionKey);
    context.log(`[${engine}] ${small.rows} rows, ${(small.bytes / MB).toFixed(1)} MB in ${small.wallSeconds.toFixed(2)} s`);
    const beforeLarge = await idleMemory(pid, baseUrl);
    const large = await download(service, business.sandboxKey);
    context.log(`[${engine}] ${large.rows} rows, ${(large.bytes / MB).toFixed(1)} MB in ${large.wallSeconds.toFixed(2)} s`);
    const after = await idleMemory(pid, baseUrl);
    const quarters = peakByQuarter(large.samples, LARGE);
    const firstHalf = Math.max(quarters[0] ?? 0, quarters[1] ?? 0);
    const secondHalf = Math.max(quarters[2] ?? 0, quarters[3] ?? 0);
    return {
      ok: complete(small, SMALL) && complete(large, LARGE),
      figures: {
        idle_rss_mb: round(idle.rss / MB, 1),
        idle_heap_used_mb: round(idle.heap / MB, 1),
        [`export_${SMALL}`]: figures(small, SMALL, idle, idle),
        [`export_${LARGE}`]: figures(large, LARGE, idle, beforeLarge),
        rss_after_mb: round(after.rss / MB, 1),
        rss_growth_over_idle_large_to_small: round((large.peakRss - idle.rss) / Math.max(small.peakRss - idle.rss, MB), 2),
        rss_rise_second_half_over_first_half_mb: round((secondHalf - firstHalf) / MB, 1),
      } satisfies Record<string, Json>,
    };
  } finally {
    await service.stopServer();
  }
}

/**
 * The 100,000-row export from a fresh service whose V8 old space is capped at HEAP_CAP_MB. The idle service
 * uses about 40 MB of it, so an export that kept its rows (or the 44 MB file) would die of heap exhaustion;
 * one that streams finishes. Garbage collection simply runs sooner.
 */
async function measureCapped(context: BenchContext, engine: Engine, start: StartService, business: RegisteredBusiness) {
  const service = await start({ NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MB}` });
  try {
    const pid = service.server.pid;
    const baseUrl = service.server.baseUrl;
    await (await fetch(`${baseUrl}/v1/api-keys`, { headers: { authorization: `Bearer ${business.sandboxKey}` } })).text();
    const idle = await idleMemory(pid, baseUrl);
    let large: ExportRun;
    try {
      large = await download(service, business.sandboxKey);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      context.log(`[${engine}] capped heap: the export failed: ${message}`);
      return { ok: false, figures: { error: message } satisfies Record<string, Json> };
    }
    context.log(`[${engine}] capped heap (${HEAP_CAP_MB} MiB): ${large.rows} rows in ${large.wallSeconds.toFixed(2)} s`);
    const alive =
      (await fetch(`${baseUrl}/healthz`)
        .then((r) => r.status)
        .catch(() => 0)) === 200;
    return {
      ok: complete(large, LARGE) && alive,
      figures: {
        max_old_space_size_mb: HEAP_CAP_MB,
        idle_rss_mb: round(idle.rss / MB, 1),
        idle_heap_used_mb: round(idle.heap / MB, 1),
        [`export_${LARGE}`]: figures(large, LARGE, idle, idle),
        service_alive_after: alive,
      } satisfies Record<string, Json>,
    };
  } finally {
    await service.stopServer();
  }
}

async function measure(
  context: BenchContext,
  engine: Engine,
  start: StartService,
  business: RegisteredBusiness,
): Promise<{ readonly [key: string]: Json }> {
  const normal = await measureDefault(context, engine, start, business);
  const capped = await measureCapped(context, engine, start, business);
  return { default_heap: normal.figures, capped_heap: capped.figures, met: normal.ok && capped.ok };
}

async function runPostgres(context: BenchContext): Promise<{ readonly [key: string]: Json }> {
  if (context.postgresServerUrl === null) return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  // This first service migrates the scratch database and registers the Business; the measured ones are fresh
  // processes on the same database.
  const seeder = await startService(context, "postgres");
  try {
    const business = await registerBusiness(seeder, "beneficiary-export-postgres");
    await seeder.stopServer();
    const scratch = seeder.scratch;
    if (scratch === null) throw new Error("no scratch database");
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      await seed(client, business, (message) => context.log(`[postgres] ${message}`));
      await client.query("analyze beneficiaries; analyze destinations");
    } finally {
      await client.end();
    }
    const disposals: Array<() => Promise<void>> = [];
    try {
      return await measure(
        context,
        "postgres",
        async (env) => {
          const service = await startService(context, "postgres", { DATABASE_URL: scratch.url, ...env });
          disposals.push(() => service.dispose());
          return service;
        },
        business,
      );
    } finally {
      for (const dispose of disposals) await dispose();
    }
  } finally {
    await seeder.dispose();
  }
}

async function runPglite(context: BenchContext): Promise<{ readonly [key: string]: Json }> {
  // The service owns its PGlite directory while it runs, so: start it once to migrate and register, stop it,
  // insert with PGlite in this process, and start the measured services on the same directory.
  const dataDir = await createTempDir("bench-export-pglite");
  const pgliteEnv = { DATA_DIR: dataDir.path, ENCRYPTION_KEY: randomBytes(32).toString("base64") };
  try {
    const first = await startService(context, "pglite", pgliteEnv);
    let business: RegisteredBusiness;
    try {
      business = await registerBusiness(first, "beneficiary-export-pglite");
    } finally {
      await first.dispose();
    }
    const db = new PGlite(path.join(dataDir.path, "pgdata"));
    await db.waitReady;
    try {
      await seed(db, business, (message) => context.log(`[pglite] ${message}`));
      await db.query("analyze beneficiaries", []);
      await db.query("analyze destinations", []);
    } finally {
      await db.close();
    }
    const disposals: Array<() => Promise<void>> = [];
    try {
      return await measure(
        context,
        "pglite",
        async (env) => {
          const service = await startService(context, "pglite", { ...pgliteEnv, ...env });
          disposals.push(() => service.dispose());
          return service;
        },
        business,
      );
    } finally {
      for (const dispose of disposals) await dispose();
    }
  } finally {
    await dataDir.remove();
  }
}

export const beneficiaryExportBenchmark: Benchmark = {
  name: "beneficiary_export",
  description: `GET ${ROUTE} of ${SMALL} and ${LARGE} Beneficiaries: throughput and the service's peak memory`,
  async run(context) {
    const engines: Record<string, Json> = {};
    for (const engine of context.settings.engines) {
      context.log(`[${engine}] beneficiary_export`);
      engines[engine] = engine === "postgres" ? await runPostgres(context) : await runPglite(context);
    }
    return {
      route: `GET ${ROUTE}`,
      rows: LARGE,
      target: `every row of the ${SMALL}- and ${LARGE}-row exports received with default settings, and all ${LARGE} again from a service whose V8 old space is capped at ${HEAP_CAP_MB} MiB`,
      engines,
    };
  },
};
