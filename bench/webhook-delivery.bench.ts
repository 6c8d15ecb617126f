// Webhook delivery from the outbox to a local HTTPS receiver that answers 200 at once, on each engine:
//   1. drain: a backlog of events recorded while no worker runs, then one worker process drains it;
//      deliveries per second = backlog / (last arrival - worker start).
//   2. lag: one worker running, events recorded one per transaction at a fixed offered rate for
//      BENCH_MEASURE_SECONDS; lag = arrival at the receiver - commit of the recording transaction (p50, p99).
// Everything runs in the bench process (the service runtime and worker, the producer, the receiver): PGlite
// is embedded, so its producer must share the process, and both engines are measured the same way. Events
// are recorded through the service's own EventRecorder (the delivery hook included), as a use case does.
// Targets on PostgreSQL: at least 1,000 deliveries/s, p50 lag under 200 ms.
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/platform/logger.js";
import { createRuntime, type Runtime } from "../src/runtime.js";
import { testCertificate } from "../test/helpers/webhook-receiver.js";
import { createScratchDatabase } from "./lib/scratch-postgres.js";
import { percentile, round, SampleBuffer } from "./lib/stats.js";
import { createTempDir } from "./lib/temp-dir.js";
import type { BenchContext, Benchmark, Engine, Json } from "./lib/types.js";

const TARGET_DELIVERIES_PER_SECOND = 1000;
const TARGET_P50_LAG_MS = 200;
const BACKLOG: Record<Engine, number> = { pglite: 2000, postgres: 5000 };
/** Offered rates of the lag phase: a light load (wake-up latency) and the target load. */
const OFFERED_RATES: Record<Engine, readonly number[]> = { pglite: [100, 300], postgres: [200, 1000] };
const WORKER_CONCURRENCY = 32;
const PRODUCERS = 8;

interface Receiver {
  readonly url: string;
  /** Arrival time (performance.now) by envelope id. */
  readonly arrivals: Map<string, number>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const { cert, key } = testCertificate();
  const arrivals = new Map<string, number>();
  const server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const at = performance.now();
      try {
        const id = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id?: string }).id;
        if (typeof id === "string" && !arrivals.has(id)) arrivals.set(id, at);
      } catch {
        // the endpoint check's body is "{}"; nothing to record
      }
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/bench`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function recordOne(runtime: Runtime, businessId: string): Promise<{ id: string; committedAt: number }> {
  const { database, events } = runtime.deps;
  const beneficiaryId = crypto.randomUUID();
  const recorded = await database.db.transaction((tx) =>
    events.record(tx, {
      tenant: { businessId, environment: "sandbox" },
      type: "beneficiary.details_submitted",
      subjectId: beneficiaryId,
      data: { beneficiary_id: beneficiaryId, status: "details_submitted" },
    }),
  );
  return { id: recorded.id, committedAt: performance.now() };
}

async function waitForArrivals(receiver: Receiver, ids: readonly string[], timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    let missing = 0;
    for (const id of ids) if (!receiver.arrivals.has(id)) missing += 1;
    if (missing === 0 || performance.now() > deadline) return missing;
    await sleep(20);
  }
}

async function runEngine(context: BenchContext, engine: Engine): Promise<{ readonly [key: string]: Json }> {
  if (engine === "postgres" && context.postgresServerUrl === null) {
    return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  }
  const dataDir = await createTempDir("bench-webhooks");
  const scratch =
    engine === "postgres" && context.postgresServerUrl !== null ? await createScratchDatabase(context.postgresServerUrl) : null;
  const receiver = await startReceiver();
  const config = loadConfig({
    DATA_DIR: path.join(dataDir.path, "data"),
    ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
    ...(scratch === null ? {} : { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: String(WORKER_CONCURRENCY + PRODUCERS + 4) }),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
    RATE_LIMIT_REQUESTS: "10000000",
    LOG_LEVEL: "warn",
  });
  const runtime = await createRuntime(config, { webhookTlsCa: testCertificate().cert, logger: createLogger("warn") });
  const app = await buildApp(runtime.deps);
  try {
    const registered = await app.inject({
      method: "POST",
      url: "/v1/registration",
      payload: {
        business_name: "Webhook bench",
        email: `webhooks-${engine}@bench.example.com`,
        password: "a long bench passphrase",
      },
    });
    const business = registered.json() as { business: { id: string }; api_keys: Array<{ environment: string; key: string }> };
    const key = business.api_keys.find((k) => k.environment === "sandbox")?.key ?? "";
    const subscribed = await app.inject({
      method: "POST",
      url: "/v1/webhook-subscriptions",
      headers: { authorization: `Bearer ${key}` },
      payload: { url: receiver.url, enabled_events: ["beneficiary.details_submitted"] },
    });
    if (subscribed.statusCode !== 201) throw new Error(`subscription failed: ${subscribed.statusCode} ${subscribed.body}`);
    const businessId = business.business.id;

    // 1. Drain a backlog.
    const backlog = BACKLOG[engine];
    context.log(`[${engine}] recording a backlog of ${backlog} events`);
    const backlogIds: string[] = [];
    let started = 0;
    await Promise.all(
      Array.from({ length: PRODUCERS }, async () => {
        while (started < backlog) {
          started += 1;
          backlogIds.push((await recordOne(runtime, businessId)).id);
        }
      }),
    );
    const worker = runtime.createWorker("bench-webhook-worker");
    const drainStarted = performance.now();
    const cpuBefore = process.cpuUsage();
    worker.start();
    const drainMissing = await waitForArrivals(receiver, backlogIds, 300_000);
    const lastArrival = Math.max(...backlogIds.map((id) => receiver.arrivals.get(id) ?? 0));
    const drainSeconds = (lastArrival - drainStarted) / 1000;
    const deliveriesPerSecond = (backlog - drainMissing) / drainSeconds;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMsPerDelivery = (cpu.user + cpu.system) / 1000 / Math.max(1, backlog - drainMissing);
    context.log(
      `[${engine}] drained ${backlog - drainMissing}/${backlog} in ${drainSeconds.toFixed(2)} s: ${deliveriesPerSecond.toFixed(0)} deliveries/s, ${cpuMsPerDelivery.toFixed(2)} ms CPU each (whole bench process)`,
    );

    // 2. Lag at fixed offered rates.
    const lagResults: Json[] = [];
    let targetP50 = Number.NaN;
    for (const rate of OFFERED_RATES[engine]) {
      const seconds = context.settings.measureSeconds;
      context.log(`[${engine}] offering ${rate} events/s for ${seconds} s`);
      const committed = new Map<string, number>();
      const offerStarted = performance.now();
      const total = rate * seconds;
      let issued = 0;
      const inFlight = new Set<Promise<void>>();
      while (issued < total) {
        const due = Math.min(total, Math.floor(((performance.now() - offerStarted) / 1000) * rate));
        while (issued < due) {
          issued += 1;
          const promise: Promise<void> = recordOne(runtime, businessId)
            .then(({ id, committedAt }) => {
              committed.set(id, committedAt);
            })
            .finally(() => inFlight.delete(promise));
          inFlight.add(promise);
        }
        await sleep(2);
      }
      await Promise.all([...inFlight]);
      const offeredSeconds = (performance.now() - offerStarted) / 1000;
      const lagMissing = await waitForArrivals(receiver, [...committed.keys()], 120_000);
      const lags = new SampleBuffer();
      for (const [id, at] of committed) {
        const arrival = receiver.arrivals.get(id);
        if (arrival !== undefined) lags.push(arrival - at);
      }
      const sorted = lags.sorted();
      const p50 = percentile(sorted, 50);
      const p99 = percentile(sorted, 99);
      if (rate === TARGET_DELIVERIES_PER_SECOND) targetP50 = p50;
      context.log(`[${engine}] at ${rate}/s: lag p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
      lagResults.push({
        offered_per_sec: rate,
        achieved_offer_per_sec: round(committed.size / offeredSeconds, 0),
        events: committed.size,
        delivered: committed.size - lagMissing,
        p50_ms: round(p50, 1),
        p99_ms: round(p99, 1),
        max_ms: round(sorted[sorted.length - 1] ?? Number.NaN, 1),
      });
      await sleep(1_000);
    }
    await worker.stop(5_000);

    return {
      worker_concurrency: WORKER_CONCURRENCY,
      topology: "one process: service runtime and worker, producer and HTTPS receiver share the bench process",
      drain: {
        backlog,
        delivered: backlog - drainMissing,
        seconds: round(drainSeconds, 2),
        deliveries_per_sec: round(deliveriesPerSecond, 0),
        bench_process_cpu_ms_per_delivery: round(cpuMsPerDelivery, 3),
      },
      lag: lagResults,
      target: { deliveries_per_sec: TARGET_DELIVERIES_PER_SECOND, p50_lag_ms: TARGET_P50_LAG_MS, applies: engine === "postgres" },
      met: deliveriesPerSecond >= TARGET_DELIVERIES_PER_SECOND && targetP50 < TARGET_P50_LAG_MS,
    };
  } finally {
    await app.close();
    await runtime.close();
    await receiver.close();
    await scratch?.drop();
    await dataDir.remove();
  }
}

export const webhookDeliveryBenchmark: Benchmark = {
  name: "webhook_delivery",
  description: "outbox to a local HTTPS receiver: backlog drain (deliveries/s) and commit-to-arrival lag at a fixed offered rate",
  async run(context) {
    const engines: Record<string, Json> = {};
    for (const engine of context.settings.engines) engines[engine] = await runEngine(context, engine);
    return { engines };
  },
};
