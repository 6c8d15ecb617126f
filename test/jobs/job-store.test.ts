// The job table's guarantees, on whichever engine this pass runs (PGlite by default, PostgreSQL when
// TEST_DATABASE_URL is set): transactional enqueue, run-once, retries on the clock, burial, dedupe,
// completion inside the handler's transaction, and fencing of a worker that lost its lease.
import { Type } from "@sinclair/typebox";
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createManualClock, type ManualClock } from "../../src/platform/clock.js";
import { type Db, queryRows, transaction } from "../../src/platform/db/client.js";
import { runMigrations } from "../../src/platform/db/migrate.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import { defineJob, jobHandler, NEWER_PAYLOAD_RETRY_MS } from "../../src/platform/jobs/job-definition.js";
import { type ClaimedJob, createJobStore, type JobStore } from "../../src/platform/jobs/job-store.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import {
  createWorker,
  defaultRetryDelayMs,
  type JobHandlers,
  LeaseLostError,
  PermanentJobError,
  RetryJobError,
  type Worker,
} from "../../src/platform/jobs/worker.js";
import { createLogger } from "../../src/platform/logger.js";
import { probeEnqueue, probeHandlers } from "../helpers/probe-jobs.js";
import { TEST_START } from "../helpers/test-app.js";
import { openTestDatabase, type TestDatabase } from "../helpers/test-database.js";

const LEASE_MS = 30_000;

/** Thrown inside a transaction to roll it back on purpose. */
class Rollback extends Error {}

async function rolledBack(db: Db, body: (tx: Db) => Promise<void>): Promise<void> {
  await expect(
    transaction(db, async (tx) => {
      await body(tx);
      throw new Rollback("roll back on purpose");
    }),
  ).rejects.toBeInstanceOf(Rollback);
}

describe("job store and worker", () => {
  let testDatabase: TestDatabase;
  let db: Db;
  let clock: ManualClock;
  let store: JobStore;
  const logger = createLogger("silent") as unknown as FastifyBaseLogger;
  const ALL_TYPES = ["probe.fail", "probe.later", "probe.touch", "probe.write"];

  function workerWith(handlers: JobHandlers, workerId = "test-worker"): Worker {
    return createWorker({
      store,
      handlers: probeHandlers(handlers),
      clock,
      logger,
      workerId,
      concurrency: 4,
      pollIntervalMs: 50,
      leaseMs: LEASE_MS,
    });
  }

  async function jobRow(id: string) {
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
    if (row === undefined) throw new Error(`job ${id} not found`);
    return row;
  }

  async function enqueueCommitted(job: Parameters<typeof probeEnqueue>[0]): Promise<string> {
    const id = await transaction(db, (tx) => store.enqueue(tx, ...probeEnqueue(job)));
    if (id === null) throw new Error("enqueue returned null");
    return id;
  }

  async function probeNotes(): Promise<string[]> {
    const rows = await queryRows<{ note: string }>(db, sql`select note from job_store_probe order by note`);
    return rows.map((row) => row.note);
  }

  beforeAll(async () => {
    testDatabase = await openTestDatabase();
    db = testDatabase.database.db;
    await runMigrations(db);
    await db.execute(sql`create table job_store_probe (job_id uuid not null, note text not null)`);
  });
  afterAll(async () => {
    await testDatabase?.close();
  });
  beforeEach(async () => {
    await db.execute(sql`truncate jobs, job_store_probe`);
    clock = createManualClock(TEST_START);
    store = createJobStore({ db, clock, ids: uuidV7Generator, defaultMaxAttempts: 5 });
  });

  it("never runs a job enqueued in a transaction that rolled back", async () => {
    const calls: unknown[] = [];
    const worker = workerWith({ "probe.touch": async (payload) => void calls.push(payload) });
    let enqueuedId: string | null = null;
    await rolledBack(db, async (tx) => {
      enqueuedId = await store.enqueue(tx, ...probeEnqueue({ type: "probe.touch", payload: { n: 1 } }));
    });
    // The enqueue itself worked inside the transaction; only the rollback removed it.
    expect(enqueuedId).not.toBeNull();

    expect(await worker.drain()).toBe(0);
    expect(calls).toEqual([]);
    const [count] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from jobs`);
    expect(count?.n).toBe(0);
  });

  it("runs a committed job exactly once and marks it succeeded", async () => {
    const calls: unknown[] = [];
    const worker = workerWith({ "probe.touch": async (payload) => void calls.push(payload) });
    const id = await enqueueCommitted({ type: "probe.touch", payload: { n: 42, nested: { ok: true } } });

    expect(await worker.drain()).toBe(1);
    clock.advance(60 * 60_000);
    expect(await worker.drain()).toBe(0);

    expect(calls).toEqual([{ n: 42, nested: { ok: true } }]);
    const row = await jobRow(id);
    expect(row.status).toBe("succeeded");
    expect(row.attempts).toBe(1);
    expect(row.completedAt?.getTime()).toBe(TEST_START.getTime());
    expect(row.leaseToken).toBeNull();
    expect(row.lastError).toBeNull();
  });

  it("does not run a job before its run_at", async () => {
    const calls: unknown[] = [];
    const worker = workerWith({ "probe.touch": async (payload) => void calls.push(payload) });
    await enqueueCommitted({ type: "probe.touch", payload: {}, runAt: new Date(TEST_START.getTime() + 10_000) });

    clock.advance(9_999);
    expect(await worker.drain()).toBe(0);
    clock.advance(1);
    expect(await worker.drain()).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it("retries a failing job at the scheduled time, not before, and buries it after maxAttempts", async () => {
    let calls = 0;
    const worker = workerWith({
      "probe.fail": async () => {
        calls += 1;
        throw new Error(`boom ${calls}`);
      },
    });
    const id = await enqueueCommitted({ type: "probe.fail", payload: {}, maxAttempts: 3 });

    await worker.drain();
    expect(calls).toBe(1);
    let row = await jobRow(id);
    expect(row.status).toBe("pending");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toBe("boom 1");
    expect(row.leaseToken).toBeNull();
    expect(row.runAt.getTime()).toBe(TEST_START.getTime() + defaultRetryDelayMs(1));

    // One millisecond early: still not due.
    clock.advance(defaultRetryDelayMs(1) - 1);
    expect(await worker.drain()).toBe(0);
    expect(calls).toBe(1);

    clock.advance(1);
    expect(await worker.drain()).toBe(1);
    expect(calls).toBe(2);
    row = await jobRow(id);
    expect(row.status).toBe("pending");
    expect(row.attempts).toBe(2);
    expect(row.runAt.getTime()).toBe(clock.now().getTime() + defaultRetryDelayMs(2));

    clock.advance(defaultRetryDelayMs(2) - 1);
    expect(await worker.drain()).toBe(0);
    clock.advance(1);
    expect(await worker.drain()).toBe(1);
    expect(calls).toBe(3);

    row = await jobRow(id);
    expect(row.status).toBe("dead");
    expect(row.attempts).toBe(3);
    expect(row.lastError).toBe("boom 3");
    expect(row.completedAt?.getTime()).toBe(clock.now().getTime());

    // Buried means buried: no later run, however far the clock moves.
    clock.advance(24 * 60 * 60_000);
    expect(await worker.drain()).toBe(0);
    expect(calls).toBe(3);
    expect((await store.stats()).dead).toBe(1);
  });

  it("buries a job at once when its handler throws a PermanentJobError", async () => {
    let runs = 0;
    const worker = workerWith({
      "probe.fail": async () => {
        runs += 1;
        throw new PermanentJobError("recipient refused for good");
      },
    });
    const id = await enqueueCommitted({ type: "probe.fail", payload: {} });
    expect(await worker.drain()).toBe(1);
    const row = await jobRow(id);
    expect(row.status).toBe("dead");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toBe("recipient refused for good");
    clock.advance(24 * 60 * 60_000);
    expect(await worker.drain()).toBe(0);
    expect(runs).toBe(1);
  });

  it("honours the delay of a RetryJobError", async () => {
    let calls = 0;
    const worker = workerWith({
      "probe.later": async () => {
        calls += 1;
        if (calls === 1) throw new RetryJobError("provider asked us to wait", 90_000);
      },
    });
    const id = await enqueueCommitted({ type: "probe.later", payload: {} });

    await worker.drain();
    let row = await jobRow(id);
    expect(row.status).toBe("pending");
    expect(row.lastError).toBe("provider asked us to wait");
    expect(row.runAt.getTime()).toBe(TEST_START.getTime() + 90_000);

    // The default backoff (5 s) would have run it by now; the requested delay must win.
    clock.advance(defaultRetryDelayMs(1));
    expect(await worker.drain()).toBe(0);
    clock.advance(90_000 - defaultRetryDelayMs(1) - 1);
    expect(await worker.drain()).toBe(0);
    expect(calls).toBe(1);

    clock.advance(1);
    expect(await worker.drain()).toBe(1);
    expect(calls).toBe(2);
    row = await jobRow(id);
    expect(row.status).toBe("succeeded");
    expect(row.attempts).toBe(2);
  });

  it("ignores a second enqueue with the same dedupeKey", async () => {
    const calls: unknown[] = [];
    const worker = workerWith({ "probe.touch": async (payload) => void calls.push(payload) });

    const first = await enqueueCommitted({ type: "probe.touch", payload: { n: 1 }, dedupeKey: "payout:123:submit" });
    const second = await transaction(db, (tx) =>
      store.enqueue(tx, ...probeEnqueue({ type: "probe.touch", payload: { n: 2 }, dedupeKey: "payout:123:submit" })),
    );
    expect(second).toBeNull();
    const other = await enqueueCommitted({ type: "probe.touch", payload: { n: 3 }, dedupeKey: "payout:456:submit" });
    expect(other).not.toBe(first);

    expect(await worker.drain()).toBe(2);
    expect(calls).toHaveLength(2);
    expect(calls).toContainEqual({ n: 1 });
    expect(calls).toContainEqual({ n: 3 });
    expect(calls).not.toContainEqual({ n: 2 });
  });

  it("does not spend a dedupeKey on an enqueue that rolled back", async () => {
    await rolledBack(db, async (tx) => {
      expect(
        await store.enqueue(tx, ...probeEnqueue({ type: "probe.touch", payload: {}, dedupeKey: "k-rolled-back" })),
      ).not.toBeNull();
    });
    const id = await transaction(db, (tx) =>
      store.enqueue(tx, ...probeEnqueue({ type: "probe.touch", payload: {}, dedupeKey: "k-rolled-back" })),
    );
    expect(id).not.toBeNull();
  });

  it("completeWithin commits the handler's write and the completion together", async () => {
    const worker = workerWith({
      "probe.write": async (_payload, context) => {
        await transaction(db, async (tx) => {
          await tx.execute(sql`insert into job_store_probe (job_id, note) values (${context.job.id}, 'written')`);
          if (!(await context.completeWithin(tx))) throw new LeaseLostError();
        });
      },
    });
    const id = await enqueueCommitted({ type: "probe.write", payload: {} });

    expect(await worker.drain()).toBe(1);
    expect(await probeNotes()).toEqual(["written"]);
    const row = await jobRow(id);
    expect(row.status).toBe("succeeded");
    expect(row.attempts).toBe(1);
    clock.advance(60 * 60_000);
    expect(await worker.drain()).toBe(0);
    expect(await probeNotes()).toEqual(["written"]);
  });

  it("a rolled-back handler transaction takes its completion with it, so the job runs again", async () => {
    let calls = 0;
    const worker = workerWith({
      "probe.write": async (_payload, context) => {
        calls += 1;
        await transaction(db, async (tx) => {
          await tx.execute(sql`insert into job_store_probe (job_id, note) values (${context.job.id}, ${`attempt ${calls}`})`);
          expect(await context.completeWithin(tx)).toBe(true);
          // Something fails after the completion was written: the whole transaction must roll back.
          if (calls === 1) throw new Error("failed after completing");
        });
      },
    });
    const id = await enqueueCommitted({ type: "probe.write", payload: {} });

    await worker.drain();
    expect(calls).toBe(1);
    expect(await probeNotes()).toEqual([]);
    let row = await jobRow(id);
    expect(row.status).toBe("pending");
    expect(row.completedAt).toBeNull();
    expect(row.lastError).toBe("failed after completing");

    clock.advance(defaultRetryDelayMs(1));
    expect(await worker.drain()).toBe(1);
    expect(calls).toBe(2);
    expect(await probeNotes()).toEqual(["attempt 2"]);
    row = await jobRow(id);
    expect(row.status).toBe("succeeded");
    expect(row.attempts).toBe(2);
  });

  it("completeWithin reports a lost lease and the handler's write is rolled back", async () => {
    let takenOver: ClaimedJob | undefined;
    const worker = workerWith({
      "probe.write": async (_payload, context) => {
        // While this handler works, its lease runs out and another worker takes the job over.
        clock.advance(LEASE_MS + 1);
        expect(await store.reclaimExpired()).toBe(1);
        [takenOver] = await store.claim("other-worker", 1, LEASE_MS, ALL_TYPES);
        await transaction(db, async (tx) => {
          await tx.execute(sql`insert into job_store_probe (job_id, note) values (${context.job.id}, 'stale write')`);
          if (!(await context.completeWithin(tx))) throw new LeaseLostError();
        });
      },
    });
    const id = await enqueueCommitted({ type: "probe.write", payload: {} });

    await worker.drain();
    expect(takenOver?.id).toBe(id);
    expect(await probeNotes()).toEqual([]);
    const row = await jobRow(id);
    // Still the other worker's: the stale worker neither completed nor rescheduled it.
    expect(row.status).toBe("running");
    expect(row.lockedBy).toBe("other-worker");
    expect(row.leaseToken).toBe(takenOver?.leaseToken);
    expect(row.attempts).toBe(2);
  });

  it("fences a worker whose lease expired and was handed to another claim", async () => {
    const id = await enqueueCommitted({ type: "probe.touch", payload: { n: 1 } });
    const [first] = await store.claim("worker-a", 10, 1_000, ALL_TYPES);
    expect(first?.id).toBe(id);
    expect(first?.attempt).toBe(1);
    expect(first?.payload).toEqual({ v: 1, n: 1 });
    expect(first?.leaseExpiresAt.getTime()).toBe(TEST_START.getTime() + 1_000);
    if (first === undefined) throw new Error("not claimed");

    // Leased: nobody else gets it, and it is not expired at exactly the expiry instant.
    expect(await store.claim("worker-b", 10, 1_000, ALL_TYPES)).toEqual([]);
    clock.advance(1_000);
    expect(await store.reclaimExpired()).toBe(0);
    clock.advance(1);
    expect(await store.reclaimExpired()).toBe(1);

    const [second] = await store.claim("worker-b", 10, 1_000, ALL_TYPES);
    expect(second?.id).toBe(id);
    expect(second?.attempt).toBe(2);
    expect(second?.leaseToken).not.toBe(first.leaseToken);
    if (second === undefined) throw new Error("not reclaimed");

    const before = await jobRow(id);
    expect(before.status).toBe("running");
    expect(before.lockedBy).toBe("worker-b");
    expect(before.lastError).toBe("lease expired: worker stopped before finishing");

    clock.advance(10);
    expect(await store.complete(first)).toBe(false);
    expect(await store.fail(first, "late failure from worker-a", new Date(clock.now().getTime() + 5_000))).toBe("lease_lost");
    expect(await transaction(db, (tx) => store.complete(first, tx))).toBe(false);
    expect(await jobRow(id)).toEqual(before);

    // The current holder is unaffected.
    expect(await store.complete(second)).toBe(true);
    const after = await jobRow(id);
    expect(after.status).toBe("succeeded");
    expect(after.completedAt?.getTime()).toBe(clock.now().getTime());
    // A stale completion after success changes nothing either.
    expect(await store.complete(first)).toBe(false);
    expect(await store.complete(second)).toBe(false);
    expect(await jobRow(id)).toEqual(after);
  });

  it("buries a job whose last attempt's lease expired instead of rerunning it", async () => {
    const id = await enqueueCommitted({ type: "probe.touch", payload: {}, maxAttempts: 1 });
    expect(await store.claim("worker-a", 1, 1_000, ALL_TYPES)).toHaveLength(1);
    clock.advance(1_001);
    expect(await store.reclaimExpired()).toBe(1);
    const row = await jobRow(id);
    expect(row.status).toBe("dead");
    expect(row.lastError).toBe("lease expired: worker stopped before finishing");
    expect(await store.claim("worker-b", 1, 1_000, ALL_TYPES)).toEqual([]);
  });

  it("leaves a job of a type it has no handler for to a worker that has one (rolling deploys)", async () => {
    const calls: unknown[] = [];
    const olderWorker = workerWith({ "probe.touch": async (payload) => void calls.push(payload) }, "older");
    const id = await enqueueCommitted({ type: "probe.newer_type", payload: { n: 1 } });

    expect(await olderWorker.drain()).toBe(0);
    clock.advance(24 * 60 * 60_000);
    expect(await olderWorker.drain()).toBe(0);
    const untouched = await jobRow(id);
    expect(untouched.status).toBe("pending");
    expect(untouched.attempts).toBe(0);
    expect(calls).toEqual([]);

    const newerWorker = workerWith({ "probe.newer_type": async (payload) => void calls.push(payload) }, "newer");
    expect(await newerWorker.drain()).toBe(1);
    expect(calls).toEqual([{ n: 1 }]);
    expect((await jobRow(id)).status).toBe("succeeded");
  });

  describe("typed, versioned payloads", () => {
    const TYPED_JOB = defineJob({
      type: "probe.typed",
      version: 2,
      payload: Type.Object({ payoutId: Type.String(), amount: Type.Integer() }),
    });

    async function insertRaw(payload: unknown): Promise<string> {
      const id = uuidV7Generator.newId();
      const now = clock.now();
      await db.insert(jobs).values({
        id,
        type: TYPED_JOB.type,
        payload,
        status: "pending",
        runAt: now,
        maxAttempts: 5,
        createdAt: now,
        updatedAt: now,
      });
      return id;
    }

    function typedWorker(calls: unknown[]): Worker {
      return createWorker({
        store,
        handlers: jobHandler(TYPED_JOB, async (payload) => void calls.push(payload)),
        clock,
        logger,
        workerId: "typed-worker",
        concurrency: 4,
        pollIntervalMs: 50,
        leaseMs: LEASE_MS,
      });
    }

    it("stores the payload with its version and hands the handler the payload without it", async () => {
      const calls: unknown[] = [];
      const id = await transaction(db, (tx) => store.enqueue(tx, TYPED_JOB, { payoutId: "p-1", amount: 125 }));
      if (id === null) throw new Error("not enqueued");
      expect((await jobRow(id)).payload).toEqual({ v: 2, payoutId: "p-1", amount: 125 });
      expect(await typedWorker(calls).drain()).toBe(1);
      expect(calls).toEqual([{ payoutId: "p-1", amount: 125 }]);
      expect((await jobRow(id)).status).toBe("succeeded");
    });

    it("buries a payload of a version the worker no longer reads, or of the wrong shape, with the reason, and runs the other jobs", async () => {
      const calls: unknown[] = [];
      const older = await insertRaw({ v: 1, payoutId: "p-old", amount: 1 });
      const malformed = await insertRaw({ v: 2, payoutId: "p-bad", amount: "12.50" });
      const good = await insertRaw({ v: 2, payoutId: "p-good", amount: 5 });

      expect(await typedWorker(calls).drain()).toBe(3);

      expect(calls).toEqual([{ payoutId: "p-good", amount: 5 }]);
      const olderRow = await jobRow(older);
      expect(olderRow.status).toBe("dead");
      expect(olderRow.attempts).toBe(1);
      expect(olderRow.lastError).toBe("probe.typed payload version 1 is not read by this worker (it reads version 2)");
      const malformedRow = await jobRow(malformed);
      expect(malformedRow.status).toBe("dead");
      expect(malformedRow.lastError).toMatch(/^malformed probe\.typed payload \(version 2\): \/amount /);
      expect((await jobRow(good)).status).toBe("succeeded");
    });

    it("retries a payload of a newer version later (a newer worker reads it during a rolling deploy)", async () => {
      const calls: unknown[] = [];
      const newer = await insertRaw({ v: 3, payoutId: "p-new", amount: 1 });
      expect(await typedWorker(calls).drain()).toBe(1);
      const row = await jobRow(newer);
      expect(row.status).toBe("pending");
      expect(row.lastError).toBe("probe.typed payload version 3 is not read by this worker (it reads version 2)");
      expect(row.runAt.getTime()).toBe(clock.now().getTime() + NEWER_PAYLOAD_RETRY_MS);
      expect(calls).toEqual([]);
    });

    it("reads a payload stored without a version as version 1", async () => {
      const V1_JOB = defineJob({ type: "probe.unversioned", version: 1, payload: Type.Object({ n: Type.Integer() }) });
      expect(V1_JOB.decode({ n: 3 })).toEqual({ n: 3 });
      expect(() => TYPED_JOB.decode({ payoutId: "p", amount: 1 })).toThrow(PermanentJobError);
    });
  });
});
