// Graceful shutdown of the worker loop: stop() must not return while a job it claimed is still running,
// including a job claimed by a poll that was already under way when stop() was called (main.ts closes the
// database right after stop() resolves).
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/platform/clock.js";
import { type Db, transaction } from "../../src/platform/db/client.js";
import { runMigrations } from "../../src/platform/db/migrate.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import { createJobStore, type JobStore } from "../../src/platform/jobs/job-store.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import { createWorker } from "../../src/platform/jobs/worker.js";
import { createLogger } from "../../src/platform/logger.js";
import { probeEnqueue } from "../helpers/probe-jobs.js";
import { TEST_START } from "../helpers/test-app.js";
import { openTestDatabase, type TestDatabase } from "../helpers/test-database.js";

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Lets every pending promise callback and due immediate run, without waiting on wall-clock time. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("worker stop()", () => {
  let testDatabase: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    testDatabase = await openTestDatabase();
    db = testDatabase.database.db;
    await runMigrations(db);
  });
  afterAll(async () => {
    await testDatabase?.close();
  });

  it("waits for jobs claimed by a poll that was under way when stop() was called", async () => {
    const clock = createManualClock(TEST_START);
    const realStore = createJobStore({ db, clock, ids: uuidV7Generator });
    const claimEntered = deferred();
    const releaseClaim = deferred();
    // The real store, with the first claim held open until the test lets it finish.
    let claims = 0;
    const store: JobStore = {
      ...realStore,
      claim: async (...args) => {
        claims += 1;
        if (claims === 1) {
          claimEntered.resolve();
          await releaseClaim.promise;
        }
        return realStore.claim(...args);
      },
    };
    const handlerStarted = deferred();
    const releaseHandler = deferred();
    const worker = createWorker({
      store,
      clock,
      logger: createLogger("silent") as unknown as FastifyBaseLogger,
      workerId: "stopping-worker",
      concurrency: 2,
      pollIntervalMs: 10_000,
      leaseMs: 60_000,
      handlers: {
        "probe.slow": async () => {
          handlerStarted.resolve();
          await releaseHandler.promise;
        },
      },
    });
    const id = await transaction(db, (tx) => realStore.enqueue(tx, ...probeEnqueue({ type: "probe.slow", payload: {} })));
    if (id === null) throw new Error("not enqueued");

    worker.start();
    await claimEntered.promise;
    let stopped = false;
    const stopping = worker.stop(60_000).then(() => {
      stopped = true;
    });
    expect(worker.running).toBe(false);
    releaseClaim.resolve();
    await handlerStarted.promise;
    await flush();
    // The job is still running: stop() must still be waiting for it.
    expect(stopped).toBe(false);

    releaseHandler.resolve();
    await stopping;
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
    expect(row?.status).toBe("succeeded");
    // Nothing was claimed after stop().
    expect(claims).toBe(1);
  });

  it("returns at once when nothing is running", async () => {
    const clock = createManualClock(TEST_START);
    const worker = createWorker({
      store: createJobStore({ db, clock, ids: uuidV7Generator }),
      clock,
      logger: createLogger("silent") as unknown as FastifyBaseLogger,
      workerId: "idle-worker",
      concurrency: 1,
      pollIntervalMs: 10_000,
      leaseMs: 60_000,
      handlers: {},
    });
    // Never started: stop() has nothing to wait for, even with a huge timeout.
    await worker.stop(10 * 60_000);
    expect(worker.running).toBe(false);
  });
});
