// Webhook delivery by several real worker processes on one PostgreSQL (PostgreSQL only: PGlite runs one
// transaction at a time, so a race there proves nothing). The workers are test/fixtures/webhook-worker-process.ts:
// the production runtime and handlers in their own processes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { queryRows, transaction } from "../../src/platform/db/client.js";
import { type ChildHandle, type ChildTracker, createChildTracker, waitFor } from "../fixtures/child-processes.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, TEST_ENCRYPTION_KEY, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import { startWebhookReceiver, testCertificate, type WebhookReceiver } from "../helpers/webhook-receiver.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKER_SCRIPT = path.join(REPO_ROOT, "test/fixtures/webhook-worker-process.ts");

describe.skipIf(!onPostgres)("webhook workers in separate processes (PostgreSQL)", () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let children: ChildTracker;
  let workers: ChildHandle[] = [];
  let caDir: string;
  let businessId: string;
  let adminKey: string;

  function startWorker(workerId: string, env: Record<string, string> = {}): ChildHandle {
    const databaseUrl = testApp.testDatabase.url;
    if (databaseUrl === null) throw new Error("expected PostgreSQL");
    const child = children.spawn(workerId, process.execPath, ["--import", "tsx", WORKER_SCRIPT], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        DATABASE_POOL_SIZE: "6",
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        WEBHOOK_TEST_CA_FILE: path.join(caDir, "ca.pem"),
        WORKER_ID: workerId,
        WORKER_CONCURRENCY: "4",
        JOB_POLL_INTERVAL_MS: "50",
        LOG_LEVEL: "warn",
        ...env,
      },
    });
    workers.push(child);
    return child;
  }
  const output = () => workers.map((child) => `--- ${child.name} ---\n${child.output()}`).join("\n");

  async function recordEvents(count: number): Promise<string[]> {
    const { database, events } = testApp.runtime.deps;
    const ids: string[] = [];
    for (let batch = 0; batch < count; batch += 50) {
      const recorded = await transaction(database.db, async (tx) => {
        const inBatch: string[] = [];
        for (let i = batch; i < Math.min(count, batch + 50); i += 1) {
          const beneficiaryId = crypto.randomUUID();
          const event = await events.record(tx, {
            tenant: { businessId, environment: "sandbox" },
            type: "beneficiary.details_submitted",
            subjectId: beneficiaryId,
            data: { beneficiary_id: beneficiaryId, status: "details_submitted" },
          });
          inBatch.push(event.id);
        }
        return inBatch;
      });
      ids.push(...recorded);
    }
    return ids;
  }

  async function statuses(): Promise<Map<string, string>> {
    const rows = await queryRows<{ id: string; status: string }>(
      testApp.runtime.deps.database.db,
      sql`select id::text, status::text from webhook_deliveries`,
    );
    return new Map(rows.map((row) => [row.id, row.status]));
  }

  beforeAll(async () => {
    children = createChildTracker();
    caDir = mkdtempSync(path.join(tmpdir(), "webhook-ca-"));
    writeFileSync(path.join(caDir, "ca.pem"), testCertificate().cert);
    receiver = await startWebhookReceiver();
    testApp = await buildTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
      runtime: { webhookTlsCa: testCertificate().cert },
    });
    const business = await registerBusiness(testApp.app, "Fleet Co");
    businessId = business.businessId;
    adminKey = business.keys.sandbox;
    const subscribed = await testApp.app.inject({
      method: "POST",
      url: "/v1/webhook-subscriptions",
      headers: bearer(adminKey),
      payload: { url: `${receiver.origin}/fleet`, enabled_events: ["beneficiary.details_submitted"] },
    });
    expect(subscribed.statusCode).toBe(201);
  });
  afterEach(async () => {
    await Promise.all(workers.map((child) => child.stop("SIGKILL")));
    workers = [];
  });
  afterAll(async () => {
    await children?.killAll();
    await testApp?.close();
    await receiver?.close();
    if (caDir) rmSync(caDir, { recursive: true, force: true });
  });

  it("two worker processes deliver 500 events: every event once, no attempt sent twice, work shared", async () => {
    // Sharing, proved without timing: the receiver holds the first five deliveries open until all five have
    // arrived. A worker has at most 4 attempts in flight (WORKER_CONCURRENCY), so five at once means both
    // processes sent some, however fast either is. Their deadline outlasts the hold, so none is retried.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    receiver.respondWith((_request, index) => (index < 5 ? { status: 200, until: released } : { status: 200 }));
    receiver.requests.length = 0;
    const held = { WEBHOOK_TEST_TIMEOUT_MS: "45000" };
    const started = [startWorker("webhook-worker-a", held), startWorker("webhook-worker-b", held)];
    await Promise.all(started.map((child) => child.waitForOutput(/worker-ready/, 60_000)));
    const ids = await recordEvents(500);
    try {
      await waitFor(
        "5 deliveries in flight at once",
        async () => (receiver.deliveries().length >= 5 ? true : undefined),
        30_000,
        output,
      );
    } finally {
      release();
    }

    await waitFor(
      "500 deliveries to succeed",
      async () => {
        const current = await statuses();
        return ids.every((id) => current.get(id) === "succeeded") ? true : undefined;
      },
      180_000,
      output,
    );
    const delivered = receiver.deliveries().map((request) => (JSON.parse(request.rawBody.toString()) as { id: string }).id);
    const counts = new Map<string, number>();
    for (const id of delivered) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n !== 1)).toEqual([]);
    expect(new Set(delivered)).toEqual(new Set(ids));
    expect(delivered).toHaveLength(500);

    const [attempts] = await queryRows<{ n: string }>(
      testApp.runtime.deps.database.db,
      sql`select count(*)::text as n from webhook_attempts`,
    );
    expect(Number(attempts?.n)).toBe(500);
    const byWorker = await queryRows<{ locked_by: string; n: string }>(
      testApp.runtime.deps.database.db,
      sql`select locked_by, count(*)::text as n from jobs where type = 'webhook.deliver' group by locked_by`,
    );
    expect(byWorker.map((row) => row.locked_by).sort()).toEqual(["webhook-worker-a", "webhook-worker-b"]);
  }, 240_000);

  it("a worker killed while its attempt is in flight: the attempt is retried after the lease and the delivery completes", async () => {
    receiver.respondWith(() => ({ status: 200, delayMs: 60_000 }));
    receiver.requests.length = 0;
    // A lease far longer than the test needs to kill the victim: with a short one, a test slower than the lease
    // would let the victim, still alive, reclaim its own job and send the attempt a second time. The lease is
    // ended below instead, once the victim is dead, as if its time had run out.
    const victim = startWorker("webhook-worker-victim", { JOB_LEASE_SECONDS: "300" });
    await victim.waitForOutput(/worker-ready/, 60_000);
    const [id] = await recordEvents(1);
    await waitFor(
      "the attempt to reach the receiver",
      async () => (receiver.deliveries().length > 0 ? true : undefined),
      30_000,
      output,
    );
    await victim.stop("SIGKILL");
    expect((await statuses()).get(String(id))).toBe("pending");
    const expired = await queryRows<{ id: string }>(
      testApp.runtime.deps.database.db,
      sql`update jobs set lease_expires_at = now() - interval '1 second'
          where type = 'webhook.deliver' and status = 'running' and locked_by = 'webhook-worker-victim'
          returning id::text`,
    );
    expect(expired).toHaveLength(1);

    receiver.respondWith(() => ({ status: 200 }));
    // A long lease here too (a 2 s one could expire during a slow delivery and let the survivor send it twice);
    // its first poll sweeps, so it takes the expired job over at once.
    const survivor = startWorker("webhook-worker-survivor", { JOB_LEASE_SECONDS: "300" });
    await survivor.waitForOutput(/worker-ready/, 60_000);
    await waitFor(
      "the delivery to succeed",
      async () => ((await statuses()).get(String(id)) === "succeeded" ? true : undefined),
      60_000,
      output,
    );
    // At least once after a crash: the receiver saw the in-flight attempt and its retry, with the same id.
    const seen = receiver.deliveries().map((request) => (JSON.parse(request.rawBody.toString()) as { id: string }).id);
    expect(seen).toEqual([id, id]);
    const attempts = await queryRows<{ attempt_number: number; succeeded: boolean }>(
      testApp.runtime.deps.database.db,
      sql`select attempt_number, succeeded from webhook_attempts where delivery_id = ${String(id)}`,
    );
    expect(attempts).toEqual([{ attempt_number: 1, succeeded: true }]);
  }, 180_000);
});
