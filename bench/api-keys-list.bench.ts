// Authenticated `GET /v1/api-keys` over a real loopback port at 32 connections, on each engine, beside
// the ceiling: a bare Fastify route in its own process answering the same JSON body (same bytes).
// The figure of merit is service/ceiling throughput; the target is 40% on PostgreSQL.
import { startCeilingServer } from "./lib/ceiling.js";
import { describeLoad, type LoadSummary, runLoad } from "./lib/load.js";
import { postgresActivityPerRequest } from "./lib/postgres-activity.js";
import { type CpuPerRequest, postgresBackendPids, startCpuWindow } from "./lib/process-cpu.js";
import { registerBusiness, startService } from "./lib/service.js";
import { round } from "./lib/stats.js";
import type { BenchContext, Benchmark, Engine, Json } from "./lib/types.js";

const ROUTE = "/v1/api-keys";
const CONNECTIONS = 32;
const TARGET_RATIO = 0.4;
/** The engine the target is set for; the other engine's `met` is informative. */
const TARGET_ENGINE: Engine = "postgres";

interface ServicePhase {
  readonly load: LoadSummary;
  readonly body: string;
  readonly activity: { readonly [key: string]: Json } | null;
  readonly cpu: CpuPerRequest;
}

async function measureService(context: BenchContext, engine: Engine): Promise<ServicePhase> {
  const { warmupSeconds, measureSeconds } = context.settings;
  const service = await startService(context, engine);
  try {
    const url = `${service.server.baseUrl}${ROUTE}`;
    const business = await registerBusiness(service, `api-keys-list-${engine}`);
    const headers = { authorization: `Bearer ${business.sandboxKey}` };
    const probe = await fetch(url, { headers });
    const probeText = await probe.text();
    if (probe.status !== 200) throw new Error(`GET ${ROUTE} answered ${probe.status}: ${probeText}`);

    context.log(`[${engine}] service: warming up ${warmupSeconds}s at ${CONNECTIONS} connections`);
    const warm = await runLoad({ url, connections: CONNECTIONS, durationSeconds: warmupSeconds, headers });
    context.log(describeLoad(`[${engine}] service warm-up`, warm));
    // Taken after the first request, so last_used_at is set and the body no longer changes length.
    const body = await (await fetch(url, { headers })).text();

    context.log(`[${engine}] service: measuring ${measureSeconds}s`);
    const backends =
      service.scratch !== null && context.postgresServerUrl !== null
        ? await postgresBackendPids(context.postgresServerUrl, service.scratch.name)
        : null;
    const cpuWindow = startCpuWindow(service.server.pid, backends);
    const load = await runLoad({ url, connections: CONNECTIONS, durationSeconds: measureSeconds, headers });
    const cpu = cpuWindow.finish(load.responses_2xx + load.non2xx);
    context.log(
      `${describeLoad(`[${engine}] service`, load)}; CPU/request: service ${cpu.server_process_us} us, PostgreSQL ${cpu.postgres_backends_us ?? "-"} us`,
    );

    await service.stopServer();
    let activity: ServicePhase["activity"] = null;
    if (service.scratch !== null) {
      const requests = 3 + [warm, load].reduce((sum, run) => sum + run.responses_2xx + run.non2xx, 0);
      activity = await postgresActivityPerRequest(service.scratch.url, requests);
    }
    return { load, body, activity, cpu };
  } finally {
    await service.dispose();
  }
}

async function measureCeiling(
  context: BenchContext,
  engine: Engine,
  body: string,
): Promise<{ load: LoadSummary; cpu: CpuPerRequest }> {
  const warmupSeconds = Math.max(2, Math.round(context.settings.warmupSeconds / 2));
  const ceiling = await startCeilingServer(ROUTE, body);
  try {
    if (ceiling.sampleBody !== body) {
      throw new Error(
        `the ceiling answers ${Buffer.byteLength(ceiling.sampleBody)} bytes, the service ${Buffer.byteLength(body)}: bodies differ`,
      );
    }
    const url = `${ceiling.baseUrl}${ROUTE}`;
    context.log(`[${engine}] ceiling: warming up ${warmupSeconds}s`);
    await runLoad({ url, connections: CONNECTIONS, durationSeconds: warmupSeconds });
    context.log(`[${engine}] ceiling: measuring ${context.settings.measureSeconds}s`);
    const cpuWindow = startCpuWindow(ceiling.pid, null);
    const load = await runLoad({ url, connections: CONNECTIONS, durationSeconds: context.settings.measureSeconds });
    const cpu = cpuWindow.finish(load.responses_2xx + load.non2xx);
    context.log(describeLoad(`[${engine}] ceiling`, load));
    return { load, cpu };
  } finally {
    await ceiling.stop();
  }
}

function cpuFigures(cpu: CpuPerRequest): { readonly [key: string]: Json } {
  return {
    server_process_us: cpu.server_process_us,
    ...(cpu.postgres_backends_us === null ? {} : { postgres_backends_us: cpu.postgres_backends_us }),
    machine_busy_cores: cpu.machine_busy_cores,
  };
}

function loadFigures(load: LoadSummary): { readonly [key: string]: Json } {
  return {
    requests_per_sec: load.requests_per_sec,
    latency_p50_ms: load.latency_p50_ms,
    latency_p99_ms: load.latency_p99_ms,
    latency_mean_ms: load.latency_mean_ms,
    latency_max_ms: load.latency_max_ms,
    responses_2xx: load.responses_2xx,
    non2xx: load.non2xx,
    non2xx_status: load.non2xx_status,
    errors: load.errors,
    timeouts: load.timeouts,
    duration_s: load.duration_s,
  };
}

async function runEngine(context: BenchContext, engine: Engine): Promise<{ readonly [key: string]: Json }> {
  if (engine === "postgres" && context.postgresServerUrl === null) {
    return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  }
  const service = await measureService(context, engine);
  const ceiling = await measureCeiling(context, engine, service.body);
  const ratio =
    service.load.requests_per_sec !== null && ceiling.load.requests_per_sec !== null && ceiling.load.requests_per_sec > 0
      ? service.load.requests_per_sec / ceiling.load.requests_per_sec
      : Number.NaN;
  const clean = service.load.errors === 0 && service.load.non2xx === 0;
  return {
    ...loadFigures(service.load),
    body_bytes: Buffer.byteLength(service.body),
    cpu_per_request: cpuFigures(service.cpu),
    ceiling: {
      ...loadFigures(ceiling.load),
      body_bytes: Buffer.byteLength(service.body),
      cpu_per_request: cpuFigures(ceiling.cpu),
    },
    ratio_to_ceiling: round(ratio, 3),
    target: TARGET_RATIO,
    target_applies: engine === TARGET_ENGINE,
    met: clean && Number.isFinite(ratio) && ratio >= TARGET_RATIO,
    ...(service.activity === null ? {} : { postgres_activity_per_request: service.activity }),
  };
}

export const apiKeysListBenchmark: Benchmark = {
  name: "api_keys_list",
  description: `Authenticated GET ${ROUTE} at ${CONNECTIONS} connections vs a bare Fastify route with the same body`,
  async run(context) {
    const engines: Record<string, Json> = {};
    for (const engine of context.settings.engines) {
      context.log(`[${engine}] api_keys_list`);
      engines[engine] = await runEngine(context, engine);
    }
    return {
      route: `GET ${ROUTE}`,
      connections: CONNECTIONS,
      warmup_s: context.settings.warmupSeconds,
      measure_s: context.settings.measureSeconds,
      target: `requests_per_sec >= ${TARGET_RATIO} x ceiling on ${TARGET_ENGINE}, with no errors or non-2xx`,
      engines,
    };
  },
};
