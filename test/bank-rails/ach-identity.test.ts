// The identity of every ACH entry we send, and answers matched on everything they carry (issue 25, items 1
// and 6), on both engines:
// - over a real OpenSSH server: two files in one day and one the next day carry distinct trace numbers and
//   File ID Modifiers; a return naming the first file's entry moves exactly that payout; returns whose amount
//   or account differ move nothing and are shown; a debit-only code on a credit is applied and flagged;
// - through local folders: trace and modifier uniqueness over 36 files of one day and across a restart (a new
//   runtime on the same database), the 37th file of the day refused and its payouts sent the next day;
// - a late cut-off (faked clock: 24 Dec 17:52 New York for the 23 Dec cut-off) is dated for when it is
//   written, and its payouts are not reported disbursed at once; the same for SEPA's execution date.
// Every NACHA file written here is read back by the independent reader, which checks every NACHA rule it knows.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankInboundFiles } from "../../src/modules/bank-rails/bank-rails.schema.js";
import { BANK_CUTOFF_JOB } from "../../src/modules/bank-rails/index.js";
import { createLogger } from "../../src/platform/logger.js";
import { type NachaFile, readNachaFile } from "../../src/rails/bank-files/nacha-reader.js";
import { createRuntime } from "../../src/runtime.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { removeSshdDir, sshdAvailable, startTestSshd, type TestSshd } from "../helpers/sshd.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { type BankAchReturn, bankAchReturnFile, bankCamt054, checkBankAnswersOfThisFile } from "../helpers/test-bank.js";
import { createPayout, decide, getPayout, payoutEvents } from "../payouts/payout-fixtures.js";
import { epcSchemaAvailable, epcSchemaErrors } from "../unit/bank-files/xsd.js";
import { achConfig, localFolder, sepaConfig, US_ACCOUNT } from "./bank-rail-fixtures.js";

// Every pain.002 and camt.054 this file sends is checked against its ISO 20022 schema after its tests.
checkBankAnswersOfThisFile();

const SECOND_ACCOUNT = {
  account_holder_name: "John Roe",
  country: "US",
  currency: "USD",
  routing_code: "011000015",
  account_number: "5556667777",
};

interface Harness {
  t: TestApp;
  key: string;
  business: RegisteredBusiness;
}

async function usPayee(h: Harness, account: Record<string, unknown>, firstName: string): Promise<string> {
  const beneficiary = await createBeneficiary(h.t.app, h.key, {
    first_name: firstName,
    last_name: "Doe",
    country_of_residence: "US",
    postal_address: null,
  });
  await registerBankAccount(h.t.app, h.key, beneficiary.id, account);
  const ack = await h.t.app.inject({
    method: "POST",
    url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`,
    headers: bearer(h.key),
  });
  expect(ack.statusCode, ack.body).toBe(200);
  return beneficiary.id;
}

async function approved(h: Harness, beneficiaryId: string, amount: number, currency = "USD"): Promise<string> {
  const payout = await createPayout(h.t.app, h.key, { beneficiary_id: beneficiaryId, amount_minor: amount, currency });
  expect((await decide(h.t.app, h.key, payout.payout_id, "approve")).statusCode).toBe(201);
  return payout.payout_id;
}

async function listFiles(h: Harness): Promise<Array<Record<string, unknown>>> {
  const response = await h.t.app.inject({ method: "GET", url: "/v1/bank-files?limit=200", headers: bearer(h.key) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().bank_files;
}

async function fileDetail(
  h: Harness,
  id: unknown,
): Promise<{ bank_file: Record<string, unknown>; payouts: Array<Record<string, unknown>> }> {
  return (await h.t.app.inject({ method: "GET", url: `/v1/bank-files/${id}`, headers: bearer(h.key) })).json();
}

/** The file's bytes through the API, read back and checked by the independent NACHA reader. */
async function sentNacha(h: Harness, id: unknown): Promise<NachaFile> {
  const content = await h.t.app.inject({ method: "GET", url: `/v1/bank-files/${id}/content`, headers: bearer(h.key) });
  expect(content.statusCode).toBe(200);
  return readNachaFile(content.body);
}

/** The return (or notification of change) the RDFI would send for an entry we sent, with overrides. */
function answerFor(file: NachaFile, trace: string, code: string, overrides: Partial<BankAchReturn> = {}): BankAchReturn {
  const entry = file.batches.flatMap((b) => b.entries).find((e) => e.traceNumber === trace);
  if (entry === undefined) throw new Error(`no entry with trace ${trace}`);
  return {
    originalTrace: trace,
    receivingRouting: entry.receivingRouting,
    accountNumber: entry.accountNumber,
    amountMinor: entry.amountMinor,
    name: entry.name,
    accountType: entry.transactionCode === "32" ? "savings" : "checking",
    code,
    ...overrides,
  };
}

const events = async (h: Harness, payoutId: string) =>
  (await payoutEvents(h.t.runtime.deps.database.db, payoutId)).map((e) => e.type);

describe.runIf(sshdAvailable())("ACH files over SFTP: distinct identities, returns matched on every fact", () => {
  const h = {} as Harness;
  let sshd: TestSshd;
  const drain = () => h.t.runtime.createWorker(`w-${Math.random()}`).drain();
  const poll = async () => {
    h.t.clock.advance(61_000);
    await drain();
    await drain();
  };
  let jane: string;
  let john: string;
  const payouts: Record<string, string> = {};
  const parsed: NachaFile[] = [];
  let fileRows: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    sshd = await startTestSshd();
    h.t = await buildTestApp({ env: { BANK_RAIL_POLL_INTERVAL_SECONDS: "60", BANK_RAIL_ALLOW_PRIVATE_HOSTS: "true" } });
    h.business = await registerBusiness(h.t.app);
    h.key = h.business.keys.production;
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
    const put = await h.t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/ach",
      headers: bearer(h.key),
      payload: achConfig({ delivery, cutoff_times: ["10:00", "16:00"] }),
    });
    expect(put.statusCode, put.body).toBe(201);
    jane = await usPayee(h, US_ACCOUNT, "Jane");
    john = await usPayee(h, SECOND_ACCOUNT, "John");
  });
  afterAll(async () => {
    await h.t?.close();
    await sshd?.stop();
    if (sshd) removeSshdDir(sshd);
  });

  it("gives two files of one day and a file of the next day distinct trace numbers and File ID Modifiers", async () => {
    // Monday 2026-06-01, New York (UTC-4): cut-offs at 14:00Z and 20:00Z.
    h.t.clock.set(new Date("2026-06-01T12:00:00.000Z"));
    payouts.big = await approved(h, jane, 1_000_000); // $10,000.00
    payouts.small1 = await approved(h, john, 3_333);
    await drain();
    h.t.clock.set(new Date("2026-06-01T14:00:00.000Z"));
    await drain();
    payouts.second = await approved(h, jane, 2_500);
    await drain();
    h.t.clock.set(new Date("2026-06-01T20:00:00.000Z"));
    await drain();
    payouts.small2 = await approved(h, john, 3_333);
    payouts.other = await approved(h, jane, 7_700);
    await drain();
    h.t.clock.set(new Date("2026-06-02T14:00:00.000Z"));
    await drain();

    fileRows = (await listFiles(h)).filter((f) => f.rail === "ach").reverse();
    expect(fileRows.map((f) => f.status)).toEqual(["uploaded", "uploaded", "uploaded"]);
    const onServer = readdirSync(path.join(sshd.root, "out")).filter((n) => !n.startsWith("."));
    expect(onServer.sort()).toEqual(fileRows.map((f) => String(f.file_name)).sort());
    for (const row of fileRows) {
      // The bytes on the server are the file; the independent reader accepts each.
      const bytes = readFileSync(path.join(sshd.root, "out", String(row.file_name)), "utf8");
      parsed.push(readNachaFile(bytes));
      expect((await sentNacha(h, row.id)).control).toEqual(parsed.at(-1)?.control);
    }
    expect(parsed.map((f) => `${f.creationDate}-${f.fileIdModifier}`)).toEqual(["2026-06-01-A", "2026-06-01-B", "2026-06-02-A"]);
    expect(fileRows.map((f) => f.message_id)).toEqual(["2026-06-01-A", "2026-06-01-B", "2026-06-02-A"]);
    const traces = parsed.flatMap((f) => f.batches.flatMap((b) => b.entries.map((e) => e.traceNumber)));
    expect(traces).toHaveLength(5);
    expect(new Set(traces).size).toBe(5);
    expect(traces.every((trace) => trace.startsWith("09100001"))).toBe(true);
  });

  it("a return naming the first file's $10,000.00 entry moves exactly that payout", async () => {
    const first = await fileDetail(h, fileRows[0]?.id);
    const traceOf = (id: string | undefined) => String(first.payouts.find((p) => p.payout_id === id)?.reference);
    mkdirSync(path.join(sshd.root, "in"), { recursive: true });
    writeFileSync(
      path.join(sshd.root, "in", "returns-1.ach"),
      bankAchReturnFile({
        companyIdentification: "1234567890",
        odfiIdentification: "09100001",
        returns: [answerFor(parsed[0] as NachaFile, traceOf(payouts.big), "R03")],
        changes: [],
      }),
    );
    await poll();
    expect(await getPayout(h.t.app, h.key, String(payouts.big))).toMatchObject({
      status: "failed",
      failure_reason: "R03: No account, or the account could not be located.",
    });
    for (const id of [payouts.small1, payouts.second, payouts.small2, payouts.other]) {
      expect(await getPayout(h.t.app, h.key, String(id))).toMatchObject({ status: "approved", failure_reason: null });
      expect(await events(h, String(id))).toEqual(["payout.disbursement_submitted"]);
    }
    const inbound = await h.t.runtime.deps.database.db.select().from(bankInboundFiles);
    expect(inbound.find((f) => f.fileName === "returns-1.ach")).toMatchObject({ status: "applied", unmatched: [] });
  });

  it("a return whose amount or account differs from the entry it names moves nothing and says what differs", async () => {
    const third = await fileDetail(h, fileRows[2]?.id);
    const traceOf = (id: string | undefined) => String(third.payouts.find((p) => p.payout_id === id)?.reference);
    const file = parsed[2] as NachaFile;
    writeFileSync(
      path.join(sshd.root, "in", "returns-2.ach"),
      bankAchReturnFile({
        companyIdentification: "1234567890",
        odfiIdentification: "09100001",
        returns: [
          answerFor(file, traceOf(payouts.small2), "R02", { amountMinor: 1_000_000 }),
          answerFor(file, traceOf(payouts.other), "R02", { accountNumber: "999888777" }),
        ],
        changes: [],
      }),
    );
    await poll();
    for (const id of [payouts.small2, payouts.other]) {
      expect(await getPayout(h.t.app, h.key, String(id))).toMatchObject({ status: "approved", failure_reason: null });
      expect(await events(h, String(id))).toEqual(["payout.disbursement_submitted"]);
    }
    const [inbound] = await h.t.runtime.deps.database.db
      .select()
      .from(bankInboundFiles)
      .where(eq(bankInboundFiles.fileName, "returns-2.ach"));
    const problems = inbound?.unmatched as string[];
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain(`ACH return R02 for trace ${traceOf(payouts.small2)} does not agree`);
    expect(problems[0]).toContain("amount: we sent $33.33, the return says $10,000.00");
    expect(problems[0]).toContain("Nothing was moved.");
    expect(problems[1]).toContain("account: we sent account ending 6789, the return says account ending 8777");
    expect(problems.join(" ")).not.toContain("999888777"); // never the whole account number
    expect((await fileDetail(h, fileRows[2]?.id)).bank_file.alerts).toEqual(["unmatched_entries"]);
    // The entries keep no bank status: nothing the bank said was taken as theirs.
    expect((await fileDetail(h, fileRows[2]?.id)).payouts.map((p) => p.bank_status)).toEqual([null, null]);
  });

  it("applies a debit-only return code on a credit whose facts agree, and flags it", async () => {
    const second = await fileDetail(h, fileRows[1]?.id);
    const trace = String(second.payouts[0]?.reference);
    writeFileSync(
      path.join(sshd.root, "in", "returns-3.ach"),
      bankAchReturnFile({
        companyIdentification: "1234567890",
        odfiIdentification: "09100001",
        returns: [answerFor(parsed[1] as NachaFile, trace, "R01")],
        changes: [],
      }),
    );
    await poll();
    expect(await getPayout(h.t.app, h.key, String(payouts.second))).toMatchObject({
      status: "failed",
      failure_reason: "R01: Insufficient funds.",
    });
    const [inbound] = await h.t.runtime.deps.database.db
      .select()
      .from(bankInboundFiles)
      .where(eq(bankInboundFiles.fileName, "returns-3.ach"));
    expect(JSON.stringify(inbound?.unmatched)).toContain("is a reason for returning a debit");
    expect((await fileDetail(h, fileRows[1]?.id)).bank_file.alerts).toEqual(["return_code_not_for_credit"]);
  });
});

describe("ACH file identity over many files, a restart, and the 37th file of a day", () => {
  const h = {} as Harness;
  let root: string;
  let jane: string;
  const drainWith = (runtime: TestApp["runtime"]) => runtime.createWorker(`w-${Math.random()}`).drain();

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "ach-identity-"));
    h.t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root } });
    h.business = await registerBusiness(h.t.app);
    h.key = h.business.keys.production;
    const put = await h.t.app.inject({ method: "PUT", url: "/v1/bank-rails/ach", headers: bearer(h.key), payload: achConfig() });
    expect(put.statusCode, put.body).toBe(201);
    jane = await usPayee(h, US_ACCOUNT, "Jane");
  });
  afterAll(async () => {
    await h.t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** One payout, then a cut-off job at the clock's instant (as after a cut-off change or a restart past one). */
  async function fileNow(runtime: TestApp["runtime"], amount: number): Promise<string> {
    const payoutId = await approved(h, jane, amount);
    await drainWith(runtime);
    h.t.clock.advance(60_000);
    const cutoffAt = h.t.clock.now();
    await runtime.deps.jobStore.enqueue(
      runtime.deps.database.db,
      BANK_CUTOFF_JOB,
      { businessId: h.business.businessId, rail: "ach" as const, cutoffAt: cutoffAt.toISOString() },
      { runAt: cutoffAt },
    );
    await drainWith(runtime);
    return payoutId;
  }

  it("never repeats a trace or a File ID Modifier, across a restart, and refuses the 37th file of a day", async () => {
    // Wednesday 2026-06-03 from 08:00 New York: 20 files, then a new runtime on the same database (a
    // restart: nothing of the numbering lives in memory), 16 more, then the 37th of the day.
    h.t.clock.set(new Date("2026-06-03T12:00:00.000Z"));
    for (let i = 0; i < 20; i++) await fileNow(h.t.runtime, 100 + i);
    const logLines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        logLines.push(String(chunk));
        callback();
      },
    });
    const restarted = await createRuntime(h.t.config, {
      clock: h.t.clock,
      logger: createLogger(h.t.config.logLevel, sink),
      database: h.t.testDatabase.database,
    });
    try {
      for (let i = 20; i < 36; i++) await fileNow(restarted, 100 + i);
      const waiting = await fileNow(restarted, 999);
      const files = (await listFiles(h)).filter((f) => f.rail === "ach").reverse();
      expect(files).toHaveLength(37);
      const written = files.slice(0, 36);
      const parsed: NachaFile[] = [];
      for (const row of written) {
        expect(row).toMatchObject({ status: "uploaded", entry_count: 1 });
        const bytes = readFileSync(path.join(localFolder(root, h.business.businessId, "ach/out"), String(row.file_name)), "utf8");
        parsed.push(readNachaFile(bytes));
      }
      expect(parsed.map((f) => f.fileIdModifier).join("")).toBe("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
      expect(new Set(parsed.map((f) => f.creationDate))).toEqual(new Set(["2026-06-03"]));
      const traces = parsed.flatMap((f) => f.batches.flatMap((b) => b.entries.map((e) => e.traceNumber)));
      expect(new Set(traces).size).toBe(36);
      // One sequence: the restart continued it.
      expect(traces).toEqual(Array.from({ length: 36 }, (_, i) => `09100001${String(i + 1).padStart(7, "0")}`));

      // The 37th: refused, visible, nothing written; its payout waits, still queued.
      const refused = files[36];
      expect(refused).toMatchObject({ status: "refused", entry_count: 0, alerts: ["file_id_modifiers_exhausted"] });
      expect(String(refused?.last_upload_error)).toContain("36 ACH files already carry the creation date 2026-06-03");
      expect(readdirSync(localFolder(root, h.business.businessId, "ach/out")).filter((n) => !n.startsWith("."))).toHaveLength(36);
      expect(await getPayout(h.t.app, h.key, waiting)).toMatchObject({ status: "approved", disbursement_status: "queued" });
      expect(logLines.join("\n")).toContain("bank file refused");

      // The day's 16:00 cut-off (scheduled by the refusal) is still 2026-06-03: refused too, the payout waits.
      h.t.clock.set(new Date("2026-06-03T20:00:00.000Z"));
      await drainWith(restarted);
      expect((await listFiles(h)).find((f) => f.cutoff_at === "2026-06-03T20:00:00.000Z")).toMatchObject({
        status: "refused",
      });
      expect(await getPayout(h.t.app, h.key, waiting)).toMatchObject({ disbursement_status: "queued" });
      // The next day's cut-off takes it, with modifier A of the new date and the next trace of the sequence.
      h.t.clock.set(new Date("2026-06-04T20:00:00.000Z"));
      await drainWith(restarted);
      const next = (await listFiles(h)).find((f) => f.cutoff_at === "2026-06-04T20:00:00.000Z");
      expect(next).toMatchObject({ status: "uploaded", entry_count: 1 });
      expect((await fileDetail(h, next?.id)).payouts.map((p) => p.payout_id)).toEqual([waiting]);
      const nextFile = readNachaFile(
        readFileSync(path.join(localFolder(root, h.business.businessId, "ach/out"), String(next?.file_name)), "utf8"),
      );
      expect(`${nextFile.creationDate}-${nextFile.fileIdModifier}`).toBe("2026-06-04-A");
      expect(nextFile.batches[0]?.entries[0]?.traceNumber).toBe("091000010000037");
      expect(await getPayout(h.t.app, h.key, waiting)).toMatchObject({ disbursement_status: "submitted" });
    } finally {
      await restarted.close();
    }
  });
});

describe("a late cut-off is dated for when its file is written", () => {
  const h = {} as Harness;
  let root: string;
  let sepaPayoutId: string;
  const drain = () => h.t.runtime.createWorker(`w-${Math.random()}`).drain();

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "ach-late-"));
    h.t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root, BANK_RAIL_POLL_INTERVAL_SECONDS: "60" } });
    h.business = await registerBusiness(h.t.app);
    h.key = h.business.keys.production;
    const ach = await h.t.app.inject({ method: "PUT", url: "/v1/bank-rails/ach", headers: bearer(h.key), payload: achConfig() });
    expect(ach.statusCode, ach.body).toBe(201);
    const delivery = { kind: "local_directory", outbound_directory: "sepa/out", inbound_directory: "sepa/in" };
    const sepa = await h.t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(h.key),
      payload: sepaConfig({ delivery, cutoff_times: ["15:00"] }),
    });
    expect(sepa.statusCode, sepa.body).toBe(201);
  });
  afterAll(async () => {
    await h.t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("ACH: down over the 23 Dec cut-off, written 24 Dec 17:52 New York -> effective Monday 28 Dec, disbursed only then", async () => {
    const jane = await usPayee(h, US_ACCOUNT, "Jane");
    h.t.clock.set(new Date("2026-12-23T15:00:00.000Z")); // 10:00 New York
    const payoutId = await approved(h, jane, 4_200);
    await drain(); // queued for the 16:00 cut-off (21:00Z)
    h.t.clock.set(new Date("2026-12-24T22:52:00.000Z")); // 17:52 New York, a day late
    await drain();
    const file = (await listFiles(h)).find((f) => f.rail === "ach");
    expect(file).toMatchObject({ cutoff_at: "2026-12-23T21:00:00.000Z", status: "uploaded" });
    const sent = readNachaFile(
      readFileSync(path.join(localFolder(root, h.business.businessId, "ach/out"), String(file?.file_name)), "utf8"),
    );
    expect(sent.creationDate).toBe("2026-12-24");
    expect(sent.creationTime).toBe("17:52");
    expect(sent.batches[0]?.effectiveDate).toBe("2026-12-28");
    expect(await getPayout(h.t.app, h.key, payoutId)).toMatchObject({ status: "approved", disbursement_status: "submitted" });
    // Not before the effective date's 17:00 New York.
    h.t.clock.set(new Date("2026-12-28T21:59:00.000Z"));
    await drain();
    expect(await getPayout(h.t.app, h.key, payoutId)).toMatchObject({ status: "approved" });
    h.t.clock.set(new Date("2026-12-28T22:01:00.000Z"));
    await drain();
    expect(await getPayout(h.t.app, h.key, payoutId)).toMatchObject({ status: "disbursed" });
  });

  it("SEPA: the 30 Dec 15:00 Berlin cut-off written 31 Dec 18:00 asks for execution on 4 Jan, not 30 Dec", async () => {
    const beneficiary = await createBeneficiary(h.t.app, h.key, {
      first_name: "Ana",
      last_name: "Perez",
      country_of_residence: "ES",
      postal_address: { line1: "Calle Mayor 5", city: "Madrid", postal_code: "28013", country: "ES" },
    });
    await registerBankAccount(h.t.app, h.key, beneficiary.id, {
      account_holder_name: "Ana Perez",
      country: "ES",
      currency: "EUR",
      iban: "ES9121000418450200051332",
    });
    await h.t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(h.key) });
    h.t.clock.set(new Date("2026-12-30T09:00:00.000Z")); // after the ACH test's instants (the clock goes forward)
    const payoutId = await approved(h, beneficiary.id, 1_000, "EUR");
    sepaPayoutId = payoutId;
    await drain(); // queued for the 15:00 Berlin cut-off of 30 Dec (14:00Z)
    h.t.clock.set(new Date("2026-12-31T17:00:00.000Z")); // 18:00 Berlin on 31 Dec: a day late
    await drain();
    const file = (await listFiles(h)).find((f) => f.rail === "sepa");
    expect(file).toMatchObject({ cutoff_at: "2026-12-30T14:00:00.000Z", status: "uploaded" });
    const xml = readFileSync(path.join(localFolder(root, h.business.businessId, "sepa/out"), String(file?.file_name)), "utf8");
    // The next cut-off after the write is 1 Jan 15:00 (TARGET2 closed): the first TARGET2 day is Monday 4 Jan 2027.
    expect(xml).toContain("<Dt>2027-01-04</Dt>");
    if (epcSchemaAvailable()) expect(await epcSchemaErrors(xml)).toEqual([]);
    expect(await getPayout(h.t.app, h.key, payoutId)).toMatchObject({ disbursement_status: "submitted" });
  });

  it("SEPA: a camt.054 booking of our EndToEndId for another amount moves nothing and says so; the right one books", async () => {
    const e2e = sepaPayoutId.replaceAll("-", "");
    const booking = (amount: string) => ({ endToEndId: e2e, amount, creditDebit: "DBIT" as const, bookingDate: "2027-01-04" });
    mkdirSync(localFolder(root, h.business.businessId, "sepa/in"), { recursive: true });
    writeFileSync(
      path.join(localFolder(root, h.business.businessId, "sepa/in"), "camt054-wrong.xml"),
      bankCamt054({ messageId: "NTF-W", bookings: [booking("100.00")] }),
    );
    const poll = async () => {
      h.t.clock.advance(61_000);
      await drain();
      await drain();
    };
    await poll();
    expect(await getPayout(h.t.app, h.key, sepaPayoutId)).toMatchObject({ status: "approved" });
    const [wrong] = await h.t.runtime.deps.database.db
      .select()
      .from(bankInboundFiles)
      .where(eq(bankInboundFiles.fileName, "camt054-wrong.xml"));
    expect(wrong?.unmatched).toEqual([
      `camt.054 booking of EndToEndId ${e2e}: we sent EUR 10.00, the bank booked EUR 100.00; nothing was moved.`,
    ]);
    const file = (await listFiles(h)).find((f) => f.rail === "sepa");
    expect(file?.alerts).toEqual(["unmatched_entries"]);
    writeFileSync(
      path.join(localFolder(root, h.business.businessId, "sepa/in"), "camt054-right.xml"),
      bankCamt054({ messageId: "NTF-R", bookings: [booking("10.00")] }),
    );
    await poll();
    expect(await getPayout(h.t.app, h.key, sepaPayoutId)).toMatchObject({ status: "disbursed" });
  });
});
