// `GET /v1/payouts` with filters on an environment of 100,000 payouts (PostgreSQL only). The payouts are
// inserted directly (ids UUIDv7-shaped in creation order, one a minute over about 70 days; statuses,
// currencies, channels and amounts spread), beside 20,000 in the production environment and 20,000 of
// another Business, so tenancy conditions have rows to skip. For each filter combination: sequential
// requests over one keep-alive connection, p50/p99 as the client on loopback sees them (an upper bound of
// the server's time); the ceiling is the same SQL (the statement the repository sends, by hand) run directly
// from the bench process on the same database, same parameters. Target: p99 < 150 ms for every combination.
import { performance } from "node:perf_hooks";
import pg from "pg";
import { registerBusiness, startService } from "./lib/service.js";
import { percentile, round } from "./lib/stats.js";
import type { BenchContext, Benchmark, Json } from "./lib/types.js";

const PAYOUTS = 100_000;
const OTHER_ROWS = 20_000;
const PAGE = 50;
const WARMUP_REQUESTS = 30;
const REQUESTS = 300;
const TARGET_P99_MS = 150;
const BASE_MS = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

interface Combination {
  readonly name: string;
  /** Query string of the API request (without limit). */
  readonly query: string;
  /** The same filters as SQL conditions after business_id = $1 and environment = 'sandbox'. */
  readonly sql: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const mid = BASE_MS + 50_000 * MINUTE;

const COMBINATIONS: readonly Combination[] = [
  { name: "no filter", query: "", sql: "" },
  { name: "status=failed", query: "status=failed", sql: "and status = 'failed'" },
  { name: "channel=csv", query: "channel=csv", sql: "and channel = 'csv'" },
  {
    name: "currency=JPY, amount_min",
    query: "currency=JPY&amount_min=500000",
    sql: "and currency = 'JPY' and amount_minor >= 500000",
  },
  {
    name: "created one day, channel=api",
    query: `created_from=${iso(mid)}&created_to=${iso(mid + 1440 * MINUTE)}&channel=api`,
    sql: `and created_at >= '${iso(mid)}' and created_at < '${iso(mid + 1440 * MINUTE)}' and channel = 'api'`,
  },
  {
    name: "updated week, status=disbursed",
    query: `updated_from=${iso(mid)}&updated_to=${iso(mid + 7 * 1440 * MINUTE)}&status=disbursed`,
    sql: `and updated_at >= '${iso(mid)}' and updated_at < '${iso(mid + 7 * 1440 * MINUTE)}' and status = 'disbursed'`,
  },
  {
    name: "amount 1000.00-1010.00 EUR",
    query: "currency=EUR&amount_min=100000&amount_max=101000",
    sql: "and currency = 'EUR' and amount_minor >= 100000 and amount_minor <= 101000",
  },
  {
    name: "old created range (first week), currency=GBP",
    query: `created_from=${iso(BASE_MS)}&created_to=${iso(BASE_MS + 7 * 1440 * MINUTE)}&currency=GBP`,
    sql: `and created_at >= '${iso(BASE_MS)}' and created_at < '${iso(BASE_MS + 7 * 1440 * MINUTE)}' and currency = 'GBP'`,
  },
];

/** Inserts `count` payouts for (business, environment) with ids that sort like UUIDv7 in creation order. */
async function insertPayouts(
  client: pg.Client,
  business: string,
  environment: string,
  beneficiary: string,
  destination: string,
  count: number,
  salt: number,
): Promise<void> {
  const batch = 20_000;
  for (let start = 0; start < count; start += batch) {
    await client.query(
      `insert into payouts (id, business_id, environment, beneficiary_id, destination_id, destination_last4, amount_minor,
         currency, external_ref, idempotency_key, channel, upload_id, status, created_at, updated_at)
       select
         (lpad(to_hex($7::bigint + i::bigint * 60000), 12, '0') || '7' || lpad(to_hex($6::int), 3, '0') || '8'
           || lpad(to_hex(i), 15, '0'))::uuid,
         $1, $2::environment, $3, $4, '3000',
         ((i::bigint * 7919) % 1000000) + 1,
         case when i % 20 = 0 then 'JPY' when i % 20 < 4 then 'GBP' else 'EUR' end,
         'INV-' || i,
         'bench-' || $6 || '-' || i,
         case when i % 10 = 0 then 'csv' else 'api' end,
         case when i % 10 = 0 then 'upload-' || (i / 500) else null end,
         (array['disbursed','disbursed','disbursed','settled','pending_approval','approved','rejected','failed','canceled','returned'])[1 + i % 10]::payout_status,
         to_timestamp(($7::bigint + i::bigint * 60000) / 1000.0),
         to_timestamp(($7::bigint + i::bigint * 60000 + (i % 7) * 3600000) / 1000.0)
       from generate_series($5::int, $5::int + $8::int - 1) as i`,
      [business, environment, beneficiary, destination, start, salt, BASE_MS, Math.min(batch, count - start)],
    );
  }
}

async function payableBeneficiary(baseUrl: string, key: string): Promise<{ beneficiary: string; destination: string }> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const created = await fetch(`${baseUrl}/v1/beneficiaries`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      beneficiary_type: "person",
      email: `payee-${Date.now()}@bench.example.com`,
      first_name: "Payee",
      last_name: "Bench",
      country_of_residence: "DE",
      tax_id: "DE100000001",
    }),
  });
  const body = (await created.json()) as { id?: string };
  if (created.status !== 201 || body.id === undefined) throw new Error(`beneficiary answered ${created.status}`);
  const account = await fetch(`${baseUrl}/v1/beneficiaries/${body.id}/bank-accounts`, {
    method: "POST",
    headers,
    body: JSON.stringify({ account_holder_name: "Payee", country: "DE", currency: "EUR", iban: "DE89370400440532013000" }),
  });
  const accountBody = (await account.json()) as { id?: string };
  if (account.status !== 201 || accountBody.id === undefined) throw new Error(`bank account answered ${account.status}`);
  return { beneficiary: body.id, destination: accountBody.id };
}

function summary(samples: number[]): { p50_ms: number | null; p99_ms: number | null } {
  const sorted = Float64Array.from(samples).sort();
  return { p50_ms: round(percentile(sorted, 50)), p99_ms: round(percentile(sorted, 99)) };
}

async function runPostgres(context: BenchContext): Promise<{ readonly [key: string]: Json }> {
  if (context.postgresServerUrl === null) return { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
  const service = await startService(context, "postgres");
  try {
    const baseUrl = service.server.baseUrl;
    const business = await registerBusiness(service, "payouts-list");
    const other = await registerBusiness(service, "payouts-list-other");
    const mine = await payableBeneficiary(baseUrl, business.sandboxKey);
    const mineProduction = await payableBeneficiary(baseUrl, business.productionKey);
    const theirs = await payableBeneficiary(baseUrl, other.sandboxKey);
    const scratch = service.scratch;
    if (scratch === null) throw new Error("no scratch database");
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      context.log(`[postgres] inserting ${PAYOUTS} payouts (+${2 * OTHER_ROWS} elsewhere)`);
      await insertPayouts(client, business.businessId, "sandbox", mine.beneficiary, mine.destination, PAYOUTS, 1);
      await insertPayouts(
        client,
        business.businessId,
        "production",
        mineProduction.beneficiary,
        mineProduction.destination,
        OTHER_ROWS,
        2,
      );
      await insertPayouts(client, other.businessId, "sandbox", theirs.beneficiary, theirs.destination, OTHER_ROWS, 3);
      await client.query("analyze payouts");

      const headers = { authorization: `Bearer ${business.sandboxKey}` };
      const results: Record<string, Json> = {};
      let met = true;
      for (const combination of COMBINATIONS) {
        const url = `${baseUrl}/v1/payouts?limit=${PAGE}${combination.query === "" ? "" : `&${combination.query}`}`;
        const statement = `select * from payouts where business_id = $1 and environment = 'sandbox' ${combination.sql} order by id desc limit ${PAGE + 1}`;
        let rows = 0;
        const apiSamples: number[] = [];
        for (let i = 0; i < WARMUP_REQUESTS + REQUESTS; i++) {
          const started = performance.now();
          const response = await fetch(url, { headers });
          const body = (await response.json()) as { payouts?: unknown[] };
          const elapsed = performance.now() - started;
          if (response.status !== 200) throw new Error(`${combination.name}: ${response.status} ${JSON.stringify(body)}`);
          rows = body.payouts?.length ?? 0;
          if (i >= WARMUP_REQUESTS) apiSamples.push(elapsed);
        }
        const ceiling: number[] = [];
        let sqlRows = 0;
        for (let i = 0; i < WARMUP_REQUESTS + REQUESTS; i++) {
          const started = performance.now();
          const result = await client.query(statement, [business.businessId]);
          const elapsed = performance.now() - started;
          sqlRows = Math.min(result.rowCount ?? 0, PAGE);
          if (i >= WARMUP_REQUESTS) ceiling.push(elapsed);
        }
        if (sqlRows !== rows) throw new Error(`${combination.name}: the API gave ${rows} rows, the SQL ${sqlRows}`);
        const plan = await client.query(`explain ${statement}`, [business.businessId]);
        const figures = summary(apiSamples);
        const sqlFigures = summary(ceiling);
        const ok = figures.p99_ms !== null && figures.p99_ms < TARGET_P99_MS;
        met &&= ok;
        results[combination.name] = {
          query: combination.query,
          rows,
          service: figures,
          ceiling_sql: sqlFigures,
          p50_ratio_to_ceiling:
            figures.p50_ms !== null && sqlFigures.p50_ms !== null && sqlFigures.p50_ms > 0
              ? round(figures.p50_ms / sqlFigures.p50_ms)
              : null,
          // Which index the planner chose (the plan of the ceiling's statement).
          plan_indexes: [
            ...new Set(
              plan.rows.flatMap((row) =>
                [...String((row as Record<string, unknown>)["QUERY PLAN"]).matchAll(/using (\w+)/g)].map((m) => m[1] ?? ""),
              ),
            ),
          ],
          met: ok,
        };
        context.log(
          `[postgres] ${combination.name}: ${rows} rows, p50 ${figures.p50_ms} ms p99 ${figures.p99_ms} ms (SQL p50 ${sqlFigures.p50_ms} p99 ${sqlFigures.p99_ms})`,
        );
      }
      return { payouts_in_environment: PAYOUTS, page_size: PAGE, requests_per_combination: REQUESTS, combinations: results, met };
    } finally {
      await client.end();
    }
  } finally {
    await service.dispose();
  }
}

export const payoutsListBenchmark: Benchmark = {
  name: "payouts_list",
  description: `GET /v1/payouts with filters, ${PAYOUTS} payouts in the environment, beside the same SQL run directly (PostgreSQL only)`,
  async run(context) {
    return {
      route: "GET /v1/payouts",
      target_p99_ms: TARGET_P99_MS,
      engines: { postgres: await runPostgres(context), pglite: { skipped: "PostgreSQL only" } },
    };
  },
};
