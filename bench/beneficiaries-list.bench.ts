// `GET /v1/beneficiaries?limit=100` (pages of 100 Beneficiaries, each with a bank account) at 32
// connections over a real port, on each engine. Target on PostgreSQL: at least 1,000 pages/s.
import { describeLoad, runLoad } from "./lib/load.js";
import { type CpuPerRequest, postgresBackendPids, startCpuWindow } from "./lib/process-cpu.js";
import { registerBusiness, startService } from "./lib/service.js";
import type { BenchContext, Benchmark, Engine, Json } from "./lib/types.js";

const CONNECTIONS = 32;
const PAGE_SIZE = 100;
const BENEFICIARIES = 300;
const TARGET_PAGES_PER_SEC = 1000;
const TARGET_ENGINE: Engine = "postgres";

async function seed(baseUrl: string, key: string): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  // Small concurrent batches: seeding is not what is measured.
  for (let start = 0; start < BENEFICIARIES; start += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, BENEFICIARIES - start) }, async (_, offset) => {
        const i = start + offset;
        const created = await fetch(`${baseUrl}/v1/beneficiaries`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            beneficiary_type: "person",
            email: `payee-${i}@bench.example.com`,
            first_name: "Payee",
            last_name: `Number ${i}`,
            country_of_residence: "DE",
            tax_id: `DE${String(100000000 + i)}`,
          }),
        });
        const body = (await created.json()) as { id?: string };
        if (created.status !== 201 || body.id === undefined) throw new Error(`seeding answered ${created.status}`);
        const account = await fetch(`${baseUrl}/v1/beneficiaries/${body.id}/bank-accounts`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            account_holder_name: `Payee ${i}`,
            country: "DE",
            currency: "EUR",
            iban: "DE89370400440532013000",
          }),
        });
        if (account.status !== 201) throw new Error(`bank account seeding answered ${account.status}: ${await account.text()}`);
        await fetch(`${baseUrl}/v1/beneficiaries/${body.id}/acknowledge`, {
          method: "POST",
          headers: { authorization: headers.authorization },
        });
        // Every other Beneficiary has a live collection link, so pages carry pending_requests.
        if (i % 2 === 0) {
          const link = await fetch(`${baseUrl}/v1/beneficiaries/${body.id}/collection-requests`, {
            method: "POST",
            headers,
            body: JSON.stringify({ scope: "full_onboarding" }),
          });
          // 404: a build from before collection links (BENCH_SERVICE_ENTRY A/B runs); the pages then carry none.
          if (link.status !== 201 && link.status !== 404)
            throw new Error(`link seeding answered ${link.status}: ${await link.text()}`);
        }
      }),
    );
  }
}

async function runEngine(context: BenchContext, engine: Engine): Promise<{ readonly [key: string]: Json }> {
  if (engine === "postgres" && context.postgresServerUrl === null) {
    return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  }
  const service = await startService(context, engine);
  try {
    const baseUrl = service.server.baseUrl;
    const business = await registerBusiness(service, `beneficiaries-list-${engine}`);
    context.log(`[${engine}] seeding ${BENEFICIARIES} Beneficiaries with bank accounts`);
    await seed(baseUrl, business.sandboxKey);
    const url = `${baseUrl}/v1/beneficiaries?limit=${PAGE_SIZE}`;
    const headers = { authorization: `Bearer ${business.sandboxKey}` };
    const probe = await fetch(url, { headers });
    const page = (await probe.json()) as { beneficiaries: Array<{ status: string }> };
    if (probe.status !== 200 || page.beneficiaries.length !== PAGE_SIZE) throw new Error(`probe answered ${probe.status}`);

    const { warmupSeconds, measureSeconds } = context.settings;
    await runLoad({ url, connections: CONNECTIONS, durationSeconds: warmupSeconds, headers });
    const backends =
      service.scratch !== null && context.postgresServerUrl !== null
        ? await postgresBackendPids(context.postgresServerUrl, service.scratch.name)
        : null;
    const cpuWindow = startCpuWindow(service.server.pid, backends);
    const load = await runLoad({ url, connections: CONNECTIONS, durationSeconds: measureSeconds, headers });
    const cpu: CpuPerRequest = cpuWindow.finish(load.responses_2xx + load.non2xx);
    context.log(describeLoad(`[${engine}] list pages of ${PAGE_SIZE}`, load));
    const clean = load.errors === 0 && load.non2xx === 0;
    return {
      pages_per_sec: load.requests_per_sec,
      beneficiaries_per_sec: load.requests_per_sec === null ? null : load.requests_per_sec * PAGE_SIZE,
      latency_p50_ms: load.latency_p50_ms,
      latency_p99_ms: load.latency_p99_ms,
      responses_2xx: load.responses_2xx,
      non2xx: load.non2xx,
      errors: load.errors,
      page_bytes: Buffer.byteLength(JSON.stringify(page)),
      cpu_per_request: {
        server_process_us: cpu.server_process_us,
        ...(cpu.postgres_backends_us === null ? {} : { postgres_backends_us: cpu.postgres_backends_us }),
        machine_busy_cores: cpu.machine_busy_cores,
      },
      target_pages_per_sec: TARGET_PAGES_PER_SEC,
      target_applies: engine === TARGET_ENGINE,
      met: clean && load.requests_per_sec !== null && load.requests_per_sec >= TARGET_PAGES_PER_SEC,
    };
  } finally {
    await service.dispose();
  }
}

export const beneficiariesListBenchmark: Benchmark = {
  name: "beneficiaries_list",
  description: `GET /v1/beneficiaries?limit=${PAGE_SIZE} at ${CONNECTIONS} connections (${BENEFICIARIES} Beneficiaries with bank accounts)`,
  async run(context) {
    const engines: Record<string, Json> = {};
    for (const engine of context.settings.engines) engines[engine] = await runEngine(context, engine);
    return { route: "GET /v1/beneficiaries", page_size: PAGE_SIZE, connections: CONNECTIONS, engines };
  },
};
