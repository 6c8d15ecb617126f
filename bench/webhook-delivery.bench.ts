// Webhook delivery from the outbox to a local HTTPS receiver that answers 200 at once, on each engine:
//   1. drain: a backlog of events recorded while no worker runs, then one worker drains it;
//      deliveries per second = deliveries between the first and the last arrival / that time.
//   2. lag: the worker running, events recorded one per transaction at fixed offered rates for
//      BENCH_MEASURE_SECONDS each; lag = arrival at the receiver - commit of the recording transaction (p50, p99).
// Events are recorded in the bench process through the service's own EventRecorder (the delivery hook
// included), as a use case does; the HTTPS receiver also runs in the bench process. The worker:
//   - PostgreSQL: the service build's own worker process (`main.js worker`), as in production, trusting the
//     receiver's self-signed certificate through NODE_EXTRA_CA_CERTS;
//   - PGlite: embedded, so the worker runs in the bench process beside the producer and the receiver.
// Targets on PostgreSQL: at least 1,000 deliveries/s, p50 lag under 200 ms at 1,000 events/s.
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { transaction } from "../src/platform/db/client.js";
import { createLogger } from "../src/platform/logger.js";
import { createRuntime, type Runtime } from "../src/runtime.js";
import { testCertificate } from "../test/helpers/webhook-receiver.js";
import { registerCleanup } from "./lib/cleanup.js";
import { processCpuMicros } from "./lib/process-cpu.js";
import { registerThroughMail } from "./lib/registration-mail.js";
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
const BENCH_ENCRYPTION_KEY = Buffer.alloc(32, 9).toString("base64");
const PRODUCERS = 8;
const MAX_PRODUCER_IN_FLIGHT = 32;

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
  const recorded = await transaction(database.db, (tx) =>
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

interface WorkerHandle {
  readonly pid: number | null;
  stop(): Promise<void>;
}

/** The service's own worker process (`main.js worker`) on the scratch database. */
async function startWorkerProcess(context: BenchContext, env: Readonly<Record<string, string>>): Promise<WorkerHandle> {
  const child: ChildProcess = spawn(process.execPath, [...context.service.nodeArgs, "worker"], {
    env: { ...process.env, ...env, LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = registerCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  const deadline = performance.now() + 60_000;
  while (!output.includes("worker started")) {
    if (child.exitCode !== null || performance.now() > deadline) {
      await stop();
      throw new Error(`worker process did not start:\n${output.slice(-2000)}`);
    }
    await sleep(50);
  }
  return { pid: child.pid ?? null, stop };
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
    ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
    ...(scratch === null ? {} : { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: String(WORKER_CONCURRENCY + PRODUCERS + 4) }),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
    RATE_LIMIT_REQUESTS: "10000000",
    LOG_LEVEL: "warn",
  });
  const runtime = await createRuntime(config, { webhookTlsCa: testCertificate().cert, logger: createLogger("warn") });
  const app = await buildApp(runtime.deps);
  try {
    // Registration: the worker writes the verification e-mail under DATA_DIR/mail (nothing else is queued yet).
    const business = await registerThroughMail(
      async (route, body) => {
        const response = await app.inject({ method: "POST", url: route, payload: body as Record<string, unknown> });
        if (route === "/v1/registration") await runtime.createWorker("bench-registration-mail").drain();
        return { status: response.statusCode, text: response.body };
      },
      config.dataDir,
      "Webhook bench",
      `webhooks-${engine}@bench.example.com`,
    );
    const key = business.sandboxKey;
    const subscribed = await app.inject({
      method: "POST",
      url: "/v1/webhook-subscriptions",
      headers: { authorization: `Bearer ${key}` },
      payload: { url: receiver.url, enabled_events: ["beneficiary.details_submitted"] },
    });
    if (subscribed.statusCode !== 201) throw new Error(`subscription failed: ${subscribed.statusCode} ${subscribed.body}`);
    const businessId = business.businessId;

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
    let worker: WorkerHandle;
    const cpuBefore = process.cpuUsage();
    let workerCpuBefore: number | null = null;
    if (scratch !== null) {
      const caFile = path.join(dataDir.path, "receiver-ca.pem");
      writeFileSync(caFile, testCertificate().cert);
      worker = await startWorkerProcess(context, {
        DATABASE_URL: scratch.url,
        DATABASE_POOL_SIZE: String(WORKER_CONCURRENCY + 4),
        ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
        DATA_DIR: path.join(dataDir.path, "worker-data"),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
        NODE_EXTRA_CA_CERTS: caFile,
      });
      workerCpuBefore = worker.pid === null ? null : processCpuMicros(worker.pid);
    } else {
      const inProcess = runtime.createWorker("bench-webhook-worker");
      inProcess.start();
      worker = { pid: null, stop: () => inProcess.stop(5_000) };
    }
    const drainMissing = await waitForArrivals(receiver, backlogIds, 300_000);
    const arrivalTimes = backlogIds.map((id) => receiver.arrivals.get(id)).filter((at): at is number => at !== undefined);
    const firstArrival = Math.min(...arrivalTimes);
    const lastArrival = Math.max(...arrivalTimes);
    const drainSeconds = (lastArrival - firstArrival) / 1000;
    const deliveriesPerSecond = (arrivalTimes.length - 1) / drainSeconds;
    const cpu = process.cpuUsage(cpuBefore);
    const delivered = Math.max(1, backlog - drainMissing);
    const benchCpuMsPerDelivery = (cpu.user + cpu.system) / 1000 / delivered;
    const workerCpuAfter = worker.pid === null ? null : processCpuMicros(worker.pid);
    const workerCpuMsPerDelivery =
      workerCpuBefore === null || workerCpuAfter === null ? null : (workerCpuAfter - workerCpuBefore) / 1000 / delivered;
    const cpuMsPerDelivery = workerCpuMsPerDelivery ?? benchCpuMsPerDelivery;
    context.log(
      `[${engine}] drained ${backlog - drainMissing}/${backlog} in ${drainSeconds.toFixed(2)} s: ${deliveriesPerSecond.toFixed(0)} deliveries/s, worker CPU ${cpuMsPerDelivery.toFixed(2)} ms each`,
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
        // Bounded: when the database cannot take the offered rate, the achieved rate shows it (no pool timeouts).
        while (issued < due && inFlight.size < MAX_PRODUCER_IN_FLIGHT) {
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
    await worker.stop();

    return {
      worker_concurrency: WORKER_CONCURRENCY,
      topology:
        scratch === null
          ? "one process: embedded database, worker, producer and HTTPS receiver share the bench process"
          : "worker: the service's own `main.js worker` process; producer and HTTPS receiver: the bench process",
      drain: {
        backlog,
        delivered: backlog - drainMissing,
        seconds: round(drainSeconds, 2),
        deliveries_per_sec: round(deliveriesPerSecond, 0),
        worker_cpu_ms_per_delivery: round(cpuMsPerDelivery, 3),
        bench_process_cpu_ms_per_delivery: round(benchCpuMsPerDelivery, 3),
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
