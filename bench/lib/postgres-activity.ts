// What the service asked of PostgreSQL, per request: read from the statistics of a scratch database
// after the service has stopped (a backend flushes its statistics when it exits; while it runs they lag
// by up to seconds). The database is fresh, so its totals belong to this run alone: divide by the number
// of requests made (setup requests are a rounding error against a load run).
import pg from "pg";
import { round } from "./stats.js";
import type { Json } from "./types.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface TableStats {
  relname: string;
  seq_scan: string;
  idx_scan: string | null;
  n_tup_ins: string;
  n_tup_upd: string;
  n_tup_hot_upd: string;
}

export async function postgresActivityPerRequest(
  databaseUrl: string,
  requests: number,
): Promise<{ readonly [key: string]: Json }> {
  await sleep(1_000);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const database = await client.query<{ xact_commit: string; xact_rollback: string; blks_hit: string; blks_read: string }>(
      "select xact_commit, xact_rollback, blks_hit, blks_read from pg_stat_database where datname = current_database()",
    );
    const tables = await client.query<TableStats>(
      "select relname, seq_scan, idx_scan, n_tup_ins, n_tup_upd, n_tup_hot_upd from pg_stat_user_tables order by relname",
    );
    const per = (value: string | null | undefined) => round(Number(value ?? 0) / requests, 3);
    const byTable: Record<string, Json> = {};
    for (const row of tables.rows) {
      const scans = Number(row.seq_scan) + Number(row.idx_scan ?? 0);
      const writes = Number(row.n_tup_ins) + Number(row.n_tup_upd);
      if (scans / requests < 0.001 && writes / requests < 0.001) continue;
      byTable[row.relname] = {
        scans: per(String(scans)),
        rows_inserted: per(row.n_tup_ins),
        rows_updated: per(row.n_tup_upd),
      };
    }
    const stats = database.rows[0];
    return {
      requests_counted: requests,
      transactions: per(stats === undefined ? "0" : String(Number(stats.xact_commit) + Number(stats.xact_rollback))),
      by_table: byTable,
    };
  } finally {
    await client.end();
  }
}
