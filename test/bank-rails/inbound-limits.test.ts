// Inbound bank files are bounded and read once: a file over BANK_RAIL_INBOUND_MAX_FILE_BYTES (64 KiB here) is
// refused without being read whole, recorded with its name, size and the limit, logged and counted; a file
// already taken is skipped by its listing (name, size, modification time) before any download. In local folders
// (ACH here), where this process's own read counter (/proc/self/io `rchar`) shows what was read, and over SFTP
// to a real OpenSSH server whose sftp-server logs every file it opened and the bytes it read from it. The large
// files are sparse (64 MiB that take no disk). On both engines (TEST_DATABASE_URL).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalTarget, openSftpTarget } from "../../src/modules/bank-rails/bank-rails.delivery.js";
import { createBankInbound } from "../../src/modules/bank-rails/bank-rails.inbound.js";
import { findConfig } from "../../src/modules/bank-rails/bank-rails.repo.js";
import { bankInboundFiles } from "../../src/modules/bank-rails/bank-rails.schema.js";
import { BANK_POLL_JOB } from "../../src/modules/bank-rails/index.js";
import { systemResolver } from "../../src/platform/outbound-http/url-safety.js";
import { waitFor } from "../fixtures/child-processes.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { removeSshdDir, sshdAvailable, startTestSshd, type TestSshd } from "../helpers/sshd.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { bankAchReturnFile, bankPain002, checkBankAnswersOfThisFile } from "../helpers/test-bank.js";
import { achConfig, sepaConfig } from "./bank-rail-fixtures.js";

/** No bank statements read here (issue 28's reconciliation is not part of this). */
const NO_STATEMENTS = { isStatement: () => false, receive: async () => ({ kind: "statement", unmatched: [] }) };

// Every pain.002 and camt.054 this file sends is checked against its ISO 20022 schema after its tests.
checkBankAnswersOfThisFile();

/** What an inbound ACH file says of a return naming a trace none of our entries carries. */
const noEntry = (trace: string) =>
  `ACH return R03 for trace ${trace}: none of our ACH entries carries this trace number; nothing was moved.`;
const LIMIT = 64 * 1024;
const HUGE = 64 * 1024 * 1024;
const MB = 1024 * 1024;

let t: TestApp;
let root: string;
let local: RegisteredBusiness;
const db = () => t.runtime.deps.database.db;
const drain = () => t.runtime.createWorker(`w-${Math.random()}`).drain();

/** Bytes this process has read through read(2) and friends so far (files and sockets alike). */
function bytesReadByThisProcess(): number {
  const match = /^rchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"));
  if (!match?.[1]) throw new Error("no rchar in /proc/self/io");
  return Number(match[1]);
}

/** A 64 MiB file that starts like a bank file (sparse: it takes no disk). */
function hugeFile(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '<?xml version="1.0" encoding="UTF-8"?>\n<Document>');
  truncateSync(file, HUGE);
}

function achReturns(trace: string): string {
  const unknown = {
    originalTrace: trace,
    receivingRouting: "021000021",
    accountNumber: "123456789",
    amountMinor: 100,
    name: "Nobody",
    accountType: "checking" as const,
    code: "R03",
  };
  return bankAchReturnFile({
    companyIdentification: "1234567890",
    odfiIdentification: "09100001",
    returns: [unknown],
    changes: [],
  });
}

async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const values = (await t.runtime.deps.metrics.registry.getSingleMetric(name)?.get())?.values ?? [];
  return values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value))?.value ?? 0;
}

/** The Business's own production folder under the operator's root. */
const tenantOf = (business: RegisteredBusiness) => ({ businessId: business.businessId, environment: "production" });
const folderOf = (business: RegisteredBusiness) => path.join(root, business.businessId, "production");

async function inboundOf(business: RegisteredBusiness) {
  return db().select().from(bankInboundFiles).where(eq(bankInboundFiles.businessId, business.businessId));
}

/** Starts a Business's chain of polls (each poll schedules the next slot). */
async function startPolling(business: RegisteredBusiness, rail: "ach" | "sepa"): Promise<void> {
  await t.runtime.deps.jobStore.enqueue(
    db(),
    BANK_POLL_JOB,
    { businessId: business.businessId, rail },
    { runAt: t.clock.now(), dedupeKey: `test-first-poll:${business.businessId}:${rail}` },
  );
}

/** Moves the clock past the next poll slot and runs what is due. */
async function poll(): Promise<void> {
  t.clock.advance(61_000);
  await drain();
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "bank-inbound-limits-"));
  t = await buildTestApp({
    env: {
      BANK_RAIL_LOCAL_ROOT: root,
      BANK_RAIL_ALLOW_PRIVATE_HOSTS: "true",
      BANK_RAIL_POLL_INTERVAL_SECONDS: "60",
      BANK_RAIL_INBOUND_MAX_FILE_BYTES: String(LIMIT),
    },
  });
  local = await registerBusiness(t.app);
  const configured = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/ach",
    headers: bearer(local.keys.production),
    payload: achConfig(),
  });
  expect(configured.statusCode, configured.body).toBe(201);
  await startPolling(local, "ach");
});

afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("local folders", () => {
  const small = () => path.join(folderOf(local), "ach/in/returns-1.ach");

  it("refuses a file over the limit from its listing without reading it, and says why", async () => {
    hugeFile(path.join(folderOf(local), "ach/in/huge.ach"));
    writeFileSync(small(), achReturns("091000010000099"));
    const before = bytesReadByThisProcess();
    await poll();
    // The 64 MiB file was not read: the whole poll read a small fraction of it (the database's and the small
    // file's bytes included).
    expect(bytesReadByThisProcess() - before).toBeLessThan(8 * MB);
    const rows = await inboundOf(local);
    expect(rows.find((r) => r.fileName === "huge.ach")).toMatchObject({
      status: "refused",
      refusalReason:
        "huge.ach is 67108864 bytes, over the 65536-byte limit for inbound files (BANK_RAIL_INBOUND_MAX_FILE_BYTES); it was not read",
      contentSha256: null,
      contentEncrypted: null,
      sizeBytes: HUGE,
      sizeLimitBytes: LIMIT,
    });
    // The file within the limit is read and applied as before.
    expect(rows.find((r) => r.fileName === "returns-1.ach")).toMatchObject({
      status: "applied",
      unmatched: [noEntry("091000010000099")],
    });
    expect(t.logLines.join("\n")).toMatch(/huge\.ach[^\n]*over the size limit|over the size limit[^\n]*huge\.ach/);
    expect(await metric("bank_file_events_total", { rail: "ach", event: "inbound_too_large" })).toBe(1);
    expect(await metric("bank_inbound_files_read_total", { rail: "ach" })).toBe(1);
    expect(await metric("bank_inbound_bytes_read_total", { rail: "ach" })).toBe(readFileSync(small()).length);
  });

  it("does not download a file again at the next poll; reads it again when its listing changes", async () => {
    await poll();
    expect(await metric("bank_inbound_files_read_total", { rail: "ach" })).toBe(1);
    expect(await metric("bank_file_events_total", { rail: "ach", event: "inbound_too_large" })).toBe(1);
    expect(await inboundOf(local)).toHaveLength(2);

    // Touched, same bytes: read once more, found by its hash (nothing applied twice), and its new listing kept.
    utimesSync(small(), new Date("2026-05-27T12:30:00Z"), new Date("2026-05-27T12:30:00Z"));
    await poll();
    expect(await metric("bank_inbound_files_read_total", { rail: "ach" })).toBe(2);
    await poll();
    expect(await metric("bank_inbound_files_read_total", { rail: "ach" })).toBe(2);
    expect(await inboundOf(local)).toHaveLength(2);

    // Replaced by another return file of the same size (NACHA files come in 940-byte blocks): read and applied.
    const before = readFileSync(small()).length;
    writeFileSync(small(), achReturns("091000010000098"));
    utimesSync(small(), new Date("2026-05-27T12:40:00Z"), new Date("2026-05-27T12:40:00Z"));
    expect(readFileSync(small()).length).toBe(before);
    await poll();
    expect(await metric("bank_inbound_files_read_total", { rail: "ach" })).toBe(3);
    const rows = await inboundOf(local);
    expect(rows.filter((r) => r.fileName === "returns-1.ach").map((r) => r.unmatched)).toEqual(
      expect.arrayContaining([[noEntry("091000010000099")], [noEntry("091000010000098")]]),
    );
  });

  it("stops reading a file longer than its listing said after the limit plus one byte", async () => {
    const config = await findConfig(db(), { businessId: local.businessId, environment: "production" }, "ach");
    if (config === null) throw new Error("no ACH configuration");
    const reads: number[] = [];
    const deps = t.runtime.deps;
    const inbound = createBankInbound({
      db: db(),
      statements: NO_STATEMENTS,
      events: deps.events,
      clock: deps.clock,
      ids: deps.ids,
      cipher: deps.cipher,
      jobStore: deps.jobStore,
      logger: deps.logger,
      maxFileBytes: LIMIT,
      observeRead: (_rail, bytes) => reads.push(bytes),
      openTarget: async () => {
        throw new Error("not used: the target is given to intake");
      },
    });
    hugeFile(path.join(folderOf(local), "grown/in/grown.ach"));
    // The listing says 100 bytes (a file that grew after it was listed, or a server that misreports sizes).
    const real = openLocalTarget(root, tenantOf(local), "grown/out", "grown/in");
    let downloads = 0;
    const target = {
      ...real,
      listInbound: async () => (await real.listInbound()).map((entry) => ({ ...entry, size: 100 })),
      readInbound: (name: string, maxBytes: number) => {
        downloads += 1;
        return real.readInbound(name, maxBytes);
      },
    };
    const before = bytesReadByThisProcess();
    await inbound.intake(config, target);
    expect(bytesReadByThisProcess() - before).toBeLessThan(8 * MB);
    expect(reads).toEqual([LIMIT + 1]);
    const grown = (await inboundOf(local)).find((r) => r.fileName === "grown.ach");
    expect(grown).toMatchObject({
      status: "refused",
      refusalReason:
        "grown.ach was listed at 100 bytes but holds more than the 65536-byte limit for inbound files " +
        "(BANK_RAIL_INBOUND_MAX_FILE_BYTES); reading stopped after 65537 bytes",
      contentSha256: null,
      sizeBytes: 100,
    });
    // Not downloaded again while its listing stays the same.
    await inbound.intake(config, target);
    expect(downloads).toBe(1);
  });

  it("reads a file refused for its size once the limit is raised, and then not again", async () => {
    const config = await findConfig(db(), { businessId: local.businessId, environment: "production" }, "ach");
    if (config === null) throw new Error("no ACH configuration");
    const deps = t.runtime.deps;
    const inboundWithLimit = (maxFileBytes: number) =>
      createBankInbound({
        db: db(),
        statements: NO_STATEMENTS,
        events: deps.events,
        clock: deps.clock,
        ids: deps.ids,
        cipher: deps.cipher,
        jobStore: deps.jobStore,
        logger: deps.logger,
        maxFileBytes,
        openTarget: async () => {
          throw new Error("not used: the target is given to intake");
        },
      });
    mkdirSync(path.join(folderOf(local), "raised/in"), { recursive: true });
    writeFileSync(path.join(folderOf(local), "raised/in/large.ach"), "9".repeat(100 * 1024));
    const real = openLocalTarget(root, tenantOf(local), "raised/out", "raised/in");
    let downloads = 0;
    const target = {
      ...real,
      readInbound: (name: string, maxBytes: number) => {
        downloads += 1;
        return real.readInbound(name, maxBytes);
      },
    };
    const rowsOfLarge = async () => (await inboundOf(local)).filter((r) => r.fileName === "large.ach");
    await inboundWithLimit(LIMIT).intake(config, target);
    await inboundWithLimit(LIMIT).intake(config, target);
    expect(downloads).toBe(0);
    expect(await rowsOfLarge()).toMatchObject([{ status: "refused", contentSha256: null, sizeLimitBytes: LIMIT }]);
    // The operator raised the limit: the next poll reads the file (refused here as no NACHA file, but read).
    await inboundWithLimit(4 * LIMIT).intake(config, target);
    await inboundWithLimit(4 * LIMIT).intake(config, target);
    expect(downloads).toBe(1);
    const rows = await rowsOfLarge();
    expect(rows).toHaveLength(2);
    expect(rows.filter((r) => r.contentSha256 !== null)).toHaveLength(1);
  });

  it("reads at most the limit plus one byte of a local file, whatever its size", async () => {
    const target = openLocalTarget(root, tenantOf(local), "grown/out", "grown/in");
    const before = bytesReadByThisProcess();
    await expect(target.readInbound("grown.ach", LIMIT)).rejects.toMatchObject({
      name: "InboundTooLargeError",
      bytesRead: LIMIT + 1,
    });
    expect(bytesReadByThisProcess() - before).toBeLessThan(2 * MB);
    writeFileSync(path.join(folderOf(local), "grown/in/exact.ach"), "x".repeat(LIMIT));
    expect((await target.readInbound("exact.ach", LIMIT)).length).toBe(LIMIT);
  });
});

describe.runIf(sshdAvailable())("over SFTP (a real OpenSSH server)", () => {
  let sshd: TestSshd;
  let business: RegisteredBusiness;
  /** How often the server opened `name` of its inbound directory. */
  const opens = (name: string) =>
    sshd
      .sftpLog()
      .split("\n")
      .filter((line) => line.startsWith(`open "in/${name}"`)).length;

  beforeAll(async () => {
    sshd = await startTestSshd({ sftpLog: true });
    business = await registerBusiness(t.app);
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
    const configured = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(business.keys.production),
      payload: sepaConfig({ delivery }),
    });
    expect(configured.statusCode, configured.body).toBe(201);
    await startPolling(business, "sepa");
  });

  afterAll(async () => {
    await sshd?.stop();
    if (sshd) removeSshdDir(sshd);
  });

  it("refuses the file over the limit from the listing without opening it, and reads each new file once", async () => {
    hugeFile(path.join(sshd.root, "in/huge.xml"));
    writeFileSync(
      path.join(sshd.root, "in/status.xml"),
      bankPain002({ messageId: "STS-9", originalMessageId: "NOT-OURS", groupStatus: "ACCP" }),
    );
    await poll();
    expect(opens("status.xml"), sshd.sftpLog()).toBe(1);
    expect(opens("huge.xml"), sshd.sftpLog()).toBe(0);
    const rows = await inboundOf(business);
    expect(rows.find((r) => r.fileName === "huge.xml")).toMatchObject({
      status: "refused",
      refusalReason:
        "huge.xml is 67108864 bytes, over the 65536-byte limit for inbound files (BANK_RAIL_INBOUND_MAX_FILE_BYTES); it was not read",
      contentSha256: null,
    });
    expect(rows.find((r) => r.fileName === "status.xml")).toMatchObject({
      status: "applied",
      unmatched: ["pain.002 STS-9 answers message NOT-OURS, which is none of our SEPA files; nothing was moved."],
    });
    expect(await metric("bank_file_events_total", { rail: "sepa", event: "inbound_too_large" })).toBe(1);

    await poll();
    await poll();
    expect(opens("status.xml"), sshd.sftpLog()).toBe(1);
    expect(opens("huge.xml"), sshd.sftpLog()).toBe(0);
    expect(await metric("bank_file_events_total", { rail: "sepa", event: "inbound_too_large" })).toBe(1);
    expect(await inboundOf(business)).toHaveLength(2);
  });

  it("asks the server for at most the limit plus one byte of a file, whatever its size", async () => {
    const target = await openSftpTarget(
      {
        host: "127.0.0.1",
        port: sshd.port,
        username: sshd.username,
        privateKey: sshd.privateKey,
        hostKeyFingerprint: sshd.hostKeyFingerprint,
        outboundDirectory: "out",
        inboundDirectory: "in",
      },
      { allowPrivateTargets: true, resolve: systemResolver },
    );
    try {
      await expect(target.readInbound("huge.xml", LIMIT)).rejects.toMatchObject({
        name: "InboundTooLargeError",
        bytesRead: LIMIT + 1,
      });
    } finally {
      await target.close();
    }
    // The server's own account of the read, written when the file was closed.
    const [, served] = await waitFor(
      "the SFTP server to log the close of huge.xml",
      async () => /close "in\/huge\.xml" bytes read (\d+)/.exec(sshd.sftpLog()) ?? undefined,
      30_000,
      () => sshd.sftpLog(),
    );
    expect(Number(served)).toBe(LIMIT + 1);
  });
});
