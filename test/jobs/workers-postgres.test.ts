// Several real worker processes sharing one PostgreSQL job table (PostgreSQL only: PGlite runs one
// transaction at a time, so a race test there proves nothing). The processes are test/fixtures/worker-process.ts.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { systemClock } from "../../src/platform/clock.js";
import { type Db, queryRows, transaction } from "../../src/platform/db/client.js";
import { runMigrations } from "../../src/platform/db/migrate.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import { createJobStore, type JobStore } from "../../src/platform/jobs/job-store.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import { type ChildHandle, type ChildTracker, createChildTracker, waitFor } from "../fixtures/child-processes.js";
import { probeEnqueue } from "../helpers/probe-jobs.js";
import { onPostgres, openTestDatabase, type TestDatabase } from "../helpers/test-database.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKER_SCRIPT = path.join(REPO_ROOT, "test/fixtures/worker-process.ts");
const STARTUP_DEADLINE_MS = 60_000;

interface ProbeRun {
  job_id: string;
  worker_id: string;
  attempt: number;
  lease_expires_at: string;
  started_at: string;
  finished_at: string | null;
}

class Rollback extends Error {}

describe.skipIf(!onPostgres)("job workers in separate processes (PostgreSQL)", () => {
  let testDatabase: TestDatabase;
  let db: Db;
  let databaseUrl: string;
  let store: JobStore;
  let children: ChildTracker;
  let workers: ChildHandle[] = [];

  function startWorker(workerId: string, options: { leaseMs?: number; concurrency?: number } = {}): ChildHandle {
    const child = children.spawn(workerId, process.execPath, ["--import", "tsx", WORKER_SCRIPT], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        WORKER_DATABASE_URL: databaseUrl,
        WORKER_ID: workerId,
        WORKER_LEASE_MS: String(options.leaseMs ?? 30_000),
        WORKER_CONCURRENCY: String(options.concurrency ?? 4),
        WORKER_POLL_MS: "25",
      },
    });
    workers.push(child);
    return child;
  }

  async function startWorkers(ids: readonly string[], options: { leaseMs?: number; concurrency?: number } = {}) {
    const started = ids.map((id) => startWorker(id, options));
    await Promise.all(started.map((child) => child.waitForOutput(/worker-ready/, STARTUP_DEADLINE_MS)));
    return started;
  }

  const workerOutput = () => workers.map((child) => `--- ${child.name} ---\n${child.output()}`).join("\n");

  async function probeRuns(): Promise<ProbeRun[]> {
    return queryRows<ProbeRun>(
      db,
      sql`select job_id::text, worker_id, attempt, lease_expires_at::text, started_at::text, finished_at::text from probe_runs order by started_at`,
    );
  }

  async function jobStatuses(ids: readonly string[]): Promise<Map<string, { status: string; attempts: number }>> {
    const rows = await db
      .select({ id: jobs.id, status: jobs.status, attempts: jobs.attempts })
      .from(jobs)
      .where(inArray(jobs.id, [...ids]));
    return new Map(rows.map((row) => [row.id, { status: row.status, attempts: row.attempts }]));
  }

  async function enqueueMany(type: string, payloads: readonly unknown[]): Promise<string[]> {
    return transaction(db, async (tx) => {
      const ids: string[] = [];
      for (const payload of payloads) {
        const id = await store.enqueue(tx, ...probeEnqueue({ type, payload: payload as object }));
        if (id === null) throw new Error("enqueue returned null");
        ids.push(id);
      }
      return ids;
    });
  }

  async function waitUntilSucceeded(ids: readonly string[], timeoutMs: number): Promise<void> {
    await waitFor(
      `${ids.length} jobs to succeed`,
      async () => {
        const statuses = await jobStatuses(ids);
        return [...statuses.values()].filter((s) => s.status === "succeeded").length === ids.length ? true : undefined;
      },
      timeoutMs,
      workerOutput,
    );
  }

  beforeAll(async () => {
    children = createChildTracker();
    testDatabase = await openTestDatabase();
    if (testDatabase.url === null) throw new Error("expected a PostgreSQL test database");
    databaseUrl = testDatabase.url;
    db = testDatabase.database.db;
    await runMigrations(db);
    await db.execute(sql`
      create table probe_runs (
        job_id uuid not null,
        worker_id text not null,
        attempt int not null,
        lease_expires_at timestamptz not null,
        started_at timestamptz not null,
        finished_at timestamptz
      )`);
    await db.execute(sql`create table probe_holds (job_id uuid not null, worker_id text not null)`);
    // probe.hold jobs wait for a share lock on this row; a test holds it exclusively to keep them running.
    await db.execute(sql`create table probe_gate (id int primary key)`);
    await db.execute(sql`insert into probe_gate values (1)`);
    store = createJobStore({ db, clock: systemClock, ids: uuidV7Generator });
  });
  beforeEach(async () => {
    await db.execute(sql`truncate jobs, probe_runs, probe_holds`);
  });
  afterEach(async () => {
    // Each test starts its own fleet; none may outlive it (killAll in afterAll is the backstop).
    await Promise.all(workers.map((child) => child.stop("SIGKILL")));
    workers = [];
  });
  afterAll(async () => {
    await children?.killAll();
    await testDatabase?.close();
  });

  it("two processes draining 300 jobs run every job exactly once, never overlapping, and share the work", async () => {
    // A lease longer than any wait below: the held jobs must not be taken over (and run twice) while held.
    await startWorkers(["worker-a", "worker-b"], { concurrency: 4, leaseMs: 120_000 });
    const payloads = Array.from({ length: 300 }, (_, i) => ({ sleepMs: 5 + (i % 4) * 5 }));
    let ids: string[] = [];
    let holdIds: string[] = [];
    // Sharing, proved without timing: five jobs that keep their slot until the gate opens. A worker runs at
    // most 4 jobs at once, so all five running together means both processes took some, however fast either is.
    const holders = await transaction(db, async (tx) => {
      await tx.execute(sql`select 1 from probe_gate for update`);
      holdIds = await enqueueMany(
        "probe.hold",
        Array.from({ length: 5 }, () => ({})),
      );
      ids = await enqueueMany("probe.record", payloads);
      return waitFor(
        "5 held jobs to run at once",
        async () => {
          const rows = await queryRows<{ job_id: string; worker_id: string }>(
            db,
            sql`select job_id::text, worker_id from probe_holds`,
          );
          return rows.length >= 5 ? rows : undefined;
        },
        30_000,
        workerOutput,
      );
    });
    expect(new Set(holders.map((row) => row.job_id))).toEqual(new Set(holdIds));
    expect(new Set(holders.map((row) => row.worker_id))).toEqual(new Set(["worker-a", "worker-b"]));

    await waitUntilSucceeded([...holdIds, ...ids], 120_000);

    const runs = await probeRuns();
    const runsByJob = new Map<string, ProbeRun[]>();
    for (const run of runs) runsByJob.set(run.job_id, [...(runsByJob.get(run.job_id) ?? []), run]);
    // No two runs of one job overlap in time (each run's end precedes the next run's start). Checked before
    // exactly-once, which would otherwise stop the test first: a job run twice at once fails here.
    for (const list of runsByJob.values()) {
      const sorted = [...list].sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at));
      for (let i = 1; i < sorted.length; i += 1) {
        const previousEnd = sorted[i - 1]?.finished_at ?? "infinity";
        expect(Date.parse(sorted[i]?.started_at ?? "")).toBeGreaterThanOrEqual(Date.parse(previousEnd));
      }
    }

    const ranMoreThanOnce = [...runsByJob].filter(([, list]) => list.length !== 1).map(([id]) => id);
    expect(ranMoreThanOnce).toEqual([]);
    expect(new Set(runsByJob.keys())).toEqual(new Set([...holdIds, ...ids]));
    expect(runs).toHaveLength(305);

    const statuses = await jobStatuses([...holdIds, ...ids]);
    expect(statuses.size).toBe(305);
    expect([...statuses.values()].every((s) => s.status === "succeeded" && s.attempts === 1)).toBe(true);

    const perWorker = new Map<string, number>();
    for (const run of runs) perWorker.set(run.worker_id, (perWorker.get(run.worker_id) ?? 0) + 1);
    expect([...perWorker.keys()].sort()).toEqual(["worker-a", "worker-b"]);
    expect(perWorker.get("worker-a")).toBeGreaterThan(0);
    expect(perWorker.get("worker-b")).toBeGreaterThan(0);
    // Longer than the waits above, so a slow run fails with their message (and the workers' output), not the
    // test runner's timeout.
  }, 180_000);

  it("reruns, in another process, a job whose worker process was killed mid-run once its lease expires", async () => {
    const leaseMs = 2_000;
    await startWorkers(["worker-c", "worker-d"], { leaseMs });
    const [jobId] = await enqueueMany("probe.hang", [{}]);
    if (jobId === undefined) throw new Error("no job id");

    const firstRun = await waitFor(
      "the first attempt to start",
      async () => (await probeRuns()).find((run) => run.job_id === jobId && run.attempt === 1),
      30_000,
      workerOutput,
    );
    // The process that ran attempt 1 killed itself right after writing its start row (SIGKILL, mid-run).
    const victim = workers.find((child) => child.name === firstRun.worker_id);
    if (victim === undefined) throw new Error(`unknown worker ${firstRun.worker_id}`);
    const killed = await victim.exited;
    expect(killed.signal).toBe("SIGKILL");

    await waitUntilSucceeded([jobId], 60_000);

    const runs = (await probeRuns()).filter((run) => run.job_id === jobId);
    expect(runs.map((run) => run.attempt)).toEqual([1, 2]);
    const secondRun = runs[1];
    expect(secondRun?.worker_id).not.toBe(firstRun.worker_id);
    expect(["worker-c", "worker-d"]).toContain(secondRun?.worker_id);
    expect(secondRun?.finished_at).not.toBeNull();
    // Nobody took the job over while the killed process still held its lease.
    expect(Date.parse(secondRun?.started_at ?? "")).toBeGreaterThanOrEqual(Date.parse(firstRun.lease_expires_at));
    const [row] = await queryRows<{ status: string; attempts: number; lease_token: string | null }>(
      db,
      sql`select status::text, attempts, lease_token::text from jobs where id = ${jobId}`,
    );
    expect(row).toEqual({ status: "succeeded", attempts: 2, lease_token: null });
  }, 150_000);

  it("never runs jobs whose enqueue rolled back, even while the processes poll during the open transaction", async () => {
    await startWorkers(["worker-e", "worker-f"]);
    const rolledBackIds: string[] = [];
    let sentinelsDuring: string[] = [];

    await expect(
      transaction(db, async (tx) => {
        for (let i = 0; i < 50; i += 1) {
          const id = await store.enqueue(tx, ...probeEnqueue({ type: "probe.record", payload: { sleepMs: 1 } }));
          if (id !== null) rolledBackIds.push(id);
        }
        // While these 50 rows exist uncommitted, committed jobs are claimed and run by the processes:
        // proof that they polled the table during the transaction.
        sentinelsDuring = await enqueueMany(
          "probe.record",
          Array.from({ length: 5 }, () => ({ sleepMs: 1 })),
        );
        await waitUntilSucceeded(sentinelsDuring, 60_000);
        throw new Rollback("the business change failed");
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(rolledBackIds).toHaveLength(50);

    // And after the rollback: more committed jobs run, the rolled-back ones never do.
    const sentinelsAfter = await enqueueMany(
      "probe.record",
      Array.from({ length: 5 }, () => ({ sleepMs: 1 })),
    );
    await waitUntilSucceeded(sentinelsAfter, 60_000);

    const ranIds = new Set((await probeRuns()).map((run) => run.job_id));
    expect(ranIds).toEqual(new Set([...sentinelsDuring, ...sentinelsAfter]));
    expect(rolledBackIds.filter((id) => ranIds.has(id))).toEqual([]);
    expect((await jobStatuses(rolledBackIds)).size).toBe(0);
  }, 150_000);
});
