// Bank files, 10,000 entries each, targets under 2 s with memory that does not grow with the file:
//   - building a pain.001.001.09 and a NACHA file, and reading a pain.002, in this process (pure code). Time
//     is the wall time of one build after a warm-up; `heap_growth_mb` is V8's heap in use right after it
//     (no collection in between: everything it allocated that was not yet collected) minus before, after a
//     forced collection; `retained_mb` what is still held after a collection (the output itself). Built at
//     1,000 and 10,000 entries, so growth with the file shows as a ratio. The ceiling of each build is the
//     cheapest way to produce the same number of bytes: one fixed entry's text repeated, no field work.
//   - ingesting a 10,000-transaction pain.002 on PostgreSQL (a scratch database): the bank-rails module's
//     own processInbound, as the poll job calls it, one transaction (claim the file, match every entry to
//     its item, set the items' bank status, enqueue one payout outcome job each). The ceiling is the same
//     database doing the irreducible part in one transaction: one update of the 10,000 items and one insert
//     of 10,000 jobs, as single statements from generated rows. The outcome jobs then move each payout with
//     its event (one job per payout, like every rail's outcome); that part is not in this figure.
import { randomUUID } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sql } from "drizzle-orm";
import { createBankInbound } from "../src/modules/bank-rails/bank-rails.inbound.js";
import type { BankRailConfigRow } from "../src/modules/bank-rails/bank-rails.repo.js";
import { bankFileItems, bankFiles, bankRailConfigs } from "../src/modules/bank-rails/bank-rails.schema.js";
import { systemClock } from "../src/platform/clock.js";
import { createFieldCipher } from "../src/platform/crypto.js";
import { openDatabase, queryRows, transaction } from "../src/platform/db/client.js";
import { runMigrations } from "../src/platform/db/migrate.js";
import { businesses } from "../src/platform/db/shared.schema.js";
import { createEventRecorder } from "../src/platform/events/outbox.js";
import { uuidV7Generator } from "../src/platform/ids.js";
import { createJobStore } from "../src/platform/jobs/job-store.js";
import { readPain002 } from "../src/rails/bank-files/iso-readers.js";
import { buildNachaFile } from "../src/rails/bank-files/nacha-writer.js";
import { buildPain001, endToEndIdOf } from "../src/rails/bank-files/sepa-pain001.js";
import { createScratchDatabase } from "./lib/scratch-postgres.js";
import { round } from "./lib/stats.js";
import type { BenchContext, Benchmark, Json } from "./lib/types.js";

/** No bank statements read here (issue 28's reconciliation is not part of this). */
const NO_STATEMENTS = { isStatement: () => false, receive: async () => ({ kind: "statement", unmatched: [] }) };

const COUNT = 10_000;
const SMALL = 1_000;
const TARGET_MS = 2_000;
const MB = 1024 * 1024;

// A forced collection between measurements, without asking for node --expose-gc.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

function payoutId(i: number): string {
  return `0190f0a0-0000-7000-8000-${String(i).padStart(12, "0")}`;
}

type Measured = {
  readonly ms: number | null;
  readonly heap_growth_mb: number | null;
  readonly retained_mb: number | null;
  readonly bytes: number;
};

function measure(build: () => string): Measured {
  build(); // warm-up
  collect();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const output = build();
  const ms = performance.now() - started;
  const after = process.memoryUsage().heapUsed;
  collect();
  const retained = process.memoryUsage().heapUsed;
  const bytes = Buffer.byteLength(output);
  return {
    ms: round(ms, 1),
    heap_growth_mb: round((after - before) / MB, 1),
    retained_mb: round((retained - before) / MB, 1),
    bytes,
  };
}

/** `entries` copies of one entry's text: the output's size with no field work at all. */
function ceilingOf(entryText: string, entries: number): () => string {
  return () => {
    let out = "";
    for (let i = 0; i < entries; i++) out += entryText;
    return out;
  };
}

function sepaTransfers(count: number) {
  const debtor = {
    name: "Acme Payouts GmbH",
    iban: "DE89370400440532013000",
    bic: "COBADEFFXXX",
    address: { townName: "Berlin", country: "DE" },
  };
  return Array.from({ length: count }, (_, i) => ({
    payoutId: payoutId(i),
    amountMinor: 1_000 + i,
    creditorName: `Zoë Ångström ${i}`,
    creditorIban: "FR1420041010050500013M02606",
    creditorBic: null,
    creditorAddress: {
      streetName: "Rue de l'Église",
      buildingNumber: "12",
      postalCode: "75001",
      townName: "Paris",
      country: "FR",
    },
    remittance: `Payout ${i}`,
    purposeCode: null,
    executionDate: "2026-11-25",
    debtor,
  }));
}

function pain001Of(count: number): string {
  return buildPain001({
    version: "pain.001.001.09",
    messageId: "BENCH-1",
    createdAt: "2026-11-24T15:00:00",
    initiatingParty: { name: "Acme", id: null },
    transfers: sepaTransfers(count),
  });
}

function nachaOf(count: number): string {
  const credits = Array.from({ length: count }, (_, i) => ({
    payoutId: payoutId(i),
    amountMinor: 1_000 + i,
    secCode: (i % 2 === 0 ? "PPD" : "CCD") as "PPD" | "CCD",
    accountType: "checking" as const,
    routingNumber: "021000021",
    accountNumber: String(100_000_000 + i),
    receiverName: `José Núñez ${i}`,
    receiverId: String(i),
    entryDescription: "PAYOUT",
    effectiveDate: "2026-11-27",
  }));
  return buildNachaFile({
    originator: {
      odfiRoutingNumber: "091000019",
      immediateDestination: "091000019",
      immediateDestinationName: "Bank",
      immediateOrigin: "1234567890",
      immediateOriginName: "Acme",
      companyName: "Acme",
      companyIdentification: "1234567890",
    },
    createdDate: "2026-11-25",
    createdTime: "15:00",
    fileIdModifier: "A",
    credits,
  }).content;
}

function pain002Of(payoutIds: readonly string[], messageId: string): string {
  const txs = payoutIds
    .map(
      (id, i) =>
        `<TxInfAndSts><OrgnlEndToEndId>${endToEndIdOf(id)}</OrgnlEndToEndId><TxSts>${i % 10 === 0 ? "RJCT" : "ACCP"}</TxSts>${i % 10 === 0 ? "<StsRsnInf><Rsn><Cd>AC04</Cd></Rsn></StsRsnInf>" : ""}</TxInfAndSts>`,
    )
    .join("");
  return `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10"><CstmrPmtStsRpt><GrpHdr><MsgId>S</MsgId></GrpHdr><OrgnlGrpInfAndSts><OrgnlMsgId>${messageId}</OrgnlMsgId><GrpSts>PART</GrpSts></OrgnlGrpInfAndSts><OrgnlPmtInfAndSts><OrgnlPmtInfId>P</OrgnlPmtInfId>${txs}</OrgnlPmtInfAndSts></CstmrPmtStsRpt></Document>`;
}

/** A build at 1,000 and 10,000 entries, with its ceiling at 10,000. */
function buildFigures(name: string, build: (count: number) => string) {
  const small = measure(() => build(SMALL));
  const full = measure(() => build(COUNT));
  const sample = build(COUNT);
  // The file's average bytes per entry, repeated: the same output size with none of the work.
  const ceiling = measure(ceilingOf(sample.slice(0, Math.round(sample.length / COUNT)), COUNT));
  const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : round(a / b, 2));
  return {
    [name]: {
      ...full,
      met: full.ms !== null && full.ms < TARGET_MS,
      at_1000: small,
      heap_growth_10k_over_1k: ratio(full.heap_growth_mb, small.heap_growth_mb),
      bytes_10k_over_1k: ratio(full.bytes, small.bytes),
      ceiling: { ...ceiling, what: "the file's average bytes per entry repeated 10,000 times (string concatenation)" },
      ms_over_ceiling: ratio(full.ms, ceiling.ms),
    },
  } as { [key: string]: Json };
}

/** Ingesting a COUNT-transaction pain.002 on a scratch PostgreSQL database, and the ceiling beside it. */
async function ingestOnPostgres(context: BenchContext): Promise<{ [key: string]: Json }> {
  if (context.postgresServerUrl === null) return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  const scratch = await createScratchDatabase(context.postgresServerUrl, "bench_bank");
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: "", poolSize: 4 });
  try {
    const { db } = database;
    await runMigrations(db);
    const cipher = createFieldCipher(Buffer.alloc(32, 5));
    const jobStore = createJobStore({ db, clock: systemClock, ids: uuidV7Generator });
    const quiet = { info() {}, warn() {}, error() {} };
    const businessId = randomUUID();
    const now = new Date();
    await db.insert(businesses).values({ id: businessId, name: "Bench bank", createdAt: now });
    const [config] = await db
      .insert(bankRailConfigs)
      .values({
        id: randomUUID(),
        businessId,
        environment: "production",
        rail: "sepa",
        settings: {
          originator: {},
          fileFormat: "pain.001.001.09",
          cutoffTimes: ["15:00"],
          timeZone: "Europe/Berlin",
          statusReportTimeoutHours: 24,
          delivery: { kind: "local_directory", outboundDirectory: "out", inboundDirectory: "in" },
        },
        secretsEncrypted: null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const inbound = createBankInbound({
      db,
      statements: NO_STATEMENTS,
      clock: systemClock,
      ids: uuidV7Generator,
      cipher,
      events: createEventRecorder({ clock: systemClock, ids: uuidV7Generator }),
      jobStore,
      logger: quiet,
      openTarget: async () => {
        throw new Error("not used");
      },
      // The report is handed over directly: no size limit is in the way of the measurement.
      maxFileBytes: Number.MAX_SAFE_INTEGER,
    });

    /** A file of `count` uploaded items; returns the pain.002 answering it. */
    async function uploadedFile(count: number, cutoffAt: Date): Promise<string> {
      const fileId = randomUUID();
      const messageId = `BENCH-${cutoffAt.getTime()}`;
      await db.insert(bankFiles).values({
        id: fileId,
        businessId,
        environment: "production",
        rail: "sepa",
        cutoffAt,
        fileName: `bench-${cutoffAt.getTime()}.xml`,
        messageId,
        format: "pain.001.001.09",
        contentEncrypted: cipher.encrypt("bench"),
        contentSha256: "0".repeat(64),
        entryCount: count,
        controlSumMinor: count,
        currency: "EUR",
        status: "uploaded",
        createdAt: now,
        updatedAt: now,
      });
      const ids = Array.from({ length: count }, () => uuidV7Generator.newId());
      for (let start = 0; start < ids.length; start += 2_000) {
        await db.insert(bankFileItems).values(
          ids.slice(start, start + 2_000).map((id) => ({
            payoutId: id,
            businessId,
            environment: "production" as const,
            rail: "sepa",
            fileId,
            amountMinor: 1,
            reference: endToEndIdOf(id),
            queuedAt: now,
          })),
        );
      }
      return pain002Of(ids, messageId);
    }

    async function timedIngestion(count: number, cutoffAt: Date) {
      const report = await uploadedFile(count, cutoffAt);
      collect();
      const heapBefore = process.memoryUsage().heapUsed;
      let heapPeak = heapBefore;
      const sampler = setInterval(() => {
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      }, 2);
      const started = performance.now();
      const entry = { name: `report-${cutoffAt.getTime()}.xml`, size: Buffer.byteLength(report), modifiedAt: cutoffAt };
      const result = await inbound.processInbound(config as BankRailConfigRow, entry, report);
      const ms = performance.now() - started;
      clearInterval(sampler);
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      if (result !== "applied") throw new Error(`the status report was ${result}, not applied`);
      return { ms: round(ms, 1), heap_peak_growth_mb: round((heapPeak - heapBefore) / MB, 1), report_bytes: report.length };
    }

    context.log("bank_files: PostgreSQL ingestion, warm-up");
    await timedIngestion(SMALL, new Date("2026-01-01T14:00:00Z"));
    context.log(`bank_files: PostgreSQL ingestion of ${SMALL} and ${COUNT}`);
    const small = await timedIngestion(SMALL, new Date("2026-01-02T14:00:00Z"));
    const full = await timedIngestion(COUNT, new Date("2026-01-03T14:00:00Z"));
    const [outcomeJobs] = await queryRows<{ count: number }>(
      db,
      sql`select count(*)::int as count from jobs where type = 'payout.rail_outcome'`,
    );

    // The ceiling: the irreducible writes of the same ingestion, in one transaction, as two statements.
    await uploadedFile(COUNT, new Date("2026-01-04T14:00:00Z"));
    const [file] = await queryRows<{ id: string }>(
      db,
      sql`select id from bank_files where cutoff_at = '2026-01-04T14:00:00Z'::timestamptz`,
    );
    const ceilingStarted = performance.now();
    await transaction(db, async (tx) => {
      await tx.execute(sql`update bank_file_items set bank_status = 'ACCP' where file_id = ${file?.id}::uuid`);
      await tx.execute(sql`
        insert into jobs (id, type, payload, status, run_at, attempts, max_attempts, dedupe_key, created_at, updated_at)
        select gen_random_uuid(), 'bench.ceiling', jsonb_build_object('payoutId', payout_id, 'outcome', jsonb_build_object('type', 'acknowledged')),
          'pending', now(), 0, 10, 'bench-ceiling:' || payout_id, now(), now()
        from bank_file_items where file_id = ${file?.id}::uuid`);
    });
    const ceilingMs = performance.now() - ceilingStarted;
    return {
      ...full,
      met: full.ms !== null && full.ms < TARGET_MS,
      outcome_jobs_enqueued: outcomeJobs?.count ?? null,
      at_1000: small,
      heap_peak_growth_10k_over_1k:
        full.heap_peak_growth_mb === null || !small.heap_peak_growth_mb
          ? null
          : round(full.heap_peak_growth_mb / small.heap_peak_growth_mb, 2),
      ceiling: {
        ms: round(ceilingMs, 1),
        what: "one transaction: one UPDATE of the 10,000 items and one INSERT … SELECT of 10,000 jobs, same database",
      },
      ms_over_ceiling: full.ms === null ? null : round(full.ms / ceilingMs, 2),
    };
  } finally {
    await database.close();
    await scratch.drop();
  }
}

export const bankFilesBenchmark: Benchmark = {
  name: "bank_files",
  description:
    "Build a 10,000-payout pain.001 and a 10,000-entry NACHA file; read a 10,000-transaction pain.002; ingest one on PostgreSQL.",
  async run(context) {
    context.log("bank_files: pain.001");
    const pain001 = buildFigures("pain001_09", pain001Of);
    context.log("bank_files: NACHA");
    const nacha = buildFigures("nacha", nachaOf);
    context.log("bank_files: pain.002 read");
    const report = pain002Of(
      Array.from({ length: COUNT }, (_, i) => payoutId(i)),
      "BENCH-1",
    );
    const pain002 = measure(() => String(readPain002(report).transactions.length));
    context.log("bank_files: pain.002 ingestion on PostgreSQL");
    const ingestion = await ingestOnPostgres(context);
    return {
      count: COUNT,
      target_ms: TARGET_MS,
      ...pain001,
      ...nacha,
      pain002_read: { ...pain002, met: pain002.ms !== null && pain002.ms < TARGET_MS },
      pain002_ingestion_postgres: ingestion,
    };
  },
};
