// A connection lost in the middle of a transaction (its backend terminated, as when PostgreSQL restarts) fails that
// transaction alone: the process lives on (a pool client checked out for a transaction had no 'error' listener, and
// Node ends a process on an unhandled 'error' event), the pool serves the next transaction, and a job whose
// transaction it was is retried as usual and completes once. PostgreSQL only: PGlite has no connections to lose.
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { isDatabaseUnreachable } from "../../src/platform/db/availability.js";
import { type Db, queryRows, transaction } from "../../src/platform/db/client.js";
import { waitFor } from "../fixtures/child-processes.js";
import { probeEnqueue, probeHandlers } from "../helpers/probe-jobs.js";
import { buildTestApp } from "../helpers/test-app.js";
import { onPostgres, openTestDatabase } from "../helpers/test-database.js";

/** Terminates the backend `pid` from another connection and waits until it is gone and its client has heard it. */
async function terminateBackend(db: Db, pid: number): Promise<void> {
  await db.execute(sql`select pg_terminate_backend(${pid})`);
  await waitFor(
    "the terminated backend to be gone",
    async () => {
      const rows = await queryRows<{ pid: number }>(db, sql`select pid from pg_stat_activity where pid = ${pid}`);
      return rows.length === 0 ? true : undefined;
    },
    20_000,
  );
  // The server's FATAL message has reached the client by now, or does within a few event-loop turns: give the
  // client the chance to emit its 'error' while it sits idle and checked out (the case that ended the process).
  for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

async function backendPid(db: Db): Promise<number> {
  const [row] = await queryRows<{ pid: number }>(db, sql`select pg_backend_pid() as pid`);
  if (row === undefined) throw new Error("no backend pid");
  return Number(row.pid);
}

describe.skipIf(!onPostgres)("a connection lost inside a transaction (PostgreSQL)", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("fails that transaction with a 'database unreachable' error, and the next transaction works", async () => {
    const testDatabase = await openTestDatabase();
    cleanups.push(() => testDatabase.close());
    const { db } = testDatabase.database;

    const failed = await transaction(db, async (tx) => {
      await terminateBackend(db, await backendPid(tx));
      await tx.execute(sql`select 1`);
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(Error);
    // The error handler answers such a request with 503 (and a job is retried): the one rule says "unreachable".
    expect(isDatabaseUnreachable(failed)).toBe(true);

    // The broken connection left the pool: every following transaction gets a working one.
    for (let i = 0; i < 5; i += 1) {
      const [row] = await transaction(db, (tx) => queryRows<{ one: number }>(tx, sql`select 1 as one`));
      expect(row).toEqual({ one: 1 });
    }
  });

  it("a job whose transaction loses its connection is retried and completes once", async () => {
    let completed = 0;
    const t = await buildTestApp({
      extraJobHandlers: probeHandlers({
        "probe.connection-lost": async (_payload, context) => {
          const db = t.runtime.deps.database.db;
          await transaction(db, async (tx) => {
            if (context.job.attempt === 1) await terminateBackend(db, await backendPid(tx));
            if (!(await context.completeWithin(tx))) throw new Error("lease lost");
          });
          completed += 1;
        },
      }),
    });
    cleanups.push(() => t.close());
    const { db } = t.runtime.deps.database;
    await transaction(db, (tx) =>
      t.runtime.deps.jobStore.enqueue(tx, ...probeEnqueue({ type: "probe.connection-lost", payload: {} })),
    );
    const worker = t.runtime.createWorker("connection-loss");

    await worker.drain();
    const [afterFirst] = await queryRows<{ status: string; attempts: number; last_error: string | null }>(
      db,
      sql`select status::text, attempts, last_error from jobs where type = 'probe.connection-lost'`,
    );
    expect(afterFirst).toMatchObject({ status: "pending", attempts: 1 });
    expect(afterFirst?.last_error).not.toBeNull();
    expect(completed).toBe(0);

    t.clock.advance(60_000); // past the retry delay
    await worker.drain();
    const [afterRetry] = await queryRows<{ status: string; attempts: number }>(
      db,
      sql`select status::text, attempts from jobs where type = 'probe.connection-lost'`,
    );
    expect(afterRetry).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(completed).toBe(1);
  });
});
