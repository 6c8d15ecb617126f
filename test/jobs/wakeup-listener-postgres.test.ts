// The job wake-up listener (PostgreSQL LISTEN) failing is visible to an operator: a LISTEN that cannot connect,
// and a listening connection that drops, are each logged and counted on /metrics, and the listener comes back
// by itself. Meanwhile workers still run jobs, by polling.
import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, queryRows, transaction } from "../../src/platform/db/client.js";
import { JOBS_WAKEUP_CHANNEL } from "../../src/platform/jobs/job-store.js";
import type { Worker } from "../../src/platform/jobs/worker.js";
import { createLogger } from "../../src/platform/logger.js";
import { createRuntime } from "../../src/runtime.js";
import { waitFor } from "../fixtures/child-processes.js";
import { portOutsideEphemeralRange } from "../helpers/ports.js";
import { probeEnqueue, probeHandlers } from "../helpers/probe-jobs.js";
import { buildTestApp, testConfig } from "../helpers/test-app.js";
import { onPostgres, openTestDatabase } from "../helpers/test-database.js";

function findLog(lines: readonly string[], message: string): Record<string, unknown> | undefined {
  const line = lines.find((text) => text.includes(message));
  return line === undefined ? undefined : (JSON.parse(line) as Record<string, unknown>);
}

describe.skipIf(!onPostgres)("job wake-up listener failures (PostgreSQL)", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("a LISTEN that cannot connect is logged and counted, and workers still run jobs by polling", async () => {
    const testDatabase = await openTestDatabase({ migrated: true });
    cleanups.push(() => testDatabase.close());
    // The service's database, except that its LISTEN connection goes to a server that refuses connections (a
    // port nothing listens on, outside the range the kernel hands to other processes' servers).
    const refusing = await openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:${await portOutsideEphemeralRange()}/test`,
      dataDir: "/nonexistent-test-data-dir",
    });
    cleanups.push(() => refusing.close());
    const logLines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        logLines.push(String(chunk));
        callback();
      },
    });
    let ran = 0;
    const runtime = await createRuntime(testConfig({ JOB_POLL_INTERVAL_MS: "50" }), {
      logger: createLogger("info", sink),
      database: { ...testDatabase.database, listen: refusing.listen },
      extraJobHandlers: probeHandlers({
        "probe.polled": async () => {
          ran += 1;
        },
      }),
    });
    cleanups.push(() => runtime.close());
    const worker = runtime.createWorker("refused-listen");
    worker.start();
    cleanups.push(() => worker.stop(5_000));

    const warning = await waitFor(
      "the LISTEN failure in the log",
      async () => findLog(logLines, "job wake-ups unavailable (LISTEN failed)"),
      20_000,
    );
    expect(warning).toMatchObject({ level: 40, channel: JOBS_WAKEUP_CHANNEL, retry_in_ms: 1_000 });
    expect(JSON.stringify(warning.err)).toContain("ECONNREFUSED");
    const scrape = await runtime.deps.metrics.registry.metrics();
    expect(scrape).toMatch(/^jobs_wakeup_listening 0$/m);
    expect(scrape).toMatch(/^jobs_wakeup_listen_failures_total\{reason="failed"\} [1-9]\d*$/m);

    await transaction(runtime.deps.database.db, (tx) =>
      runtime.deps.jobStore.enqueue(tx, ...probeEnqueue({ type: "probe.polled", payload: {} })),
    );
    await waitFor("the job to run by polling", async () => (ran > 0 ? true : undefined), 20_000);
  }, 60_000);

  it("a dropped LISTEN connection is logged and counted, and the listener reconnects and wakes workers again", async () => {
    let ran = 0;
    const t = await buildTestApp({
      // A minute between polls: within the test, only a wake-up makes the worker look for jobs.
      env: { JOB_POLL_INTERVAL_MS: "60000" },
      extraJobHandlers: probeHandlers({
        "probe.woken": async () => {
          ran += 1;
        },
      }),
    });
    cleanups.push(() => t.close());
    const db = t.runtime.deps.database.db;
    let worker: Worker | null = t.runtime.createWorker("listener");
    worker.start();
    cleanups.push(async () => worker?.stop(5_000));
    const listenerPids = async () =>
      (
        await queryRows<{ pid: number }>(
          db,
          sql`select pid from pg_stat_activity where datname = current_database() and query = ${`listen ${JOBS_WAKEUP_CHANNEL}`}`,
        )
      ).map((row) => Number(row.pid));
    const metricLines = async () => t.runtime.deps.metrics.registry.metrics();

    const [first] = await waitFor(
      "the listener",
      async () => {
        // pg_stat_activity shows the LISTEN as soon as it starts; the gauge is set once its answer is back. The
        // worker's first poll has found nothing too: from here on only a wake-up brings it back within the minute.
        const pids = await listenerPids();
        const scrape = await metricLines();
        return pids.length === 1 &&
          /^jobs_wakeup_listening 1$/m.test(scrape) &&
          /^jobs_worker_polls_total\{result="empty"\} [1-9]\d*$/m.test(scrape)
          ? pids
          : undefined;
      },
      20_000,
    );

    await db.execute(sql`select pg_terminate_backend(${first})`);

    const lost = await waitFor("the loss in the log", async () => findLog(t.logLines, "job wake-up connection lost"), 20_000);
    expect(lost).toMatchObject({ level: 40, channel: JOBS_WAKEUP_CHANNEL });
    await waitFor("the recovery in the log", async () => findLog(t.logLines, "job wake-ups restored"), 20_000);
    // One listener, the new one: polled, since the terminated backend leaves pg_stat_activity only once it has
    // finished exiting, which a loaded server may not have done yet.
    const after = await waitFor(
      "the new listener alone",
      async () => {
        const pids = await listenerPids();
        return pids.length === 1 && pids[0] !== first ? pids : undefined;
      },
      20_000,
    );
    expect(after).toHaveLength(1);
    const scrape = await metricLines();
    expect(scrape).toMatch(/^jobs_wakeup_listening 1$/m);
    expect(scrape).toMatch(/^jobs_wakeup_listen_failures_total\{reason="lost"\} 1$/m);

    // The new connection delivers wake-ups: a job committed with a NOTIFY runs long before the next poll.
    await transaction(db, async (tx) => {
      await t.runtime.deps.jobStore.enqueue(tx, ...probeEnqueue({ type: "probe.woken", payload: {} }));
      await tx.execute(sql`select pg_notify(${JOBS_WAKEUP_CHANNEL}, '')`);
    });
    await waitFor("the woken job to run", async () => (ran > 0 ? true : undefined), 20_000);
    // Claimed by a poll the wake-up brought, the first to claim anything.
    expect(await metricLines()).toMatch(/^jobs_worker_polls_total\{result="claimed"\} 1$/m);
    await worker.stop(5_000);
    worker = null;
  }, 60_000);
});
