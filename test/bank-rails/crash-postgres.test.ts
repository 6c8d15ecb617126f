// The crash window of bank-file delivery, with real processes (PostgreSQL only: worker processes share one
// database) and a real OpenSSH server: a worker process (test/fixtures/bank-worker-process.ts) builds the
// cut-off's file, puts it on the server, and is SIGKILLed before it records the upload (a test-only pause
// holds it in that window). A second worker process then takes the upload job over when the lease expires:
// it finds the file under its deterministic name with the same SHA-256 and records it, without sending it
// again. Exactly one file on the server, one file record, each payout in it once.
import { readdirSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankFileItems, bankFiles } from "../../src/modules/bank-rails/bank-rails.schema.js";
import { type ChildTracker, createChildTracker, waitFor } from "../fixtures/child-processes.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { removeSshdDir, sshdAvailable, startTestSshd, type TestSshd } from "../helpers/sshd.js";
import { buildTestApp, TEST_ENCRYPTION_KEY, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import { createPayout, decide, payoutEvents } from "../payouts/payout-fixtures.js";
import { sepaConfig } from "./bank-rail-fixtures.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKER_SCRIPT = path.join(REPO_ROOT, "test/fixtures/bank-worker-process.ts");
const STARTUP_DEADLINE_MS = 90_000;

describe.skipIf(!onPostgres || !sshdAvailable())("a worker killed between the SFTP upload and its record (PostgreSQL)", () => {
  let t: TestApp;
  let sshd: TestSshd;
  let business: RegisteredBusiness;
  let key: string;
  let dataDir: string;
  let children: ChildTracker;

  beforeAll(async () => {
    children = createChildTracker();
    dataDir = await mkdtemp(path.join(tmpdir(), "bank-crash-"));
    sshd = await startTestSshd();
    t = await buildTestApp({ env: { BANK_RAIL_ALLOW_PRIVATE_HOSTS: "true" } });
    business = await registerBusiness(t.app);
    key = business.keys.production;
    const delivery = {
      kind: "sftp",
      host: "127.0.0.1",
      port: sshd.port,
      username: sshd.username,
      private_key: sshd.privateKey,
      host_key_fingerprint: sshd.hostKeyFingerprint,
      outbound_directory: "out",
      inbound_directory: "in",
    };
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({ delivery, cutoff_times: ["15:00"] }),
    });
    expect(put.statusCode, put.body).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await children?.killAll();
    await t?.close();
    await sshd?.stop();
    if (sshd) removeSshdDir(sshd);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  function startWorker(workerId: string, pause: boolean) {
    return children.spawn(workerId, process.execPath, ["--import", "tsx", WORKER_SCRIPT], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: String(t.testDatabase.url),
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        JOB_LEASE_SECONDS: "2",
        JOB_POLL_INTERVAL_MS: "50",
        WORKER_ID: workerId,
        BANK_RAIL_ALLOW_PRIVATE_HOSTS: "true",
        ...(pause ? { PAUSE_AFTER_BANK_UPLOAD: "1" } : {}),
      },
    });
  }

  it("leaves exactly one file on the server, recorded once, each payout in it once", async () => {
    const beneficiary = await createBeneficiary(t.app, key, {
      first_name: "Ana",
      last_name: "Perez",
      country_of_residence: "ES",
      postal_address: { line1: "Calle Mayor 5", city: "Madrid", country: "ES" },
    });
    await registerBankAccount(t.app, key, beneficiary.id, {
      account_holder_name: "Ana Perez",
      country: "ES",
      currency: "EUR",
      iban: "ES9121000418450200051332",
    });
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(key) });
    const payoutIds: string[] = [];
    for (const amount of [1_000, 2_000, 3_000]) {
      const payout = await createPayout(t.app, key, { beneficiary_id: beneficiary.id, amount_minor: amount, currency: "EUR" });
      expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
      payoutIds.push(payout.payout_id);
    }
    // The disbursement jobs queue the payouts for the next cut-off (the test clock is before it). The cut-off
    // job is due by the worker processes' real clock, which is later than the test's.
    await t.runtime.createWorker("queue").drain();

    const first = startWorker("crashing", true);
    const paused = await first.waitForOutput(/paused-after-upload (\S+)/, STARTUP_DEADLINE_MS);
    const fileName = String(paused[1]);
    const onServer = path.join(sshd.root, "out", fileName);
    const inodeBefore = statSync(onServer).ino;
    const killed = await first.stop("SIGKILL");
    expect(killed.signal).toBe("SIGKILL");

    // The window: the file is on the server, its record says it is not.
    const db = t.runtime.deps.database.db;
    const [built] = await db.select().from(bankFiles).where(eq(bankFiles.fileName, fileName));
    expect(built).toMatchObject({ status: "built", uploadedAt: null });

    const second = startWorker("recovering", false);
    await second.waitForOutput(/worker-ready/, STARTUP_DEADLINE_MS);
    const uploaded = await waitFor(
      "the second worker to record the upload",
      async () => {
        const [row] = await db.select().from(bankFiles).where(eq(bankFiles.fileName, fileName));
        return row?.status === "uploaded" ? row : undefined;
      },
      60_000,
      () => second.output(),
    );
    await second.stop("SIGTERM");

    expect(uploaded).toMatchObject({ lastUploadError: null, entryCount: 3 });
    expect(readdirSync(path.join(sshd.root, "out"))).toEqual([fileName]); // one file, no .part left over
    expect(statSync(onServer).ino).toBe(inodeBefore); // found there, not written again
    const all = await db.select().from(bankFiles).where(eq(bankFiles.businessId, business.businessId));
    expect(all).toHaveLength(1);
    const items = await db.select().from(bankFileItems).where(eq(bankFileItems.fileId, uploaded.id));
    expect(items.map((i) => i.payoutId).sort()).toEqual([...payoutIds].sort());
    for (const id of payoutIds) {
      expect((await payoutEvents(db, id)).filter((e) => e.type === "payout.disbursement_submitted")).toHaveLength(1);
    }
  }, 240_000);
});
