// The event feed as a forwarder uses it (`GET /v1/events?after=<cursor>&wait=30`), on PostgreSQL: the service
// in its own `api` process, events recorded by another process's connections (this bench process, through the
// service's own EventRecorder, one event per transaction, from 8 producers whose commits overtake each other),
// and one consumer looping on the feed over HTTP. Lag = arrival at the consumer - commit of the recording
// transaction, p50/p99/max, at offered rates of 100 and 500 events/s; every event must arrive exactly once.
// Then 200 requests wait on an idle environment while the database connections of the scratch database are
// counted: a waiting request must hold none. PGlite is embedded (one process), so it is skipped.
// Target: p99 lag < 1,000 ms at 100 events/s, no event lost or repeated.
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { systemClock } from "../src/platform/clock.js";
import { openDatabase, queryRows, transaction } from "../src/platform/db/client.js";
import { createEventRecorder } from "../src/platform/events/outbox.js";
import { uuidV7Generator } from "../src/platform/ids.js";
import { registerBusiness, startService } from "./lib/service.js";
import { percentile, round, SampleBuffer } from "./lib/stats.js";
import type { BenchContext, Benchmark, Json } from "./lib/types.js";

const RATES = [100, 500] as const;
const TARGET_P99_MS = 1000;
const PRODUCERS = 8;
const IDLE_WAITERS = 200;

interface EventList {
  events: Array<{ id: string }>;
  next_cursor: string;
  has_more: boolean;
}

async function runPostgres(context: BenchContext): Promise<{ readonly [key: string]: Json }> {
  const service = await startService(context, "postgres");
  const scratch = service.scratch;
  if (scratch === null) throw new Error("no scratch database");
  const writer = await openDatabase({ databaseUrl: scratch.url, dataDir: "", poolSize: PRODUCERS + 2 });
  const recorder = createEventRecorder({ clock: systemClock, ids: uuidV7Generator });
  try {
    const business = await registerBusiness(service, "events-feed");
    const base = service.server.baseUrl;
    const feed = async (key: string, after: string, wait: number, signal?: AbortSignal): Promise<EventList> => {
      const response = await fetch(`${base}/v1/events?after=${after}&wait=${wait}&limit=200`, {
        headers: { authorization: `Bearer ${key}` },
        ...(signal === undefined ? {} : { signal }),
      });
      if (response.status !== 200) throw new Error(`feed answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as EventList;
    };
    const tenant = { businessId: business.businessId, environment: "sandbox" as const };
    const record = async (): Promise<{ id: string; committedAt: number }> => {
      const subjectId = crypto.randomUUID();
      const recorded = await transaction(writer.db, async (tx) => {
        const row = await recorder.record(tx, {
          tenant,
          type: "beneficiary.details_submitted",
          subjectId,
          data: { beneficiary_id: subjectId, status: "details_submitted" },
        });
        // A short random hold before commit, so commits overtake each other as in a busy service.
        await sleep(Math.random() * 5);
        return row;
      });
      return { id: recorded.id, committedAt: performance.now() };
    };

    const results: Record<string, Json> = {};
    for (const rate of RATES) {
      const seconds = context.settings.measureSeconds;
      context.log(`[postgres] events feed at ${rate} events/s for ${seconds} s`);
      const arrivals = new Map<string, number>();
      let duplicates = 0;
      let stop = false;
      let cursor = (await feed(business.sandboxKey, "now", 0)).next_cursor;
      const consumer = (async () => {
        while (!stop) {
          const page = await feed(business.sandboxKey, cursor, 30);
          const at = performance.now();
          for (const event of page.events) {
            if (arrivals.has(event.id)) duplicates += 1;
            else arrivals.set(event.id, at);
          }
          cursor = page.next_cursor;
        }
      })();
      const commits = new Map<string, number>();
      const total = rate * seconds;
      const intervalMs = 1000 / rate;
      const started = performance.now();
      let issued = 0;
      await Promise.all(
        Array.from({ length: PRODUCERS }, async () => {
          for (;;) {
            const index = issued;
            if (index >= total) return;
            issued += 1;
            const due = started + index * intervalMs;
            const now = performance.now();
            if (due > now) await sleep(due - now);
            const { id, committedAt } = await record();
            commits.set(id, committedAt);
          }
        }),
      );
      const offeredSeconds = (performance.now() - started) / 1000;
      // Everything committed must arrive; give the consumer up to 10 s more.
      const drainDeadline = performance.now() + 10_000;
      while ([...commits.keys()].some((id) => !arrivals.has(id)) && performance.now() < drainDeadline) await sleep(20);
      stop = true;
      // Ends the consumer's last wait.
      await record();
      await consumer;
      const lags = new SampleBuffer();
      let missing = 0;
      for (const [id, committedAt] of commits) {
        const at = arrivals.get(id);
        if (at === undefined) missing += 1;
        else lags.push(at - committedAt);
      }
      const sorted = lags.sorted();
      const p99 = percentile(sorted, 99);
      results[`rate_${rate}`] = {
        offered_events_per_second: rate,
        achieved_events_per_second: round(commits.size / offeredSeconds, 1),
        events: commits.size,
        missing,
        duplicates,
        lag_ms: {
          p50: round(percentile(sorted, 50), 1),
          p99: round(p99, 1),
          max: round(sorted[sorted.length - 1] ?? Number.NaN, 1),
        },
        ...(rate === 100
          ? {
              target: `p99 < ${TARGET_P99_MS} ms, none missing or repeated`,
              met: p99 < TARGET_P99_MS && missing === 0 && duplicates === 0,
            }
          : {}),
      };
    }

    context.log(`[postgres] ${IDLE_WAITERS} idle waiting requests`);
    /** Connections to the scratch database other than the counting one: all, and those in a statement or transaction. */
    const connections = async () => {
      const [row] = await queryRows<{ total: string | number; busy: string | number }>(
        writer.db,
        sql`select count(*) as total, count(*) filter (where state <> 'idle') as busy
            from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      );
      return { total: Number(row?.total ?? 0), busy: Number(row?.busy ?? 0) };
    };
    const before = await connections();
    const abort = new AbortController();
    const idleCursor = (await feed(business.productionKey, "now", 0)).next_cursor;
    const waiting = Array.from({ length: IDLE_WAITERS }, () =>
      feed(business.productionKey, idleCursor, 30, abort.signal).catch(() => null),
    );
    await sleep(3000);
    const during = await connections();
    abort.abort();
    await Promise.all(waiting);
    results.idle_waiters = {
      waiting_requests: IDLE_WAITERS,
      connections_before: before,
      connections_while_waiting: during,
      note: "connections to the scratch database other than the counting one (the api process's pool and its LISTEN connection, the bench's writer pool); busy = in a statement or a transaction",
    };
    return results;
  } finally {
    await writer.close().catch(() => {});
    await service.dispose();
  }
}

export const eventsFeedBenchmark: Benchmark = {
  name: "events_feed",
  description:
    "GET /v1/events?after=…&wait=30 followed by one consumer while 8 producers in another process commit events at 100 and 500 events/s (PostgreSQL): commit-to-arrival lag, events missing or repeated; database connections held by 200 waiting requests.",
  async run(context) {
    const result: Record<string, Json> = {
      pglite: { skipped: "embedded database: the writer cannot be another process" },
    };
    if (!context.settings.engines.includes("postgres")) result.postgres = { skipped: "not selected" };
    else if (context.postgresServerUrl === null)
      result.postgres = { skipped: `PostgreSQL unavailable: ${context.postgresUnavailable}` };
    else result.postgres = await runPostgres(context);
    return result;
  },
};
