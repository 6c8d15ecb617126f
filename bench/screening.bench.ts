// Sanctions screening of every Beneficiary after a list reload: 100,000 Beneficiaries (inserted directly) against a
// 10,000-entry OFAC list (sdn.csv and alt.csv written here, loaded by the module's own loadList), screened by the
// module's own rescreen job handler, batch after batch, in the bench process, on a scratch PostgreSQL database
// (and PGlite). Seeded hits (listed names reordered, with a typo, accents or in Cyrillic) must all be found.
// The ceiling, same database, same run: the irreducible database work of any rescreen: every Beneficiary read
// in the same batches, locked, and its status written (one UPDATE per batch), without any matching.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createScreeningService, RESCREEN_BATCH } from "../src/modules/screening/screening.service.js";
import { noAudit } from "../src/platform/auth/audit.js";
import { systemClock } from "../src/platform/clock.js";
import { type Database, openDatabase, queryRows, transaction } from "../src/platform/db/client.js";
import { runMigrations } from "../src/platform/db/migrate.js";
import { businesses } from "../src/platform/db/shared.schema.js";
import { createEventRecorder } from "../src/platform/events/outbox.js";
import { uuidV7Generator } from "../src/platform/ids.js";
import { createJobStore } from "../src/platform/jobs/job-store.js";
import type { JobContext } from "../src/platform/jobs/job-types.js";
import { type ListedParty, ofacAltCsv, ofacSdnCsv } from "../test/screening/list-writers.js";
import { registerCleanup } from "./lib/cleanup.js";
import { createScratchDatabase } from "./lib/scratch-postgres.js";
import { round } from "./lib/stats.js";
import type { BenchContext, Benchmark, Json } from "./lib/types.js";
import { type Population, population, prng } from "./screening.population.js";

const BENEFICIARIES = Number(process.env.BENCH_SCREENING_BENEFICIARIES ?? 100_000);
const ENTRIES = Number(process.env.BENCH_SCREENING_ENTRIES ?? 10_000);
const SEEDED = 200;
/** Beneficiaries per rescreen transaction (the service's RESCREEN_BATCH unless compared). */
const BATCH = Number(process.env.BENCH_SCREENING_BATCH ?? RESCREEN_BATCH);
const TARGET_MS = 60_000;

/** A listed individual's name as a payee would write it: reordered, one letter changed, an accent added. */
function seededVariant(party: ListedParty, i: number): string {
  const [last = "", first = ""] = party.name.split(", ");
  const proper = last.replace(/[A-Z]+/g, (part) => part.charAt(0) + part.slice(1).toLowerCase());
  switch (i % 3) {
    case 0:
      return `${first} ${proper}`;
    case 1: {
      const at = Math.max(2, proper.length - 2);
      return `${first} ${proper.slice(0, at)}${proper.charAt(at) === "a" ? "e" : "a"}${proper.slice(at + 1)}`;
    }
    default:
      return `${first.replace("a", "á").replace("e", "é")} ${proper}`;
  }
}

async function insertBeneficiaries(database: Database, businessId: string, people: Population, parties: ListedParty[]) {
  const random = prng(99);
  // Seeded from individuals with a family name long enough for a typo to be a typo (not "Li" becoming "Lia").
  const individuals = parties.filter((p) => p.kind === "individual" && (p.name.split(", ")[0] ?? "").length >= 5);
  const seeded = new Map<string, string>();
  const now = new Date().toISOString();
  const chunk = 5000;
  for (let start = 0; start < BENEFICIARIES; start += chunk) {
    const rows = [];
    for (let i = start; i < Math.min(BENEFICIARIES, start + chunk); i++) {
      const id = uuidV7Generator.newId();
      let name = people.payeeName(random);
      if (i % Math.floor(BENEFICIARIES / SEEDED) === 0 && seeded.size < SEEDED) {
        const party = individuals[seeded.size % individuals.length] as ListedParty;
        name = seededVariant(party, seeded.size);
        seeded.set(id, party.ref);
      }
      rows.push({ id, name, email: `p${i}@bench.example` });
    }
    await database.db.execute(sql`insert into beneficiaries (id, business_id, environment, beneficiary_type, name, email, email_normalized, created_at, updated_at)
      select v.id, ${businessId}::uuid, 'sandbox', 'person', v.name, v.email, v.email, ${now}::timestamptz, ${now}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, name text, email text)`);
  }
  return seeded;
}

async function runOn(database: Database, log: (message: string) => void): Promise<{ [key: string]: Json }> {
  const { db } = database;
  await runMigrations(db);
  const businessId = randomUUID();
  await db.insert(businesses).values({ id: businessId, name: "Bench screening", createdAt: new Date() });
  const people = population();
  const parties = people.listParties(ENTRIES, prng(7));
  log(`screening: inserting ${BENEFICIARIES} Beneficiaries`);
  const seeded = await insertBeneficiaries(database, businessId, people, parties);

  // The ceiling first. It leaves every status `clear`, so the service's run then writes only the Beneficiaries
  // whose outcome differs (those with hits): the run writes less than its ceiling does.
  log("screening: ceiling (read, lock and write every Beneficiary in batches, no matching)");
  const ceilingStarted = performance.now();
  let cursor = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const batch = await transaction(db, async (tx) => {
      const rows = await queryRows<{ id: string; name: string }>(
        tx,
        sql`select id, name, first_name, last_name, business_name, country_of_residence, screening_status from beneficiaries
            where archived_at is null and id > ${cursor}::uuid order by id limit ${BATCH} for update`,
      );
      if (rows.length > 0) {
        await tx.execute(sql`update beneficiaries b set screening_status = 'clear', screened_at = now()
          from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id })))}::jsonb) as v(id uuid) where b.id = v.id`);
      }
      return rows;
    });
    if (batch.length === 0) break;
    cursor = (batch.at(-1) as { id: string }).id;
  }
  const ceilingMs = performance.now() - ceilingStarted;

  const jobStore = createJobStore({ db, clock: systemClock, ids: uuidV7Generator });
  const service = createScreeningService({
    db,
    clock: systemClock,
    ids: uuidV7Generator,
    events: createEventRecorder({ clock: systemClock, ids: uuidV7Generator }),
    jobStore,
    threshold: 0.9,
    screeningEnabled: async () => true,
    releaseScreeningHold: async () => 0,
    recordAudit: noAudit,
    rescreenBatch: BATCH,
  });
  log(`screening: loading a ${ENTRIES}-entry OFAC list`);
  const loadStarted = performance.now();
  const loaded = await service.loadList(
    "ofac_sdn",
    [
      { format: "ofac_sdn", content: ofacSdnCsv(parties) },
      { format: "ofac_alt", content: ofacAltCsv(parties) },
    ],
    "operator",
  );
  const loadMs = performance.now() - loadStarted;
  const runId = loaded.rescreen_run_id as string;

  log("screening: the rescreen run, batch by batch");
  const context = { completeWithin: async () => true } as unknown as JobContext;
  const handler = service.jobs["screening.rescreen"] as (payload: unknown, context: JobContext) => Promise<void>;
  const started = performance.now();
  for (let batch = 0; ; batch++) {
    await handler({ v: 1, runId }, context);
    const [run] = await queryRows<{ status: string; screened: number }>(
      db,
      sql`select status, screened from screening_runs where id = ${runId}::uuid`,
    );
    if (run?.status !== "running") break;
    if (batch % 20 === 0) log(`screening: ${run.screened} screened`);
  }
  const runMs = performance.now() - started;

  const hits = await queryRows<{ beneficiary_id: string; entry_ref: string; score: number }>(
    db,
    sql`select beneficiary_id, entry_ref, score from screening_hits where status = 'open'`,
  );
  const foundPairs = new Set(hits.map((h) => `${h.beneficiary_id}:${h.entry_ref}`));
  const missed = [...seeded].filter(([id, ref]) => !foundPairs.has(`${id}:${ref}`));
  return {
    beneficiaries: BENEFICIARIES,
    batch: BATCH,
    entries: loaded.entry_count,
    load_ms: round(loadMs, 0),
    rescreen_ms: round(runMs, 0),
    beneficiaries_per_second: round(BENEFICIARIES / (runMs / 1000), 0),
    hits: hits.length,
    seeded_hits: seeded.size,
    seeded_missed: missed.length,
    ceiling: {
      ms: round(ceilingMs, 0),
      what: `every Beneficiary read, locked and its status written, ${BATCH} per transaction, no matching`,
    },
    ms_over_ceiling: round(runMs / ceilingMs, 2),
    target_ms: TARGET_MS,
    met: runMs < TARGET_MS && missed.length === 0,
  };
}

export const screeningBenchmark: Benchmark = {
  name: "screening",
  description: `every Beneficiary screened again after a list reload: ${BENEFICIARIES} Beneficiaries against a ${ENTRIES}-entry OFAC list, with ${SEEDED} seeded hits`,
  async run(context: BenchContext) {
    const out: { [key: string]: Json } = {};
    for (const engine of context.settings.engines) {
      if (engine === "postgres") {
        if (context.postgresServerUrl === null) {
          out.postgres = { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
          continue;
        }
        const scratch = await createScratchDatabase(context.postgresServerUrl, "bench_screening");
        const database = await openDatabase({ databaseUrl: scratch.url, dataDir: "", poolSize: 4 });
        try {
          out.postgres = await runOn(database, context.log);
        } finally {
          await database.close();
          await scratch.drop();
        }
      } else {
        const dataDir = await mkdtemp(path.join(tmpdir(), "bench-screening-"));
        registerCleanup(() => rm(dataDir, { recursive: true, force: true }));
        const database = await openDatabase({ databaseUrl: null, dataDir, poolSize: 1 });
        try {
          out.pglite = await runOn(database, context.log);
        } finally {
          await database.close();
        }
      }
    }
    return out;
  },
};
