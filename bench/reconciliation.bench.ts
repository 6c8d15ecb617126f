// Reconciliation (issue 28): the seeded statement corpus (test/fixtures/statements/corpus.ts, at least 10,000
// distinct lines) fed file after file, in the corpus's delivery order, through the reconciliation module's own
// intake (`receiveInbound`, what the inbound folder calls; the upload route calls the same `receiveIn`), in the
// bench process, on PGlite and on a scratch PostgreSQL database. Before it, the payouts, blocks and top-ups the
// corpus describes are inserted directly with the references the corpus chose: payouts (disbursed, or failed when
// the bank rejected them), bank_file_items (reference = EndToEndId / ACH trace, payment_info_id = PmtInfId / ACH
// batch reference, bank_status RJCT for rejected items) in one filed bank_file per rail, and approved top-ups.
// Measured: lines read and matched per second and the total time; beside the ceiling, same database, same run:
// every file read by the same reader and its lines written (one INSERT per file, in a transaction per file)
// without any matching; and the quality against the corpus's expected outcome of every line.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { bankFileItems, bankFiles } from "../src/modules/bank-rails/bank-rails.schema.js";
import { payouts } from "../src/modules/payouts/payouts.schema.js";
import type { ReconciliationService } from "../src/modules/reconciliation/index.js";
import { topUps } from "../src/modules/top-ups/top-ups.schema.js";
import type { Tenant } from "../src/platform/auth/actor.js";
import { queryRows, transaction } from "../src/platform/db/client.js";
import { createLogger } from "../src/platform/logger.js";
import { readBankStatements } from "../src/rails/bank-files/statements.js";
import { createRuntime } from "../src/runtime.js";
import {
  CORPUS_EUR_IBAN,
  CORPUS_USD_ACCOUNT,
  type CorpusExpectation,
  generateReconciliationCorpus,
  type ReconciliationCorpus,
} from "../test/fixtures/statements/corpus.js";
import { registerThroughMail } from "./lib/registration-mail.js";
import { createScratchDatabase } from "./lib/scratch-postgres.js";
import { round } from "./lib/stats.js";
import { createTempDir } from "./lib/temp-dir.js";
import type { BenchContext, Benchmark, Engine, Json } from "./lib/types.js";

const MIN_LINES = Number(process.env.BENCH_RECON_LINES ?? 10_000);
const SEED = Number(process.env.BENCH_RECON_SEED ?? 28);
const TARGET_MS = 5_000;
const TARGET_SHARE = 0.995;
const ENCRYPTION_KEY = Buffer.alloc(32, 11).toString("base64");

async function machineLoad(): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  return (await readFile("/proc/loadavg", "utf8").catch(() => "")).split(" ").slice(0, 3).join(" ");
}

function chunks<T>(values: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

interface Seeded {
  readonly payoutIds: Map<string, string>;
  readonly topUpIds: Map<string, string>;
}

async function seedCorpus(
  db: Parameters<typeof transaction>[0],
  tenant: Tenant,
  corpus: ReconciliationCorpus,
  refs: { beneficiaryId: string; destinationId: string; sepaAccount: string; achAccount: string },
): Promise<Seeded> {
  const now = new Date();
  const payoutIds = new Map<string, string>();
  const topUpIds = new Map<string, string>();
  const fileIds = { sepa: randomUUID(), ach: randomUUID() };
  const batchOf = new Map(corpus.batches.map((b) => [b.key, b]));
  await db.insert(bankFiles).values(
    (["sepa", "ach"] as const).map((rail) => ({
      id: fileIds[rail],
      businessId: tenant.businessId,
      environment: tenant.environment,
      rail,
      cutoffAt: now,
      fileName: `bench-${rail}.xml`,
      messageId: `BENCH-${rail.toUpperCase()}`,
      format: rail === "sepa" ? "pain.001.001.09" : "nacha",
      contentEncrypted: "-",
      contentSha256: "-",
      entryCount: 0,
      controlSumMinor: 0,
      currency: rail === "sepa" ? "EUR" : "USD",
      status: "acknowledged",
      uploadedAt: now,
      createdAt: now,
      updatedAt: now,
    })),
  );
  const payoutRows = corpus.payouts.map((p) => {
    const id = randomUUID();
    payoutIds.set(p.key, id);
    const sent = new Date(`${p.sentDate}T12:00:00.000Z`);
    return {
      id,
      businessId: tenant.businessId,
      environment: tenant.environment,
      beneficiaryId: refs.beneficiaryId,
      destinationId: refs.destinationId,
      destinationLast4: "3000",
      amountMinor: p.amountMinor,
      currency: p.currency,
      idempotencyKey: `bench-${p.key}`,
      channel: "api",
      status: p.fate === "rejected" ? ("failed" as const) : ("disbursed" as const),
      fundingAccountId: p.rail === "sepa" ? refs.sepaAccount : refs.achAccount,
      disbursementStartedAt: sent,
      disbursedAt: p.fate === "rejected" ? null : sent,
      createdAt: sent,
      updatedAt: sent,
    };
  });
  for (const part of chunks(payoutRows, 500)) await db.insert(payouts).values(part);
  const itemRows = corpus.payouts.map((p) => ({
    payoutId: payoutIds.get(p.key) as string,
    businessId: tenant.businessId,
    environment: tenant.environment,
    rail: p.rail,
    fileId: fileIds[p.rail],
    amountMinor: p.amountMinor,
    destinationId: refs.destinationId,
    reference: p.reference,
    paymentInfoId: p.batchKey === null ? null : (batchOf.get(p.batchKey)?.reference ?? null),
    bankStatus: p.fate === "rejected" ? "RJCT" : p.rail === "sepa" ? "ACCP" : null,
    queuedAt: new Date(`${p.sentDate}T10:00:00.000Z`),
  }));
  for (const part of chunks(itemRows, 500)) await db.insert(bankFileItems).values(part);
  const topUpRows = corpus.topUps.map((t) => {
    const id = randomUUID();
    topUpIds.set(t.key, id);
    return {
      id,
      businessId: tenant.businessId,
      environment: tenant.environment,
      fundingAccountId: t.currency === "EUR" ? refs.sepaAccount : refs.achAccount,
      amountMinor: t.amountMinor,
      currency: t.currency,
      reference: t.reference,
      status: "pending_approval" as const,
      createdAt: new Date(`${t.announcedDate}T09:00:00.000Z`),
      updatedAt: new Date(`${t.announcedDate}T09:00:00.000Z`),
    };
  });
  for (const part of chunks(topUpRows, 500)) await db.insert(topUps).values(part);
  return { payoutIds, topUpIds };
}

interface LineOutcome {
  readonly line_key: string;
  readonly status: string;
  readonly match_rule: string | null;
  readonly match_top_up_id: string | null;
  readonly payout_ids: string[] | null;
}

/** Compares every corpus line with what the module made of it. */
function judge(corpus: ReconciliationCorpus, seeded: Seeded, outcomes: readonly LineOutcome[]) {
  const byKey = new Map(outcomes.map((o) => [o.line_key, o]));
  const uniqueByRule: Record<string, { expected: number; matched: number }> = {};
  let uniqueExpected = 0;
  let uniqueMatched = 0;
  let falseMatches = 0;
  let ambiguous = 0;
  let ambiguousInReview = 0;
  let unknown = 0;
  let unknownLeftUnmatched = 0;
  let missing = 0;
  const misses: Array<{ story: string; expected: Json; got: Json }> = [];
  const note = (story: string, expected: CorpusExpectation, got: LineOutcome | undefined) => {
    if (misses.length < 25)
      misses.push({
        story,
        expected: typeof expected === "string" ? expected : { rule: expected.rule, payouts: expected.payoutKeys.length },
        got: got === undefined ? "absent" : { status: got.status, rule: got.match_rule },
      });
  };
  for (const line of corpus.lines) {
    const got = byKey.get(line.fingerprint);
    if (got === undefined) missing += 1;
    const expected = line.expected;
    if (expected === "needs_review") {
      ambiguous += 1;
      if (got?.status === "needs_review") ambiguousInReview += 1;
      else {
        if (got?.status === "matched") falseMatches += 1;
        note(line.story, expected, got);
      }
      continue;
    }
    if (expected === "unmatched") {
      unknown += 1;
      if (got?.status === "unmatched") unknownLeftUnmatched += 1;
      else {
        if (got?.status === "matched") falseMatches += 1;
        note(line.story, expected, got);
      }
      continue;
    }
    uniqueExpected += 1;
    const bucket = uniqueByRule[expected.rule] ?? { expected: 0, matched: 0 };
    uniqueByRule[expected.rule] = bucket;
    bucket.expected += 1;
    if (got?.status !== "matched") {
      note(line.story, expected, got);
      continue;
    }
    const wantPayouts = expected.payoutKeys.map((k) => seeded.payoutIds.get(k)).sort();
    const gotPayouts = [...(got.payout_ids ?? [])].sort();
    const wantTopUp = expected.topUpKey === undefined ? null : (seeded.topUpIds.get(expected.topUpKey) ?? null);
    const right =
      JSON.stringify(wantPayouts) === JSON.stringify(gotPayouts) &&
      (got.match_top_up_id ?? null) === wantTopUp &&
      got.match_rule === expected.rule;
    if (right) {
      uniqueMatched += 1;
      bucket.matched += 1;
    } else {
      falseMatches += 1;
      note(line.story, expected, got);
    }
  }
  return {
    corpus_lines: corpus.lines.length,
    lines_absent: missing,
    unique_answer_lines: uniqueExpected,
    unique_matched_automatically: uniqueMatched,
    unique_matched_share: uniqueExpected === 0 ? null : round(uniqueMatched / uniqueExpected, 5),
    unique_by_rule: uniqueByRule as unknown as Json,
    false_matches: falseMatches,
    ambiguous_lines: ambiguous,
    ambiguous_in_review: ambiguousInReview,
    unknown_money_lines: unknown,
    unknown_left_unmatched: unknownLeftUnmatched,
    first_misses: misses as Json,
    met:
      uniqueExpected > 0 &&
      uniqueMatched / uniqueExpected >= TARGET_SHARE &&
      falseMatches === 0 &&
      ambiguousInReview === ambiguous &&
      missing === 0,
  };
}

/**
 * `one`: every file after the other, in delivery order. `per_rail`: the SEPA files (camt) and the ACH files (BAI2)
 * as two streams at once, each in delivery order: the worker's two poll jobs (`bank_rail.poll`, one per rail and
 * Business), which it runs concurrently, each reading its rail's inbound folder file after file.
 */
type Streams = "one" | "per_rail";

function streamsOf(files: ReconciliationCorpus["files"], streams: Streams): Array<ReconciliationCorpus["files"]> {
  if (streams === "one") return [files];
  return [files.filter((f) => f.format !== "bai2"), files.filter((f) => f.format === "bai2")];
}

async function runEngine(
  context: BenchContext,
  engine: Engine,
  corpus: ReconciliationCorpus,
  streams: Streams,
): Promise<{ [key: string]: Json }> {
  if (engine === "postgres" && context.postgresServerUrl === null)
    return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  const loadBefore = await machineLoad();
  const dataDir = await createTempDir("bench-recon");
  const scratch =
    engine === "postgres" && context.postgresServerUrl !== null ? await createScratchDatabase(context.postgresServerUrl) : null;
  const config = loadConfig({
    DATA_DIR: path.join(dataDir.path, "data"),
    ENCRYPTION_KEY,
    ...(scratch === null ? {} : { DATABASE_URL: scratch.url }),
    BANK_RAIL_LOCAL_ROOT: path.join(dataDir.path, "rails"),
    RATE_LIMIT_REQUESTS: "10000000",
    REGISTRATION_RATE_LIMIT_REQUESTS: "100000",
    LOG_LEVEL: "warn",
  });
  const runtime = await createRuntime(config, { logger: createLogger("warn") });
  const app = await buildApp(runtime.deps);
  try {
    const send = async (method: "POST" | "PUT" | "GET", url: string, key: string | null, payload?: unknown) => {
      const response = await app.inject({
        method,
        url,
        ...(key === null ? {} : { headers: { authorization: `Bearer ${key}` } }),
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
      return { status: response.statusCode, text: response.body, json: () => JSON.parse(response.body) };
    };
    const business = await registerThroughMail(
      async (route, body) => {
        const r = await send("POST", route, null, body);
        if (route === "/v1/registration") await runtime.createWorker("bench-recon-mail").drain();
        return r;
      },
      config.dataDir,
      "Reconciliation bench",
      `recon-${engine}@bench.example.com`,
    );
    const key = business.productionKey;
    const tenant: Tenant = { businessId: business.businessId, environment: "production" };
    const address = {
      street_name: "Hauptstraße",
      building_number: "1",
      postal_code: "10115",
      town_name: "Berlin",
      country: "DE",
    };
    const rails = [
      [
        "sepa",
        {
          originator: {
            name: "Acme Payouts GmbH",
            iban: CORPUS_EUR_IBAN,
            bic: "COBADEFFXXX",
            initiating_party_id: "ACME-001",
            address,
          },
          cutoff_times: ["15:00"],
          time_zone: "Europe/Berlin",
          delivery: { kind: "local_directory", outbound_directory: "sepa/out", inbound_directory: "sepa/in" },
        },
      ],
      [
        "ach",
        {
          originator: {
            odfi_routing_number: "091000019",
            immediate_destination: "091000019",
            immediate_destination_name: "Wells Fargo",
            immediate_origin: "1234567890",
            immediate_origin_name: "Acme Payouts Inc",
            company_name: "Acme Payouts",
            company_identification: "1234567890",
            account_number: CORPUS_USD_ACCOUNT,
          },
          cutoff_times: ["16:00"],
          time_zone: "America/New_York",
          delivery: { kind: "local_directory", outbound_directory: "ach/out", inbound_directory: "ach/in" },
        },
      ],
    ] as const;
    for (const [rail, body] of rails) {
      const r = await send("PUT", `/v1/bank-rails/${rail}`, key, body);
      if (r.status !== 201 && r.status !== 200) throw new Error(`PUT /v1/bank-rails/${rail} answered ${r.status}: ${r.text}`);
    }
    const beneficiary = await send("POST", "/v1/beneficiaries", key, {
      beneficiary_type: "person",
      email: "payee@bench.example.com",
      first_name: "Payee",
      last_name: "Bench",
      country_of_residence: "DE",
      tax_id: "DE100000001",
    });
    if (beneficiary.status !== 201) throw new Error(`beneficiary answered ${beneficiary.status}: ${beneficiary.text}`);
    const beneficiaryId = String(beneficiary.json().id);
    const account = await send("POST", `/v1/beneficiaries/${beneficiaryId}/bank-accounts`, key, {
      account_holder_name: "Payee",
      country: "DE",
      currency: "EUR",
      iban: "DE89370400440532013000",
    });
    if (account.status !== 201) throw new Error(`bank account answered ${account.status}: ${account.text}`);
    const funding = (await send("GET", "/v1/funding-accounts", key)).json().funding_accounts as Array<{
      id: string;
      kind: string;
      currency: string;
    }>;
    const sepaAccount = funding.find((a) => a.kind === "bank_rail" && a.currency === "EUR")?.id;
    const achAccount = funding.find((a) => a.kind === "bank_rail" && a.currency === "USD")?.id;
    if (sepaAccount === undefined || achAccount === undefined)
      throw new Error(`no bank-rail funding accounts: ${JSON.stringify(funding)}`);
    const db = runtime.deps.database.db;
    context.log(`[${engine} ${streams}] seeding ${corpus.payouts.length} payouts, ${corpus.topUps.length} top-ups`);
    const seeded = await seedCorpus(db, tenant, corpus, {
      beneficiaryId,
      destinationId: String(account.json().id),
      sepaAccount,
      achAccount,
    });
    // A table that has lived has statistics: without them (rows just inserted) the planner reads every payout of
    // the tenant for each lookup by id (measured: 148 million index rows fetched for 10,000 lines).
    await db.execute(sql`analyze`);
    const module = runtime.deps.modules.modules.find((m) => m.name === "reconciliation");
    const service = (module?.offers as { service?: ReconciliationService } | undefined)?.service;
    if (service === undefined) throw new Error("no reconciliation module");

    // The ceiling first (its own table, nothing the module reads): read and written, not matched.
    await db.execute(sql`create table bench_ceiling_lines (id uuid primary key, file text not null, line_key text not null,
      direction text not null, amount_minor bigint not null, currency text not null, booking_date date, bank_reference text,
      remittance text, details jsonb not null)`);
    const { statementLineFingerprints } = await import("../src/rails/bank-files/statements.js");
    const ceilingStarted = performance.now();
    let ceilingLines = 0;
    let parseMs = 0;
    const ceilingOf = async (file: ReconciliationCorpus["files"][number]) => {
      const parsedAt = performance.now();
      const statements = readBankStatements(file.content);
      parseMs += performance.now() - parsedAt;
      await transaction(db, async (tx) => {
        for (const statement of statements) {
          const prints = statementLineFingerprints(statement);
          const rows = statement.lines.map((l, i) => ({
            id: randomUUID(),
            file: file.name,
            line_key: prints[i] ?? String(i),
            direction: l.direction,
            amount_minor: l.amountMinor,
            currency: l.currency,
            booking_date: l.bookingDate,
            bank_reference: l.bankReference,
            remittance: l.remittance,
            details: l.details,
          }));
          ceilingLines += rows.length;
          await tx.execute(sql`insert into bench_ceiling_lines
            select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, file text, line_key text,
              direction text, amount_minor bigint, currency text, booking_date date, bank_reference text, remittance text,
              details jsonb)`);
        }
      });
    };
    await Promise.all(
      streamsOf(corpus.files, streams).map(async (files) => {
        for (const file of files) await ceilingOf(file);
      }),
    );
    const ceilingMs = performance.now() - ceilingStarted;
    context.log(`[${engine} ${streams}] ceiling: ${ceilingLines} lines read and written in ${ceilingMs.toFixed(0)} ms`);

    // The module: every file through its intake, in delivery order, one transaction each.
    // Statements sent to the server during the intake (PostgreSQL: node-postgres; each one a round trip).
    let statements = 0;
    const statementKinds = new Map<string, number>();
    const statementMs = new Map<string, number>();
    const originalQuery = pg.Client.prototype.query;
    pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
      statements += 1;
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === "string" ? first : (first?.text ?? "");
      const verb = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? "?";
      const table = /\b(?:into|update|from)\s+"?(\w+)"?/i.exec(text)?.[1] ?? "";
      const kind = `${verb} ${table}`.trim();
      statementKinds.set(kind, (statementKinds.get(kind) ?? 0) + 1);
      const sent = performance.now();
      const answer = (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
      // Until the answer is read (the server's time, the round trip and the driver's parsing of the rows).
      if (answer instanceof Promise)
        answer.then(
          () => statementMs.set(kind, (statementMs.get(kind) ?? 0) + performance.now() - sent),
          () => undefined,
        );
      return answer;
    } as typeof originalQuery;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const perFile: number[] = [];
    let linesReceived = 0;
    await Promise.all(
      streamsOf(corpus.files, streams).map(async (files) => {
        for (const file of files) {
          const fileStarted = performance.now();
          await transaction(db, (tx) => service.receiveInbound(tx, tenant, file.content));
          perFile.push(performance.now() - fileStarted);
        }
      }),
    );
    const totalMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    pg.Client.prototype.query = originalQuery;
    const [received] = await queryRows<{ n: number }>(
      db,
      sql`select coalesce(sum(lines_received), 0)::int as n from bank_statements where business_id = ${tenant.businessId}::uuid`,
    );
    linesReceived = received?.n ?? 0;
    const outcomes = await queryRows<LineOutcome>(
      db,
      sql`select l.line_key, l.status, l.match_rule, l.match_top_up_id::text as match_top_up_id,
            (select array_agg(m.payout_id::text) from statement_matches m where m.line_id = l.id and m.payout_id is not null) as payout_ids
          from statement_lines l where l.business_id = ${tenant.businessId}::uuid`,
    );
    const byStatus: Record<string, number> = {};
    for (const o of outcomes) byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
    const [balances] = await queryRows<{ agreed: number; other: number }>(
      db,
      sql`select count(*) filter (where balance_status = 'agrees')::int as agreed, count(*) filter (where balance_status <> 'agrees')::int as other
          from bank_statements where business_id = ${tenant.businessId}::uuid`,
    );
    const quality = judge(corpus, seeded, outcomes);
    const distinct = outcomes.length;
    context.log(
      `[${engine} ${streams}] ${corpus.files.length} files, ${linesReceived} lines read (${distinct} distinct) in ${totalMs.toFixed(0)} ms; unique matched ${quality.unique_matched_automatically}/${quality.unique_answer_lines}, false ${quality.false_matches}, ambiguous in review ${quality.ambiguous_in_review}/${quality.ambiguous_lines}`,
    );
    const sorted = [...perFile].sort((a, b) => a - b);
    const loadAfter = await machineLoad();
    return {
      streams:
        streams === "one"
          ? "every file after the other"
          : "SEPA (camt) and ACH (BAI2) files as two streams at once, each in order",
      files: corpus.files.length,
      lines_read: ceilingLines,
      lines_of_new_statements: linesReceived,
      distinct_lines: distinct,
      total_ms: round(totalMs),
      lines_read_per_second: round((ceilingLines / totalMs) * 1000),
      distinct_lines_matched_per_second: round((distinct / totalMs) * 1000),
      bench_process_cpu_ms: round((cpu.user + cpu.system) / 1000),
      statements_sent: engine === "postgres" ? statements : null,
      statements_per_distinct_line: engine === "postgres" ? round(statements / Math.max(1, distinct), 1) : null,
      statements_by_kind:
        engine === "postgres" ? Object.fromEntries([...statementKinds.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20)) : null,
      statement_ms_by_kind:
        engine === "postgres"
          ? Object.fromEntries(
              [...statementMs.entries()]
                .sort((a, b) => b[1] - a[1])
                .slice(0, 20)
                .map(([kind, ms]) => [kind, round(ms)]),
            )
          : null,
      per_file_ms: { p50: round(sorted[Math.floor(sorted.length / 2)] ?? 0), max: round(sorted[sorted.length - 1] ?? 0) },
      lines_by_status: byStatus as unknown as Json,
      statements_balance: { agreed: balances?.agreed ?? 0, other: balances?.other ?? 0 },
      ceiling: {
        what: "every file read by the same reader and its lines inserted (one INSERT per statement, a transaction per file), no matching; the same streams",
        total_ms: round(ceilingMs),
        parse_ms: round(parseMs),
        lines: ceilingLines,
        service_over_ceiling_time: round(totalMs / ceilingMs, 2),
      },
      met_time: totalMs < TARGET_MS,
      quality: quality as unknown as Json,
      load_average: { before: loadBefore, after: loadAfter },
    };
  } finally {
    await app.close();
    await runtime.close();
    await scratch?.drop();
    await dataDir.remove();
  }
}

export const reconciliationBenchmark: Benchmark = {
  name: "reconciliation",
  description: `the seeded statement corpus (>= ${MIN_LINES} lines) through the reconciliation module's intake; ceiling: read and inserted without matching; quality against the corpus`,
  async run(context) {
    const corpus = generateReconciliationCorpus({ seed: SEED, payouts: 200, minLines: MIN_LINES });
    context.log(
      `corpus seed ${SEED}: ${corpus.lines.length} distinct lines in ${corpus.files.length} files, ${corpus.payouts.length} payouts, ${corpus.batches.length} blocks, ${corpus.topUps.length} top-ups`,
    );
    const out: { [key: string]: Json } = {
      target: `${MIN_LINES} lines read and matched < ${TARGET_MS / 1000} s on 2 cores; >= ${TARGET_SHARE * 100}% of unique-answer lines matched automatically, 0 false matches, every ambiguous line in review`,
      corpus: { seed: SEED, lines: corpus.lines.length, files: corpus.files.length, payouts: corpus.payouts.length },
    };
    for (const engine of context.settings.engines) {
      out[engine] = await runEngine(context, engine, corpus, "one");
      // PGlite has one connection: its transactions run one after another whatever the worker asks.
      if (engine === "postgres") out.postgres_per_rail = await runEngine(context, engine, corpus, "per_rail");
    }
    return out;
  },
};
