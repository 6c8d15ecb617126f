// The built service as an operator runs it (`node dist/main.js`, built once per run into a folder of its own by
// test/helpers/service-build.ts) on an empty DATA_DIR, graceful shutdown,
// a restart on the same data, `migrate`, and (PostgreSQL only) two API processes migrating one database at once.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows } from "../../src/platform/db/client.js";
import { readMigrations } from "../../src/platform/db/migrate.js";
import { type ChildHandle, createChildTracker, waitFor } from "../fixtures/child-processes.js";
import { readWrittenMail } from "../helpers/mail-files.js";
import { registrationTokenIn } from "../helpers/mail-queue.js";
import { builtServiceMain } from "../helpers/service-build.js";
import { TEST_ENCRYPTION_KEY } from "../helpers/test-app.js";
import { createScratchPostgresDatabase, onPostgres, TEST_DATABASE_URL } from "../helpers/test-database.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** dist/main.js of the run's one build of the service (test/helpers/service-build.ts). */
let main = "";
// A deadline for a condition, not a timing assertion: a first start on a fresh DATA_DIR runs initdb in a new
// process (seconds of CPU), which took close to a minute on a 2-core machine shared by a loaded test run.
const START_DEADLINE_MS = 180_000;
const EXPECTED_MIGRATIONS = readMigrations();
const APPLIED_LOG = /"msg":"database migrations applied"/g;

const children = createChildTracker();
const tempDirs: string[] = [];

async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "payout-startup-"));
  tempDirs.push(dir);
  return dir;
}

/** Only what the service needs: nothing from the test runner's environment (no DATABASE_URL, PORT, …) leaks in. */
function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), LOG_LEVEL: "info", HOST: "127.0.0.1", ...extra };
}

function startService(name: string, args: readonly string[], env: Record<string, string>): ChildHandle {
  return children.spawn(name, process.execPath, [main, ...args], { cwd: REPO_ROOT, env: serviceEnv(env) });
}

interface Banner {
  readonly port: number;
  readonly api: string;
  readonly reference: string;
  readonly health: string;
  readonly readiness: string;
}

/** Waits for the startup banner and returns the URLs it printed. */
async function bannerOf(child: ChildHandle): Promise<Banner> {
  const [, port] = await child.waitForOutput(/listening on 127\.0\.0\.1:(\d+)/, START_DEADLINE_MS);
  // The banner prints the OpenAPI document (a URL that answers); the API's base is the folder it is in.
  const [, document] = await child.waitForOutput(/ {2}API document: +(\S+)/, START_DEADLINE_MS);
  const api = document?.replace(/openapi\.json$/, "");
  const [, reference] = await child.waitForOutput(/ {2}API reference: +(\S+)/, START_DEADLINE_MS);
  const [, health, readiness] = await child.waitForOutput(/ {2}Health check: +(\S+) +\(readiness: (\S+)\)/, START_DEADLINE_MS);
  if (!port || !api || !reference || !health || !readiness) throw new Error(`incomplete banner:\n${child.output()}`);
  return { port: Number(port), api, reference, health, readiness };
}

/** Polls readiness until 200 (a generous deadline, not a timing assertion) and returns its body. */
async function waitUntilReady(
  child: ChildHandle,
  readinessUrl: string,
): Promise<{ status: string; database: string; migrations: number }> {
  return waitFor(
    `${child.name} to become ready`,
    async () => {
      if (child.hasExited) throw new Error(`${child.name} exited:\n${child.output()}`);
      const response = await fetch(readinessUrl).catch(() => null);
      if (response?.status !== 200) return undefined;
      return (await response.json()) as { status: string; database: string; migrations: number };
    },
    START_DEADLINE_MS,
    () => child.output(),
  );
}

async function migrationRowsInDataDir(dataDir: string): Promise<{ hash: string; applied_at: string }[]> {
  const database = await openDatabase({ databaseUrl: null, dataDir });
  try {
    return await queryRows<{ hash: string; applied_at: string }>(
      database.db,
      sql`select hash, applied_at::text as applied_at from schema_migrations order by hash`,
    );
  } finally {
    await database.close();
  }
}

/** When the pending retention sweeps of the embedded database are due, in milliseconds since the epoch. */
async function pendingRetentionSweepsInDataDir(dataDir: string): Promise<number[]> {
  const database = await openDatabase({ databaseUrl: null, dataDir });
  try {
    const rows = await queryRows<{ ms: string }>(
      database.db,
      sql`select (extract(epoch from run_at) * 1000)::bigint::text as ms from jobs
          where type = 'retention.sweep' and status = 'pending'`,
    );
    return rows.map((row) => Number(row.ms));
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  // Built exactly as `npm start` builds it, once per run and shared with platform-security.test.ts.
  main = await builtServiceMain();
}, 600_000); // generous: the build takes seconds, more on a loaded machine or when the other worker builds it

afterAll(async () => {
  await children.killAll();
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("the built service on the embedded database", () => {
  it("starts on an empty DATA_DIR, registers, stops on SIGTERM, and restarts on the same data", async () => {
    const dataDir = await tempDataDir();

    const first = startService("service (first start)", [], { DATA_DIR: dataDir, PORT: "0" });
    const banner = await bannerOf(first);
    expect(banner.port).toBeGreaterThan(0);
    const base = `http://localhost:${banner.port}`;
    expect(banner).toEqual({
      port: banner.port,
      api: `${base}/v1/`,
      reference: `${base}/docs`,
      health: `${base}/healthz`,
      readiness: `${base}/readyz`,
    });
    expect(await waitUntilReady(first, banner.readiness)).toEqual({
      status: "ready",
      database: "pglite",
      migrations: EXPECTED_MIGRATIONS.length,
    });
    expect(first.output().match(APPLIED_LOG)).toHaveLength(1);

    // The printed addresses are real.
    const health = await fetch(banner.health);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const reference = await fetch(banner.reference);
    expect(reference.status).toBe(200);
    expect(reference.headers.get("content-type")).toContain("text/html");
    const openapi = await fetch(`${banner.api}openapi.json`);
    expect(openapi.status).toBe(200);

    // The quick start: register, find the e-mail the worker wrote under DATA_DIR/mail, send its token back.
    expect(first.output()).toContain(`E-mail:         written as .eml files under ${path.join(dataDir, "mail")}`);
    const started = await fetch(`${banner.api}registration`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        business_name: "Startup Test Co",
        email: "ops@example.com",
        password: "correct horse battery staple",
      }),
    });
    expect(started.status).toBe(202);
    const [mail] = await waitFor(
      "the registration e-mail under DATA_DIR/mail",
      async () => {
        const written = await readWrittenMail(dataDir);
        return written.length > 0 ? written : undefined;
      },
      START_DEADLINE_MS,
      () => first.output(),
    );
    expect(mail?.to).toBe("ops@example.com");
    const registration = await fetch(`${banner.api}registration/verification`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: registrationTokenIn(mail?.text ?? "") }),
    });
    expect(registration.status).toBe(201);
    const registered = (await registration.json()) as { api_keys: { id: string; environment: string; key: string }[] };
    const sandboxKey = registered.api_keys.find((key) => key.environment === "sandbox");
    if (sandboxKey === undefined) throw new Error("no sandbox key issued");
    const listed = await fetch(`${banner.api}api-keys`, { headers: { authorization: `Bearer ${sandboxKey.key}` } });
    expect(listed.status).toBe(200);

    const firstExit = await first.stop("SIGTERM");
    expect(firstExit, first.output()).toEqual({ code: 0, signal: null });
    expect(first.output()).toContain('"msg":"stopped"');
    expect((await readdir(dataDir)).sort()).toEqual(["encryption.key", "mail", "pgdata"]);
    const migrationsAfterFirst = await migrationRowsInDataDir(dataDir);
    expect(migrationsAfterFirst.map((row) => row.hash).sort()).toEqual(EXPECTED_MIGRATIONS.map((m) => m.hash).sort());
    // The worker started the hourly retention sweep's chain: one sweep pending, at a whole hour.
    const sweeps = await pendingRetentionSweepsInDataDir(dataDir);
    expect(sweeps).toHaveLength(1);
    expect((sweeps[0] ?? 1) % 3_600_000).toBe(0);

    // Second start on the same data: the key still works and nothing is migrated again.
    const second = startService("service (restart)", [], { DATA_DIR: dataDir, PORT: "0" });
    const secondBanner = await bannerOf(second);
    expect(await waitUntilReady(second, secondBanner.readiness)).toEqual({
      status: "ready",
      database: "pglite",
      migrations: EXPECTED_MIGRATIONS.length,
    });
    const again = await fetch(`${secondBanner.api}api-keys`, { headers: { authorization: `Bearer ${sandboxKey.key}` } });
    expect(again.status).toBe(200);
    const keys = (await again.json()) as { api_keys: { id: string }[] };
    expect(keys.api_keys.map((key) => key.id)).toContain(sandboxKey.id);
    // The key with its last four hex digits changed (to ones it does not end with: "0000" would leave one
    // key in 65,536 unchanged).
    const otherEnding = sandboxKey.key.endsWith("0000") ? "ffff" : "0000";
    const unknownKey = await fetch(`${secondBanner.api}api-keys`, {
      headers: { authorization: `Bearer ${sandboxKey.key.slice(0, -4)}${otherEnding}` },
    });
    expect(unknownKey.status).toBe(401);

    const secondExit = await second.stop("SIGTERM");
    expect(secondExit, second.output()).toEqual({ code: 0, signal: null });
    expect(second.output().match(APPLIED_LOG)).toBeNull();
    expect(await migrationRowsInDataDir(dataDir)).toEqual(migrationsAfterFirst);
  }, 420_000);

  it("`migrate` on a fresh DATA_DIR applies the migrations and exits 0", async () => {
    const dataDir = await tempDataDir();
    const migrate = startService("migrate", ["migrate"], { DATA_DIR: dataDir, PORT: "0" });
    const exit = await migrate.exited;
    expect(exit, migrate.output()).toEqual({ code: 0, signal: null });
    expect(migrate.output().match(APPLIED_LOG)).toHaveLength(1);
    expect(migrate.output()).toContain("migrations are up to date");
    // It migrated and exited: it never started serving.
    expect(migrate.output()).not.toContain("listening on");
    const rows = await migrationRowsInDataDir(dataDir);
    expect(rows.map((row) => row.hash).sort()).toEqual(EXPECTED_MIGRATIONS.map((m) => m.hash).sort());
  }, 300_000);
});

describe.skipIf(!onPostgres)("two API processes starting at once against one PostgreSQL", () => {
  let scratch: { url: string; drop: () => Promise<void> } | undefined;

  afterAll(async () => {
    await children.killAll();
    await scratch?.drop();
  });

  it("both become ready and the migrations are recorded exactly once", async () => {
    if (TEST_DATABASE_URL === null) throw new Error("TEST_DATABASE_URL is not set");
    scratch = await createScratchPostgresDatabase(TEST_DATABASE_URL);
    const env = { DATABASE_URL: scratch.url, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, PORT: "0", DATA_DIR: await tempDataDir() };

    const apis = [startService("api 1", ["api"], env), startService("api 2", ["api"], env)];
    const banners = await Promise.all(apis.map((child) => bannerOf(child)));
    for (const [i, child] of apis.entries()) {
      const banner = banners[i];
      if (banner === undefined) throw new Error("missing banner");
      expect(child.output()).toContain("Payout orchestration service (api)");
      expect(await waitUntilReady(child, banner.readiness)).toEqual({
        status: "ready",
        database: "postgres",
        migrations: EXPECTED_MIGRATIONS.length,
      });
    }
    // The advisory lock made them take turns: one applied, the other found everything done.
    const appliedLogs = apis.map((child) => child.output().match(APPLIED_LOG)?.length ?? 0);
    expect(appliedLogs.sort()).toEqual([0, 1]);

    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ hash: string; n: number }>(
        "select hash, count(*)::int as n from schema_migrations group by hash order by hash",
      );
      expect(rows).toEqual(EXPECTED_MIGRATIONS.map((m) => ({ hash: m.hash, n: 1 })).sort((a, b) => a.hash.localeCompare(b.hash)));
    } finally {
      await client.end();
    }

    for (const child of apis) {
      const exit = await child.stop("SIGTERM");
      expect(exit, child.output()).toEqual({ code: 0, signal: null });
    }
  }, 420_000);
});
