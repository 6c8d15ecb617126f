// `npm run bench [name ...]`: runs the benchmark modules one after another and prints one JSON document
// on stdout at the end (progress goes to stderr). A benchmark is not a test: a missed target is reported
// (`met: false`), not turned into a failing exit code; a benchmark that cannot run is.
//
// Environment:
//   BENCH_WARMUP_SECONDS   load before each measurement (default 10)
//   BENCH_MEASURE_SECONDS  measured load (default 10)
//   BENCH_ENGINES          comma-separated: pglite,postgres (default both)
//   BENCH_POSTGRES_URL     server for scratch databases (default TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
//   BENCH_SERVICE_RUNTIME  dist (build into a temp dir and run with node; default) | tsx (run src/ through tsx)
//   BENCH_SERVICE_ENTRY    a service main.js built elsewhere, run instead of building (A/B against another commit)
import path from "node:path";
import { fileURLToPath } from "node:url";
import { apiKeysListBenchmark } from "./api-keys-list.bench.js";
import { bankFilesBenchmark } from "./bank-files.bench.js";
import { beneficiariesImportBenchmark } from "./beneficiaries-import.bench.js";
import { beneficiariesListBenchmark } from "./beneficiaries-list.bench.js";
import { beneficiaryExportBenchmark } from "./beneficiary-export.bench.js";
import { dashboardPayoutsBenchmark } from "./dashboard-payouts.bench.js";
import { eventsFeedBenchmark } from "./events-feed.bench.js";
import { ledgerHotAccountBenchmark, ledgerPayoutApprovalBenchmark } from "./ledger.bench.js";
import { runPendingCleanups } from "./lib/cleanup.js";
import { machineInfo } from "./lib/machine.js";
import { checkPostgres, postgresVersion } from "./lib/scratch-postgres.js";
import { prepareServiceBuild, type ServiceRuntime } from "./lib/service-build.js";
import { round } from "./lib/stats.js";
import type { Benchmark, BenchSettings, Engine, Json } from "./lib/types.js";
import { listenBenchmark } from "./listen.bench.js";
import { payoutBulkBenchmark, payoutCreateBenchmark } from "./payouts.bench.js";
import { payoutsListBenchmark } from "./payouts-list.bench.js";
import { reconciliationBenchmark } from "./reconciliation.bench.js";
import { screeningBenchmark } from "./screening.bench.js";
import { sessionsBenchmark } from "./sessions.bench.js";
import { webhookDeliveryBenchmark } from "./webhook-delivery.bench.js";

/** Every benchmark, in the order they run. Add new modules here. */
const BENCHMARKS: readonly Benchmark[] = [
  apiKeysListBenchmark,
  beneficiariesListBenchmark,
  beneficiariesImportBenchmark,
  beneficiaryExportBenchmark,
  webhookDeliveryBenchmark,
  eventsFeedBenchmark,
  payoutCreateBenchmark,
  payoutBulkBenchmark,
  sessionsBenchmark,
  bankFilesBenchmark,
  listenBenchmark,
  payoutsListBenchmark,
  dashboardPayoutsBenchmark,
  ledgerHotAccountBenchmark,
  ledgerPayoutApprovalBenchmark,
  screeningBenchmark,
  reconciliationBenchmark,
];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

function readSeconds(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 600) throw new Error(`${name} must be a whole number of seconds (1-600)`);
  return value;
}

function readEngines(): Engine[] {
  const raw = process.env.BENCH_ENGINES || "pglite,postgres";
  const engines = raw.split(",").map((name) => name.trim());
  for (const engine of engines) {
    if (engine !== "pglite" && engine !== "postgres") throw new Error(`BENCH_ENGINES: unknown engine "${engine}"`);
  }
  return engines as Engine[];
}

function readRuntime(): ServiceRuntime {
  if (process.env.BENCH_SERVICE_ENTRY) return "entry";
  const raw = process.env.BENCH_SERVICE_RUNTIME || "dist";
  if (raw !== "dist" && raw !== "tsx") throw new Error(`BENCH_SERVICE_RUNTIME must be dist or tsx, got "${raw}"`);
  return raw;
}

function selectBenchmarks(names: readonly string[]): readonly Benchmark[] {
  if (names.length === 0) return BENCHMARKS;
  const known = new Map(BENCHMARKS.map((benchmark) => [benchmark.name, benchmark]));
  return names.map((name) => {
    const benchmark = known.get(name);
    if (benchmark === undefined) throw new Error(`unknown benchmark "${name}"; known: ${[...known.keys()].join(", ")}`);
    return benchmark;
  });
}

async function main(): Promise<number> {
  const started = performance.now();
  const machine = machineInfo();
  const selected = selectBenchmarks(process.argv.slice(2));
  const settings: BenchSettings = {
    warmupSeconds: readSeconds("BENCH_WARMUP_SECONDS", 10),
    measureSeconds: readSeconds("BENCH_MEASURE_SECONDS", 10),
    engines: readEngines(),
  };
  const postgresUrl =
    process.env.BENCH_POSTGRES_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
  const postgresUnavailable = settings.engines.includes("postgres") ? await checkPostgres(postgresUrl) : "not requested";
  if (settings.engines.includes("postgres") && postgresUnavailable !== null) {
    log(`PostgreSQL at ${postgresUrl} is unavailable (${postgresUnavailable}); its results will say skipped`);
  }

  const service = await prepareServiceBuild(ROOT, readRuntime(), log, process.env.BENCH_SERVICE_ENTRY || undefined);
  const results: Record<string, Json> = {};
  const failures: Json[] = [];
  try {
    const context = {
      settings,
      service,
      postgresServerUrl: postgresUnavailable === null ? postgresUrl : null,
      postgresUnavailable,
      log,
    };
    for (const benchmark of selected) {
      log(`running ${benchmark.name}: ${benchmark.description}`);
      try {
        results[benchmark.name] = await benchmark.run(context);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log(`${benchmark.name} failed: ${message}`);
        results[benchmark.name] = { error: message };
        failures.push(benchmark.name);
      }
    }
  } finally {
    await service.dispose();
  }

  const document: Json = {
    generated_at: new Date().toISOString(),
    machine: {
      ...machine,
      postgres_version: postgresUnavailable === null ? await postgresVersion(postgresUrl) : null,
    },
    settings: {
      warmup_s: settings.warmupSeconds,
      measure_s: settings.measureSeconds,
      engines: [...settings.engines],
      service_runtime: service.runtime,
      ...(service.runtime === "entry" ? { service_entry: service.nodeArgs[0] ?? null } : {}),
      service_build_type_errors: service.typeErrors,
      load_generator: "autocannon, in the bench process; servers in their own processes on 127.0.0.1",
    },
    benchmarks: results,
    failures,
    total_s: round((performance.now() - started) / 1000, 1),
  };
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  return failures.length === 0 ? 0 : 1;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping servers and dropping scratch databases`);
    void runPendingCleanups().finally(() => process.exit(130));
  });
}

main()
  .then(async (code) => {
    await runPendingCleanups();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await runPendingCleanups();
    process.exit(1);
  });
