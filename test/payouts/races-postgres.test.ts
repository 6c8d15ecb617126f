// Races and crashes on PostgreSQL (PGlite runs one transaction at a time, so these prove nothing there):
// 50 concurrent identical creations make one payout; concurrent approve and reject have one winner; two
// workers never submit one payout twice; concurrent replacements of one failed payout, single and bulk, make
// exactly one; a service killed in the middle of a 1,000-row bulk, then fed the
// same file again, ends with exactly 1,000 payouts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payouts } from "../../src/modules/payouts/payouts.schema.js";
import { queryRows } from "../../src/platform/db/client.js";
import { createChildTracker, waitFor } from "../fixtures/child-processes.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, TEST_ENCRYPTION_KEY, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import {
  createPayout,
  createScriptedRail,
  newKey,
  payableBeneficiary,
  postPayout,
  railsWithProduction,
  type ScriptedRail,
} from "./payout-fixtures.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe.skipIf(!onPostgres)("payout races on PostgreSQL", () => {
  let t: TestApp;
  let rail: ScriptedRail;
  let business: RegisteredBusiness;
  const db = () => t.runtime.deps.database.db;

  beforeAll(async () => {
    rail = createScriptedRail();
    t = await buildTestApp({ rails: railsWithProduction(rail) });
    business = await registerBusiness(t.app);
  });
  afterAll(async () => t?.close());

  async function count(query: ReturnType<typeof sql>): Promise<number> {
    const [row] = await queryRows<{ n: number }>(db(), query);
    return row?.n ?? 0;
  }

  it("50 concurrent identical creations make exactly one payout", async () => {
    const key = business.keys.sandbox;
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const idempotencyKey = newKey("race");
    const body = { beneficiary_id: beneficiaryId, amount_minor: 4200, currency: "EUR", idempotency_key: idempotencyKey };
    const responses = await Promise.all(Array.from({ length: 50 }, () => postPayout(t.app, key, body)));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    // The others either replayed the winner (200) or met it in flight (409); nothing else.
    expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
    const winner = responses.find((r) => r.statusCode === 201)?.json().payout_id;
    for (const replay of responses.filter((r) => r.statusCode === 200)) expect(replay.json().payout_id).toBe(winner);
    for (const inFlight of responses.filter((r) => r.statusCode === 409)) {
      expect(inFlight.json().error.code).toBe("IDEMPOTENCY_KEY_IN_FLIGHT");
    }
    expect(await count(sql`select count(*)::int as n from payouts where idempotency_key = ${idempotencyKey}`)).toBe(1);
    // After the race, the key replays.
    expect((await postPayout(t.app, key, body)).statusCode).toBe(200);
  });

  it("answers 409 IDEMPOTENCY_KEY_IN_FLIGHT while another request holds the key, and creates once it is free", async () => {
    const key = business.keys.sandbox;
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const idempotencyKey = newKey("held");
    const body = { beneficiary_id: beneficiaryId, amount_minor: 4300, currency: "EUR", idempotency_key: idempotencyKey };
    // Stand in for a first request still running: hold the key's lock from another connection.
    const holder = new pg.Client({ connectionString: t.testDatabase.url as string });
    await holder.connect();
    try {
      await holder.query("select pg_advisory_lock(hashtextextended($1, 0))", [
        `payout-key:${business.businessId}:sandbox:${idempotencyKey}`,
      ]);
      const inFlight = await postPayout(t.app, key, body);
      expect(inFlight.statusCode).toBe(409);
      expect(inFlight.json().error.code).toBe("IDEMPOTENCY_KEY_IN_FLIGHT");
      expect(await count(sql`select count(*)::int as n from payouts where idempotency_key = ${idempotencyKey}`)).toBe(0);
    } finally {
      await holder.end();
    }
    expect((await postPayout(t.app, key, body)).statusCode).toBe(201);
  });

  it("concurrent approve and reject: exactly one wins and one Decision is recorded", async () => {
    const key = business.keys.sandbox;
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    for (let round = 0; round < 10; round += 1) {
      const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
      const [approve, reject] = await Promise.all(
        (["approve", "reject"] as const).map((outcome) =>
          t.app.inject({ method: "POST", url: `/v1/payouts/${payout.payout_id}/${outcome}`, headers: bearer(key) }),
        ),
      );
      const codes = [approve?.statusCode, reject?.statusCode].sort();
      expect(codes).toEqual([201, 409]);
      const winner = approve?.statusCode === 201 ? "approved" : "rejected";
      const read = await t.app.inject({ method: "GET", url: `/v1/payouts/${payout.payout_id}`, headers: bearer(key) });
      expect(read.json().status).toBe(winner);
      const decisions = await t.app.inject({
        method: "GET",
        url: `/v1/payouts/${payout.payout_id}/decisions`,
        headers: bearer(key),
      });
      expect(decisions.json().decisions).toHaveLength(1);
      expect(decisions.json().decisions[0].outcome).toBe(winner === "approved" ? "approve" : "reject");
    }
  });

  it("two workers draining together submit every payout exactly once", async () => {
    const key = business.keys.production;
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const ids: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
      await t.app.inject({ method: "POST", url: `/v1/payouts/${payout.payout_id}/approve`, headers: bearer(key) });
      ids.push(payout.payout_id);
    }
    const before = rail.submissions.length;
    const original = rail.script;
    // A slow rail widens the window in which a second worker could pick the same payout.
    rail.script = async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return original(request);
    };
    try {
      await Promise.all([t.runtime.createWorker("worker-a").drain(), t.runtime.createWorker("worker-b").drain()]);
    } finally {
      rail.script = original;
    }
    const submitted = rail.submissions.slice(before).map((s) => s.payoutId);
    expect(submitted.sort()).toEqual([...ids].sort());
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from payouts where id = any(${`{${ids.join(",")}}`}::uuid[]) and disbursement_status = 'submitted'`,
    );
    expect(row?.n).toBe(ids.length);
  });

  it("concurrent replacements of one failed payout, single and bulk, make exactly one; the others are refused", async () => {
    const key = business.keys.sandbox;
    const payee = await payableBeneficiary(t.app, key);
    for (let round = 0; round < 5; round += 1) {
      const failed = await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId });
      await db()
        .update(payouts)
        .set({ status: "failed", failureReason: "Account closed" })
        .where(eq(payouts.id, failed.payout_id));
      const replacing = {
        beneficiary_id: payee.beneficiaryId,
        amount_minor: 1234,
        currency: "EUR",
        replaces_payout_id: failed.payout_id,
      };
      const singles = Array.from({ length: 6 }, () =>
        postPayout(t.app, key, { ...replacing, idempotency_key: newKey("replace") }),
      );
      // Each file: a replacement row and an ordinary row, which must be created whatever happens to the other.
      const files = Array.from({ length: 3 }, (_, i) =>
        t.app.inject({
          method: "POST",
          url: "/v1/payouts/bulk",
          headers: bearer(key),
          payload: {
            uploadId: newKey("replace-file"),
            rows: [replacing, { ...replacing, replaces_payout_id: undefined, amount_minor: 10 + i }],
          },
        }),
      );
      const [singleAnswers, fileAnswers] = await Promise.all([Promise.all(singles), Promise.all(files)]);
      const created: string[] = [];
      for (const answer of singleAnswers) {
        if (answer.statusCode === 201) created.push(answer.json().payout_id);
        else expect([answer.statusCode, answer.json().error.code]).toEqual([409, "PAYOUT_ALREADY_REPLACED"]);
      }
      for (const answer of fileAnswers) {
        expect(answer.statusCode).toBe(200);
        const [replacement, ordinary] = answer.json().results;
        expect(ordinary).toMatchObject({ status: "created" });
        if (replacement.status === "created") created.push(replacement.payout_id);
        else expect(replacement).toMatchObject({ status: "failed", error: { code: "PAYOUT_ALREADY_REPLACED" } });
      }
      expect(created).toHaveLength(1);
      const stored = await queryRows<{ id: string }>(
        db(),
        sql`select id from payouts where replaces_payout_id = ${failed.payout_id}`,
      );
      expect(stored.map((r) => r.id)).toEqual(created);
    }
  });

  it("concurrent uploads of the same file make each row once", async () => {
    const key = business.keys.sandbox;
    const payee = await payableBeneficiary(t.app, key);
    const uploadId = newKey("twice");
    const rows = Array.from({ length: 300 }, (_, i) => ({
      beneficiary_id: payee.beneficiaryId,
      amount_minor: 100 + i,
      currency: "EUR",
    }));
    const responses = await Promise.all(
      [0, 1, 2].map(() =>
        t.app.inject({ method: "POST", url: "/v1/payouts/bulk", headers: bearer(key), payload: { uploadId, rows } }),
      ),
    );
    for (const response of responses) expect([200, 409]).toContain(response.statusCode);
    expect(await count(sql`select count(*)::int as n from payouts where upload_id = ${uploadId}`)).toBe(300);
  });
});

describe.skipIf(!onPostgres)("a service killed in the middle of a 1,000-row bulk (PostgreSQL)", () => {
  const children = createChildTracker();
  let t: TestApp;
  let dataDir: string;
  afterAll(async () => {
    await children.killAll();
    await t?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  function startService(name: string, databaseUrl: string) {
    return children.spawn(name, process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "src/main.ts"), "api"], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? tmpdir(),
        DATABASE_URL: databaseUrl,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        DATA_DIR: dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        RATE_LIMIT_REQUESTS: "100000",
      },
    });
  }

  it("ends with exactly 1,000 payouts after the same file is uploaded again", async () => {
    t = await buildTestApp();
    dataDir = await mkdtemp(path.join(tmpdir(), "payout-bulk-kill-"));
    const databaseUrl = t.testDatabase.url as string;
    const business = await registerBusiness(t.app);
    const key = business.keys.sandbox;
    const first = await payableBeneficiary(t.app, key);
    const second = await payableBeneficiary(t.app, key);
    // Rows 0-249 (the first batch) pay the first Beneficiary, the rest the second.
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      beneficiary_id: i < 250 ? first.beneficiaryId : second.beneficiaryId,
      amount_minor: 1000 + i,
      currency: "EUR",
      external_ref: `line-${i}`,
    }));
    const uploadId = newKey("killed");
    const payoutsOfUpload = async () => {
      const [row] = await queryRows<{ n: number }>(
        t.runtime.deps.database.db,
        sql`select count(*)::int as n from payouts where upload_id = ${uploadId}`,
      );
      return row?.n ?? 0;
    };

    // Hold the second Beneficiary locked: the second batch waits behind it, so the kill lands mid-file.
    const blocker = new pg.Client({ connectionString: databaseUrl });
    // A failed run drops the database under it: that ends the test, not the test process.
    blocker.on("error", () => {});
    await blocker.connect();
    await blocker.query("begin");
    await blocker.query("select id from beneficiaries where id = $1 for update", [second.beneficiaryId]);

    const service = startService("service", databaseUrl);
    const [, port] = await service.waitForOutput(/listening on 127\.0\.0\.1:(\d+)/, 60_000);
    const upload = () =>
      fetch(`http://127.0.0.1:${port}/v1/payouts/bulk`, {
        method: "POST",
        headers: { ...bearer(key), "content-type": "application/json" },
        body: JSON.stringify({ uploadId, rows }),
      });
    const pending = upload().catch(() => null);
    await waitFor("the first batch to commit", async () => ((await payoutsOfUpload()) === 250 ? true : undefined), 60_000);
    await service.stop("SIGKILL");
    expect(await pending).toBeNull();
    await blocker.query("rollback");
    await blocker.end();
    expect(await payoutsOfUpload()).toBe(250);

    const restarted = startService("service (restarted)", databaseUrl);
    const [, port2] = await restarted.waitForOutput(/listening on 127\.0\.0\.1:(\d+)/, 60_000);
    // The killed connection's transaction may take a moment to end on the server: retry while in flight.
    const body = await waitFor(
      "the re-upload",
      async () => {
        const response = await fetch(`http://127.0.0.1:${port2}/v1/payouts/bulk`, {
          method: "POST",
          headers: { ...bearer(key), "content-type": "application/json" },
          body: JSON.stringify({ uploadId, rows }),
        });
        // 409: the killed transaction is still ending on the server; 503: the service is still starting.
        return response.status === 409 || response.status === 503
          ? undefined
          : ((await response.json()) as { created: number; replayed: number; failed: number });
      },
      60_000,
    );
    expect(body).toMatchObject({ created: 750, replayed: 250, failed: 0 });
    expect(await payoutsOfUpload()).toBe(1000);
    // Longer than the waits inside it (two starts and two 60 s waits), so a slow run fails with the wait's message.
  }, 300_000);
});
