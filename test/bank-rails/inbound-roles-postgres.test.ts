// Inbound bank files are read and parsed by worker processes only: with an `api` process and a `worker` process
// of the service (`src/main.ts`) on one PostgreSQL, the due poll is taken by the worker, which refuses the file
// over the size limit and applies the other, while the API process runs no job at all (its own metrics show no
// worker poll and no inbound read, its log no inbound file). PostgreSQL only: the embedded database is one
// process's.
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { bankInboundFiles } from "../../src/modules/bank-rails/bank-rails.schema.js";
import { BANK_POLL_JOB } from "../../src/modules/bank-rails/index.js";
import { type ChildHandle, createChildTracker, waitFor } from "../fixtures/child-processes.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, TEST_ENCRYPTION_KEY, type TestApp } from "../helpers/test-app.js";
import { bankAchReturnFile } from "../helpers/test-bank.js";
import { onPostgres } from "../helpers/test-database.js";
import { achConfig, localFolder } from "./bank-rail-fixtures.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const LIMIT = 64 * 1024;
// A deadline for a condition, not a timing assertion: starting the service under tsx on a loaded machine is slow.
const START_DEADLINE_MS = 120_000;

describe.skipIf(!onPostgres)("inbound bank files and the process roles (PostgreSQL)", () => {
  const children = createChildTracker();
  let t: TestApp;
  let root: string;

  afterAll(async () => {
    await children.killAll();
    await t?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  function startService(role: "api" | "worker", databaseUrl: string): ChildHandle {
    return children.spawn(role, process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "src/main.ts"), role], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? tmpdir(),
        DATABASE_URL: databaseUrl,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        DATA_DIR: path.join(root, `data-${role}`),
        PORT: "0",
        HOST: "127.0.0.1",
        METRICS_PORT: "0",
        LOG_LEVEL: "info",
        BANK_RAIL_LOCAL_ROOT: root,
        BANK_RAIL_INBOUND_MAX_FILE_BYTES: String(LIMIT),
      },
    });
  }

  async function metricsOf(child: ChildHandle): Promise<string> {
    const [, port] = await child.waitForOutput(/Metrics \((?:api|worker)\) listening on 127\.0\.0\.1:(\d+)/, START_DEADLINE_MS);
    return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  }

  it("only the worker process reads and parses them", async () => {
    root = mkdtempSync(path.join(tmpdir(), "bank-inbound-roles-"));
    t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root } });
    const databaseUrl = t.testDatabase.url as string;
    const business = await registerBusiness(t.app);
    const configured = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/ach",
      headers: bearer(business.keys.production),
      payload: achConfig(),
    });
    expect(configured.statusCode, configured.body).toBe(201);
    mkdirSync(localFolder(root, business.businessId, "ach/in"), { recursive: true });
    const huge = path.join(localFolder(root, business.businessId, "ach/in"), "huge.ach");
    writeFileSync(huge, "101 ");
    truncateSync(huge, 64 * 1024 * 1024);
    const unknownReturn = {
      originalTrace: "091000010000099",
      receivingRouting: "021000021",
      accountNumber: "123456789",
      amountMinor: 100,
      name: "Nobody",
      accountType: "checking" as const,
      code: "R03",
    };
    writeFileSync(
      path.join(localFolder(root, business.businessId, "ach/in"), "returns-1.ach"),
      bankAchReturnFile({
        companyIdentification: "1234567890",
        odfiIdentification: "09100001",
        returns: [unknownReturn],
        changes: [],
      }),
    );

    const api = startService("api", databaseUrl);
    await api.waitForOutput(/Payout orchestration service \(api\) listening on/, START_DEADLINE_MS);
    // The poll is due now (the service's clock is the real one; the test's manual clock is earlier).
    const db = t.runtime.deps.database.db;
    await t.runtime.deps.jobStore.enqueue(
      db,
      BANK_POLL_JOB,
      { businessId: business.businessId, rail: "ach" },
      { runAt: new Date(0), dedupeKey: `roles-poll:${business.businessId}` },
    );
    const worker = startService("worker", databaseUrl);
    const rows = await waitFor(
      "the worker to take both inbound files",
      async () => {
        const found = await db.select().from(bankInboundFiles).where(eq(bankInboundFiles.businessId, business.businessId));
        return found.length === 2 ? found : undefined;
      },
      START_DEADLINE_MS,
      () => `api:\n${api.output()}\nworker:\n${worker.output()}`,
    );
    expect(rows.find((r) => r.fileName === "huge.ach")).toMatchObject({ status: "refused", contentSha256: null });
    expect(rows.find((r) => r.fileName === "returns-1.ach")).toMatchObject({ status: "applied" });

    const workerMetrics = await metricsOf(worker);
    expect(workerMetrics).toContain('bank_inbound_files_read_total{rail="ach"} 1');
    expect(workerMetrics).toContain('bank_file_events_total{rail="ach",event="inbound_too_large"} 1');
    expect(workerMetrics).toMatch(/^jobs_worker_polls_total\{result="claimed"\} [1-9]/m);
    expect(worker.output()).toContain("over the size limit");
    // The API process has no worker: no job poll, no inbound read, nothing about inbound files in its log.
    const apiMetrics = await metricsOf(api);
    expect(apiMetrics).not.toMatch(/^jobs_worker_polls_total\{/m);
    expect(apiMetrics).not.toMatch(/^bank_inbound_files_read_total\{/m);
    expect(api.output()).not.toContain("worker started");
    expect(api.output()).not.toMatch(/inbound bank file/);

    for (const child of [api, worker]) {
      const exit = await child.stop("SIGTERM");
      expect(exit, child.output()).toEqual({ code: 0, signal: null });
    }
  }, 300_000);
});
