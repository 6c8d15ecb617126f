// Durable jobs in the service's own database. See README.md in this folder for the guarantees.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Clock } from "../clock.js";
import { type Db, namedQueryRows, queryRows } from "../db/client.js";
import type { IdGenerator } from "../ids.js";
import type { ClaimedJob, GroupedEffects, JobDefinition } from "./job-types.js";
import { jobs } from "./jobs.schema.js";

export type { ClaimedJob, GroupedEffects } from "./job-types.js";

export interface EnqueueOptions {
  /** Earliest time the job may run; defaults to now. */
  readonly runAt?: Date;
  /** Defaults to the definition's, else the store's configured default. */
  readonly maxAttempts?: number;
  /** A second enqueue with the same key is ignored (returns null). Defaults to the key the definition derives. */
  readonly dedupeKey?: string;
}

/** NOTIFY channel that wakes idle workers when a job is enqueued for now (see `wakeWorkersSql`). */
export const JOBS_WAKEUP_CHANNEL = "jobs_wakeup";

export interface JobStore {
  /** Call with the transaction of the change that needs the job: a rolled-back change leaves no job. */
  enqueue<P extends object>(tx: Db, definition: JobDefinition<P>, payload: P, options?: EnqueueOptions): Promise<string | null>;
  /**
   * Leases up to `limit` due jobs of the given types. A worker claims only types it has handlers for, so
   * during a rolling deploy an older worker leaves a newer job type to the workers that know it.
   */
  claim(workerId: string, limit: number, leaseMs: number, types: readonly string[]): Promise<ClaimedJob[]>;
  /** Marks the job done if the lease is still ours; pass the handler's transaction to commit both together. */
  complete(job: ClaimedJob, tx?: Db): Promise<boolean>;
  /**
   * Schedules a retry at `retryAt`, or buries the job once its attempts are used up. `retryAt` null buries it
   * at once (a failure that no retry can fix).
   */
  fail(job: ClaimedJob, error: string, retryAt: Date | null): Promise<"retrying" | "dead" | "lease_lost">;
  /**
   * Completes the job, fenced by its lease, and applies `grouped.effects` to its `values` (one per
   * `grouped.columns`) only when the completion happened, in one fixed-text named statement over arrays: one
   * round trip instead of BEGIN, n statements, the completion and COMMIT (the hot path of webhook delivery).
   * Calls with the same `grouped` that arrive while earlier ones are being written share one statement
   * (group commit), each entry fenced by its own lease token.
   */
  completeGrouped(job: ClaimedJob, values: readonly unknown[], grouped: GroupedEffects): Promise<boolean>;
  /**
   * Takes back a job `tx` itself enqueued (its id, as enqueue answered it) while it is still pending: for a use case
   * that enqueues ahead of a decision which then goes the other way in the same transaction. No worker can have
   * seen it (it is not committed). Returns whether it was removed.
   */
  withdraw(tx: Db, jobId: string): Promise<boolean>;
  /** Returns jobs whose worker died (lease expired) to the queue. */
  reclaimExpired(): Promise<number>;
  stats(): Promise<{ pending: number; running: number; dead: number; oldestPendingAgeSeconds: number }>;
}

/**
 * `insert into jobs … select … where <condition>`, a data-modifying CTE that enqueues `definition`'s job only
 * when `condition` holds (dedupe key respected). The text depends only on the definition and the condition;
 * the values are parameters. `id` and `now` come from the caller's generator and clock.
 */
export function conditionalEnqueueSql<P extends object>(
  definition: JobDefinition<P>,
  payload: P,
  job: EnqueueOptions & { readonly id: string; readonly now: Date },
  condition: SQL,
): SQL {
  const now = job.now.toISOString();
  return sql`
    insert into jobs (id, type, payload, status, run_at, attempts, max_attempts, dedupe_key, created_at, updated_at)
    select ${job.id}, ${definition.type}, ${JSON.stringify(definition.encode(payload))}::jsonb, 'pending', ${(job.runAt ?? job.now).toISOString()}::timestamptz,
      0, ${job.maxAttempts ?? definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS}, ${job.dedupeKey ?? definition.dedupeKeyOf(payload)}, ${now}::timestamptz, ${now}::timestamptz
    where ${condition}
    on conflict (dedupe_key) do nothing
    returning id`;
}

/**
 * `insert into jobs … select … <from>`, a data-modifying CTE that enqueues one job of `definition` per row of
 * `from` (which holds the FROM and WHERE clauses), with the payload built from one SQL expression per field and
 * the definition's dedupe key. Fixed text for fixed expressions, so it fits named statements; the definition
 * must name its maxAttempts.
 */
export function enqueueFromRowsSql<P extends object>(
  definition: JobDefinition<P>,
  row: { readonly id: SQL; readonly runAt: SQL; readonly now: SQL; readonly payload: { readonly [K in keyof P]-?: SQL } },
  from: SQL,
): SQL {
  if (definition.maxAttempts === undefined)
    throw new Error(`${definition.type}: enqueueFromRowsSql needs the definition's maxAttempts`);
  return sql`
    insert into jobs (id, type, payload, status, run_at, attempts, max_attempts, dedupe_key, created_at, updated_at)
    select ${row.id}, ${sql.raw(`'${definition.type}'`)}, ${definition.payloadSql(row.payload)}, 'pending', ${row.runAt}, 0,
      ${sql.raw(String(definition.maxAttempts))}, ${definition.dedupeKeySql(row.payload) ?? sql`null`}, ${row.now}, ${row.now}
    ${from}
    on conflict (dedupe_key) do nothing
    returning id`;
}

/**
 * A PostgreSQL array literal sent as one parameter: each element quoted, its quotes and backslashes escaped,
 * null as NULL.
 */
function arrayLiteral(values: ReadonlyArray<string | null>): string {
  return `{${values.map((v) => (v === null ? "NULL" : `"${v.replace(/(["\\])/g, "\\$1")}"`)).join(",")}}`;
}

/**
 * Enqueues many jobs of one definition in the caller's transaction with one statement (an insert from
 * arrays, however many jobs: a status report of 10,000 transactions is not 10,000 round trips), stored
 * exactly as JobStore.enqueue stores them and deduplicated the same way. Returns how many were inserted
 * (duplicates are skipped). Without maxAttempts in the options or the definition, a job gets
 * DEFAULT_MAX_ATTEMPTS (this function does not see JOB_MAX_ATTEMPTS).
 */
export async function enqueueJobs<P extends object>(
  tx: Db,
  definition: JobDefinition<P>,
  items: ReadonlyArray<{ readonly payload: P; readonly options?: EnqueueOptions }>,
  job: { readonly ids: IdGenerator; readonly now: Date },
): Promise<number> {
  if (items.length === 0) return 0;
  const now = job.now.toISOString();
  const column = <T extends string | null>(of: (item: (typeof items)[number]) => T) => arrayLiteral(items.map(of));
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`
      insert into jobs (id, type, payload, status, run_at, attempts, max_attempts, dedupe_key, created_at, updated_at)
      select v.id, ${definition.type}, v.payload::jsonb, 'pending', v.run_at, 0, v.max_attempts, v.dedupe_key,
        ${now}::timestamptz, ${now}::timestamptz
      from unnest(
        ${column(() => job.ids.newId())}::uuid[],
        ${column((item) => JSON.stringify(definition.encode(item.payload)))}::text[],
        ${column((item) => (item.options?.runAt ?? job.now).toISOString())}::timestamptz[],
        ${column((item) => String(item.options?.maxAttempts ?? definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS))}::int[],
        ${column((item) => item.options?.dedupeKey ?? definition.dedupeKeyOf(item.payload))}::text[]
      ) as v(id, payload, run_at, max_attempts, dedupe_key)
      on conflict (dedupe_key) do nothing
      returning id`,
  );
  return rows.length;
}

/** An SQL expression that wakes idle workers when its transaction commits (NOTIFY on JOBS_WAKEUP_CHANNEL). */
export function wakeWorkersSql(): SQL {
  return sql.raw(`pg_notify('${JOBS_WAKEUP_CHANNEL}', '')`);
}

export const DEFAULT_MAX_ATTEMPTS = 10;

/** Group completion (completeGrouped): at most this many entries per statement, this many statements at once. */
const COMPLETION_BATCH_MAX = 64;
const COMPLETION_BATCHES_IN_FLIGHT = 2;

interface ClaimedRow {
  id: string;
  type: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  lease_token: string;
  lease_expires_at: Date | string;
}

export function createJobStore(deps: { db: Db; clock: Clock; ids: IdGenerator; defaultMaxAttempts?: number }): JobStore {
  const { db, clock, ids } = deps;
  const defaultMaxAttempts = deps.defaultMaxAttempts ?? DEFAULT_MAX_ATTEMPTS;

  interface QueuedGrouped {
    readonly job: ClaimedJob;
    readonly values: readonly unknown[];
    readonly resolve: (completed: boolean) => void;
    readonly reject: (error: unknown) => void;
  }
  const groupedQueues = new Map<string, { grouped: GroupedEffects; queued: QueuedGrouped[]; inFlight: number }>();

  function flushGrouped(name: string): void {
    const queue = groupedQueues.get(name);
    if (queue === undefined) return;
    while (queue.inFlight < COMPLETION_BATCHES_IN_FLIGHT && queue.queued.length > 0) {
      const batch = queue.queued.splice(0, COMPLETION_BATCH_MAX);
      queue.inFlight += 1;
      void writeGrouped(queue.grouped, batch).finally(() => {
        queue.inFlight -= 1;
        flushGrouped(name);
      });
    }
  }

  async function writeGrouped(grouped: GroupedEffects, batch: readonly QueuedGrouped[]): Promise<void> {
    const now = clock.now().toISOString();
    const arrays = grouped.columns.map((_, index) => batch.map((entry) => entry.values[index] ?? null));
    try {
      const rows = await namedQueryRows<{ id: string }>(
        db,
        `jobs_complete_${grouped.name}`,
        sql`
          with input as (
            select * from unnest(${sql.param(batch.map((entry) => entry.job.id))}::uuid[], ${sql.param(batch.map((entry) => entry.job.leaseToken))}::uuid[]${sql.join(
              grouped.columns.map((column, index) => sql`, ${sql.param(arrays[index])}::${sql.raw(column.type)}[]`),
              sql``,
            )}) as i(job_id, lease_token${sql.raw(grouped.columns.map((column) => `, ${column.name}`).join(""))})
          ),
          completed_job as (
            update jobs j set status = 'succeeded', completed_at = ${now}::timestamptz, updated_at = ${now}::timestamptz,
              lease_token = null, lease_expires_at = null, last_error = null
            from input i
            where j.id = i.job_id and j.lease_token = i.lease_token and j.status = 'running'
            returning j.id
          ),
          done as (select i.* from input i join completed_job c on c.id = i.job_id),
          ${grouped.effects}
          select id from completed_job`,
      );
      const completed = new Set(rows.map((row) => row.id));
      for (const entry of batch) entry.resolve(completed.has(entry.job.id));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // The statement rolled back as a whole: each entry is written on its own, so one bad entry fails alone.
      await Promise.all(batch.map((entry) => writeGrouped(grouped, [entry])));
    }
  }

  return {
    completeGrouped(job, values, grouped) {
      if (values.length !== grouped.columns.length) return Promise.reject(new Error("completeGrouped: one value per column"));
      let queue = groupedQueues.get(grouped.name);
      if (queue === undefined) {
        queue = { grouped, queued: [], inFlight: 0 };
        groupedQueues.set(grouped.name, queue);
      }
      const target = queue;
      return new Promise<boolean>((resolve, reject) => {
        target.queued.push({ job, values, resolve, reject });
        if (target.queued.length === 1) queueMicrotask(() => flushGrouped(grouped.name));
      });
    },

    async enqueue(tx, definition, payload, options = {}) {
      const now = clock.now();
      const id = ids.newId();
      const inserted = await tx
        .insert(jobs)
        .values({
          id,
          type: definition.type,
          payload: definition.encode(payload),
          status: "pending",
          runAt: options.runAt ?? now,
          maxAttempts: options.maxAttempts ?? definition.maxAttempts ?? defaultMaxAttempts,
          dedupeKey: options.dedupeKey ?? definition.dedupeKeyOf(payload),
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: jobs.dedupeKey })
        .returning({ id: jobs.id });
      return inserted[0]?.id ?? null;
    },

    async withdraw(tx, jobId) {
      const removed = await tx
        .delete(jobs)
        .where(and(eq(jobs.id, jobId), eq(jobs.status, "pending")))
        .returning({ id: jobs.id });
      return removed.length > 0;
    },

    async claim(workerId, limit, leaseMs, types) {
      if (types.length === 0 || limit <= 0) return [];
      const now = clock.now();
      const leaseExpiresAt = new Date(now.getTime() + leaseMs);
      // One statement: pick due jobs no other worker holds (SKIP LOCKED), and lease them.
      // Named (parsed and planned once per connection): the text varies only with the number of types.
      const rows = await namedQueryRows<ClaimedRow>(
        db,
        `jobs_claim_${types.length}`,
        sql`
          update jobs set
            status = 'running',
            attempts = attempts + 1,
            lease_token = gen_random_uuid(),
            lease_expires_at = ${leaseExpiresAt.toISOString()}::timestamptz,
            locked_by = ${workerId},
            updated_at = ${now.toISOString()}::timestamptz
          where id in (
            select id from jobs
            where status = 'pending' and run_at <= ${now.toISOString()}::timestamptz
              and type in (${sql.join(
                types.map((type) => sql`${type}`),
                sql`, `,
              )})
            order by run_at, id
            limit ${limit}
            for update skip locked
          )
          returning id, type, payload, attempts, max_attempts, lease_token, lease_expires_at`,
      );
      return rows.map((row) => ({
        id: row.id,
        type: row.type,
        payload: row.payload,
        attempt: row.attempts,
        maxAttempts: row.max_attempts,
        leaseToken: row.lease_token,
        leaseExpiresAt: new Date(row.lease_expires_at),
      }));
    },

    async complete(job, tx) {
      const now = clock.now();
      const updated = await (tx ?? db)
        .update(jobs)
        .set({ status: "succeeded", completedAt: now, updatedAt: now, leaseToken: null, leaseExpiresAt: null, lastError: null })
        .where(and(eq(jobs.id, job.id), eq(jobs.leaseToken, job.leaseToken), eq(jobs.status, "running")))
        .returning({ id: jobs.id });
      return updated.length === 1;
    },

    async fail(job, error, retryAt) {
      const now = clock.now();
      const dead = retryAt === null || job.attempt >= job.maxAttempts;
      const updated = await db
        .update(jobs)
        .set({
          status: dead ? "dead" : "pending",
          runAt: dead || retryAt === null ? undefined : retryAt,
          completedAt: dead ? now : null,
          updatedAt: now,
          leaseToken: null,
          leaseExpiresAt: null,
          lockedBy: null,
          lastError: error.slice(0, 2000),
        })
        .where(and(eq(jobs.id, job.id), eq(jobs.leaseToken, job.leaseToken), eq(jobs.status, "running")))
        .returning({ id: jobs.id });
      if (updated.length === 0) return "lease_lost";
      return dead ? "dead" : "retrying";
    },

    async reclaimExpired() {
      const now = clock.now().toISOString();
      // A job whose worker died has used an attempt; if that was its last, it is buried instead of rerun.
      const rows = await queryRows<{ id: string }>(
        db,
        sql`
          update jobs set
            status = case when attempts >= max_attempts then 'dead'::job_status else 'pending'::job_status end,
            completed_at = case when attempts >= max_attempts then ${now}::timestamptz else null end,
            run_at = ${now}::timestamptz,
            lease_token = null,
            lease_expires_at = null,
            locked_by = null,
            last_error = coalesce(last_error, 'lease expired: worker stopped before finishing'),
            updated_at = ${now}::timestamptz
          where status = 'running' and lease_expires_at < ${now}::timestamptz
          returning id`,
      );
      return rows.length;
    },

    async stats() {
      const now = clock.now().toISOString();
      const [row] = await queryRows<{
        pending: string | number;
        running: string | number;
        dead: string | number;
        oldest: string | number | null;
      }>(
        db,
        sql`
          select
            count(*) filter (where status = 'pending') as pending,
            count(*) filter (where status = 'running') as running,
            count(*) filter (where status = 'dead') as dead,
            extract(epoch from (${now}::timestamptz - min(run_at) filter (where status = 'pending' and run_at <= ${now}::timestamptz))) as oldest
          from jobs where status <> 'succeeded'`,
      );
      return {
        pending: Number(row?.pending ?? 0),
        running: Number(row?.running ?? 0),
        dead: Number(row?.dead ?? 0),
        oldestPendingAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)),
      };
    },
  };
}
