// The built service (`node dist/main.js`) survives its database: an API process and a worker process keep running
// while the test kills and restarts a PostgreSQL server of its own (never the machine's shared one), the jobs
// approved before the kill finish after it exactly once, and /readyz goes not-ready and back. A process started
// while the database is down waits for it (logging each try), answers not-ready meanwhile and becomes ready when
// it comes up; a database that can never work (one that does not exist) still fails the start at once.
// PostgreSQL pass only: the file needs PostgreSQL binaries and skips on the PGlite pass like every *-postgres file.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/platform/db/client.js";
import { readMigrations } from "../../src/platform/db/migrate.js";
import { type ChildHandle, createChildTracker, waitFor } from "../fixtures/child-processes.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { createDatabaseOn, createOwnPostgres, type OwnPostgres, ownPostgresUnavailable } from "../helpers/own-postgres.js";
import { builtServiceMain } from "../helpers/service-build.js";
import { buildTestApp, TEST_ENCRYPTION_KEY } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import { createPayout, decide, payableBeneficiary } from "../payouts/payout-fixtures.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Deadlines for conditions, never timing assertions: a shared 2-core machine starts processes slowly. */
const START_DEADLINE_MS = 180_000;
const CONDITION_DEADLINE_MS = 120_000;
const PAYOUTS = 60;
const PAYOUTS_LATER = 15;
const LATER_SECONDS = 20;
const unavailable = ownPostgresUnavailable();
if (onPostgres && unavailable !== null) console.warn(`NOTICE: database-restart tests skipped: ${unavailable}`);

let main = "";
const children = createChildTracker();
const tempDirs: string[] = [];
const servers: OwnPostgres[] = [];

async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "payout-db-restart-"));
  tempDirs.push(dir);
  return dir;
}

async function ownServer(): Promise<OwnPostgres> {
  const server = await createOwnPostgres();
  servers.push(server);
  return server;
}

function startService(name: string, role: "api" | "worker", env: Record<string, string>): ChildHandle {
  return children.spawn(name, process.execPath, [main, role], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), LOG_LEVEL: "info", HOST: "127.0.0.1", ...env },
  });
}

/** The API's base URL from its startup banner. */
async function baseUrlOf(child: ChildHandle): Promise<string> {
  const [, port] = await child.waitForOutput(/listening on 127\.0\.0\.1:(\d+)/, START_DEADLINE_MS);
  return `http://127.0.0.1:${port}`;
}

async function status(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body };
}

/** Waits until GET `url` answers `expected`; returns that answer. */
function waitForStatus(
  what: string,
  url: string,
  expected: number,
  child: ChildHandle,
): Promise<{ status: number; body: unknown }> {
  return waitFor(
    what,
    async () => {
      if (child.hasExited) throw new Error(`${child.name} exited:\n${child.output()}`);
      const answer = await status(url).catch(() => null);
      return answer?.status === expected ? answer : undefined;
    },
    CONDITION_DEADLINE_MS,
    () => child.output(),
  );
}

/** One query on a connection of its own (the server may have restarted since the last one). */
async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

async function disbursedCount(url: string): Promise<number> {
  const [row] = await query<{ n: number }>(url, "select count(*)::int as n from events where type = 'payout.disbursed'");
  return row?.n ?? 0;
}

const CRASH = /Unhandled 'error' event|uncaughtException|unhandledRejection/;

beforeAll(async () => {
  if (!onPostgres || unavailable !== null) return;
  main = await builtServiceMain();
}, 600_000);

afterAll(async () => {
  await children.killAll();
  await Promise.all(servers.map((server) => server.remove()));
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe.skipIf(!onPostgres || unavailable !== null)("the service and a PostgreSQL restart (a server of the test's own)", () => {
  afterEach(async () => {
    await children.killAll();
  });

  it("an API and a worker process keep running through a database crash; jobs approved before it finish after it, once", async () => {
    const server = await ownServer();
    await server.start();
    await createDatabaseOn(server, "service");
    const url = server.url("service");

    // The Business, its Beneficiary and the approved payouts are made in this process (it migrates the database);
    // their disbursement jobs are left to the worker process.
    const database = await openDatabase({ databaseUrl: url, dataDir: "/nonexistent-test-data-dir" });
    const t = await buildTestApp({ database: { database, url, close: () => database.close() } });
    let key = "";
    const payoutIds: string[] = [];
    try {
      key = (await registerBusiness(t.app)).keys.sandbox;
      const { beneficiaryId } = await payableBeneficiary(t.app, key);
      for (let i = 0; i < PAYOUTS; i += 1) {
        const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
        const approved = await decide(t.app, key, payout.payout_id, "approve");
        expect(approved.statusCode, approved.body).toBe(201);
        payoutIds.push(payout.payout_id);
      }
    } finally {
      await t.close();
    }
    expect(await disbursedCount(url)).toBe(0);
    // Most disbursements are due now: the worker is busy with them (transactions open) when the database dies.
    // The rest are due a little later, so some are certainly still to run after the restart, however quickly the
    // worker gets through the first ones.
    await query(
      url,
      `update jobs set run_at = now() + interval '${LATER_SECONDS} seconds'
        where id in (select id from jobs where type = 'payout.disburse' order by created_at desc limit ${PAYOUTS_LATER})`,
    );

    const env = {
      DATABASE_URL: url,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PORT: "0",
      DATA_DIR: await tempDataDir(),
      // Two jobs at a time so the run spans the crash; a short lease so a job whose bookkeeping was lost with the
      // connection is taken again soon after the restart.
      JOB_CONCURRENCY: "2",
      JOB_POLL_INTERVAL_MS: "100",
      JOB_LEASE_SECONDS: "3",
    };
    const api = startService("api", "api", env);
    const worker = startService("worker", "worker", env);
    const base = await baseUrlOf(api);
    await waitForStatus("the API to become ready", `${base}/readyz`, 200, api);

    // The crash comes while the worker is disbursing: every backend is killed at once, as when the server dies.
    await waitFor(
      "the first disbursement",
      async () => ((await disbursedCount(url)) > 0 ? true : undefined),
      START_DEADLINE_MS,
      () => worker.output(),
    );
    await server.stopImmediately();

    const notReady = await waitForStatus("/readyz to answer not ready", `${base}/readyz`, 503, api);
    expect(notReady.body).toMatchObject({ error: { code: "service_unavailable" } });
    // A request that needs the database answers the error envelope, nothing internal.
    const during = await status(`${base}/v1/payouts/${payoutIds[0]}`, bearer(key));
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({ error: { code: "service_unavailable" } });
    expect(JSON.stringify(during.body)).not.toMatch(/ECONNREFUSED|postmaster|terminat/i);

    await server.start();
    const restartedAt = new Date();
    await waitForStatus("/readyz to answer ready again", `${base}/readyz`, 200, api);
    await waitFor(
      "every payout approved before the crash to be disbursed",
      async () => {
        if (worker.hasExited) throw new Error(`the worker exited:\n${worker.output()}`);
        return (await disbursedCount(url)) >= PAYOUTS ? true : undefined;
      },
      CONDITION_DEADLINE_MS,
      () => worker.output(),
    );

    // Both processes lived through it, without an unhandled connection error.
    expect(api.hasExited, api.output()).toBe(false);
    expect(worker.hasExited, worker.output()).toBe(false);
    expect(worker.output()).not.toMatch(CRASH);
    expect(api.output()).not.toMatch(CRASH);

    // Exactly once: one disbursement event per payout, every disbursement job succeeded, none buried.
    const perPayout = await query<{ subject_id: string; n: number }>(
      url,
      "select subject_id::text, count(*)::int as n from events where type = 'payout.disbursed' group by subject_id",
    );
    expect(perPayout.map((row) => row.subject_id).sort()).toEqual([...payoutIds].sort());
    expect(perPayout.every((row) => row.n === 1)).toBe(true);
    const jobStates = await query<{ status: string; n: number }>(
      url,
      "select status::text, count(*)::int as n from jobs where type = 'payout.disburse' group by status",
    );
    expect(jobStates).toEqual([{ status: "succeeded", n: PAYOUTS }]);
    // Those due later were disbursed after the restart (enqueued before the crash, run after it).
    const [late] = await query<{ n: number }>(
      url,
      `select count(*)::int as n from events where type = 'payout.disbursed' and occurred_at >= '${restartedAt.toISOString()}'`,
    );
    expect(late?.n).toBeGreaterThanOrEqual(PAYOUTS_LATER);

    // The API serves requests again.
    const after = await status(`${base}/v1/payouts/${payoutIds.at(-1)}`, bearer(key));
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ status: "disbursed" });

    for (const child of [api, worker]) {
      const exit = await child.stop("SIGTERM");
      expect(exit, child.output()).toEqual({ code: 0, signal: null });
    }
  }, 600_000);

  it("a process started while the database is down waits, answers not ready, and becomes ready when it comes up", async () => {
    const server = await ownServer(); // initdb only: not started yet
    const url = server.url("postgres");
    const env = { DATABASE_URL: url, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, PORT: "0", DATA_DIR: await tempDataDir() };
    const api = startService("api", "api", env);
    const worker = startService("worker", "worker", env);

    // Listening at once, not ready: the load balancer keeps traffic away, the orchestrator's liveness probe passes.
    const base = await baseUrlOf(api);
    const waiting = /"msg":"database not reachable yet; waiting for it"/g;
    for (const child of [api, worker]) {
      await waitFor(
        "two logged tries",
        async () => ((child.output().match(waiting)?.length ?? 0) >= 2 ? true : undefined),
        CONDITION_DEADLINE_MS,
        () => child.output(),
      );
    }
    const readiness = await status(`${base}/readyz`);
    expect(readiness.status).toBe(503);
    expect(readiness.body).toMatchObject({ error: { code: "service_unavailable" } });
    expect((await status(`${base}/healthz`)).status).toBe(200);
    const request = await status(`${base}/v1/payouts`, { authorization: "Bearer sk_sandbox_whatever" });
    expect(request.status).toBe(503);
    expect(request.body).toMatchObject({ error: { code: "service_unavailable" } });

    await server.start();
    const ready = await waitForStatus("the API to become ready", `${base}/readyz`, 200, api);
    expect(ready.body).toEqual({ status: "ready", database: "postgres", migrations: readMigrations().length });
    await worker.waitForOutput(/"msg":"worker started"/, CONDITION_DEADLINE_MS);
    expect(api.hasExited).toBe(false);
    expect(worker.hasExited).toBe(false);
    // Each try is logged with its number and the next delay, never the connection string.
    expect(api.output()).toMatch(/"attempt":2,/);
    expect(api.output()).not.toContain(url);

    for (const child of [api, worker]) {
      const exit = await child.stop("SIGTERM");
      expect(exit, child.output()).toEqual({ code: 0, signal: null });
    }
  }, 600_000);

  it("a database that can never work (it does not exist) fails the start at once", async () => {
    const server = await ownServer();
    await server.start();
    const api = startService("api", "api", {
      DATABASE_URL: server.url("no_such_database"),
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PORT: "0",
      DATA_DIR: await tempDataDir(),
    });
    const exit = await Promise.race([
      api.exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`still running:\n${api.output()}`)), START_DEADLINE_MS),
      ),
    ]);
    expect(exit, api.output()).toEqual({ code: 1, signal: null });
    expect(api.output()).toMatch(/database "no_such_database" does not exist/);
    // (A try may still be logged first: on a loaded machine the connection can exceed its 5 s deadline, which is
    // worth waiting out. The server's refusal itself is not.)
  }, 300_000);
});
