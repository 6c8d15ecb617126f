// `POST /v1/beneficiaries/import` with 500 valid, fully filled rows (identity, acknowledgment, a bank
// account in one of four corridors) over a real port, on each engine: wall time of the whole call as a
// client sees it. Target on PostgreSQL: at most 0.5 s (median of the measured runs).
import { performance } from "node:perf_hooks";
import { registerBusiness, startService } from "./lib/service.js";
import { round } from "./lib/stats.js";
import type { BenchContext, Benchmark, Engine, Json } from "./lib/types.js";

const ROWS = 500;
const RUNS = 7;
const TARGET_SECONDS = 0.5;
const TARGET_ENGINE: Engine = "postgres";

const BANKS = [
  { country: "DE", currency: "EUR", iban: "DE89370400440532013000" },
  { country: "US", currency: "USD", routing_code: "021000021", account_number: "000123456789" },
  { country: "MX", currency: "MXN", clabe: "002010077777777771" },
  { country: "GB", currency: "GBP", routing_code: "200000", account_number: "55779911" },
];

function rows(run: number): Json[] {
  return Array.from({ length: ROWS }, (_, i) => {
    const bank = BANKS[i % BANKS.length] ?? BANKS[0];
    return {
      email: `import-${run}-${i}@bench.example.com`,
      acknowledged: true,
      first_name: "Payee",
      last_name: `Number ${i}`,
      country_of_residence: "DE",
      date_of_birth: "1985-04-12",
      phone: "+4915123456789",
      tax_id: `DE${100000000 + i}`,
      postal_address: { line1: "Hauptstrasse 1", city: "Berlin", postal_code: "10115", country: "DE" },
      bank: { account_holder_name: `Payee Number ${i}`, ...bank },
    };
  });
}

async function runEngine(context: BenchContext, engine: Engine): Promise<{ readonly [key: string]: Json }> {
  if (engine === "postgres" && context.postgresServerUrl === null) {
    return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  }
  const service = await startService(context, engine);
  try {
    const baseUrl = service.server.baseUrl;
    const business = await registerBusiness(service, `beneficiaries-import-${engine}`);
    const seconds: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const body = JSON.stringify({ rows: rows(run) });
      const started = performance.now();
      const response = await fetch(`${baseUrl}/v1/beneficiaries/import`, {
        method: "POST",
        headers: { authorization: `Bearer ${business.sandboxKey}`, "content-type": "application/json" },
        body,
      });
      const result = (await response.json()) as { created_count?: number };
      const elapsed = (performance.now() - started) / 1000;
      if (response.status !== 200 || result.created_count !== ROWS) {
        throw new Error(`import answered ${response.status} with created_count ${String(result.created_count)}`);
      }
      seconds.push(elapsed);
      context.log(`[${engine}] import of ${ROWS} rows, run ${run + 1}: ${(elapsed * 1000).toFixed(0)} ms`);
    }
    const measured = seconds.slice(1).sort((a, b) => a - b);
    const median = measured[Math.floor(measured.length / 2)] ?? Number.NaN;
    return {
      rows: ROWS,
      first_run_s: round(seconds[0] ?? Number.NaN, 3),
      median_s: round(median, 3),
      min_s: round(measured[0] ?? Number.NaN, 3),
      max_s: round(measured[measured.length - 1] ?? Number.NaN, 3),
      rows_per_sec: round(ROWS / median, 0),
      target_s: TARGET_SECONDS,
      target_applies: engine === TARGET_ENGINE,
      met: median <= TARGET_SECONDS,
    };
  } finally {
    await service.dispose();
  }
}

export const beneficiariesImportBenchmark: Benchmark = {
  name: "beneficiaries_import",
  description: `POST /v1/beneficiaries/import with ${ROWS} valid rows, ${RUNS} runs (first one reported apart)`,
  async run(context) {
    const engines: Record<string, Json> = {};
    for (const engine of context.settings.engines) engines[engine] = await runEngine(context, engine);
    return { route: "POST /v1/beneficiaries/import", engines };
  },
};
