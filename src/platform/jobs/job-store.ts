// Durable jobs in the service's own database. See README.md in this folder for the guarantees.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Clock } from "../clock.js";
import { type Db, namedQueryRows, queryRows } from "../db/client.js";
import type { IdGenerator } from "../ids.js";
import { jobs } from "./jobs.schema.js";

export interface EnqueueJob {
  readonly type: string;
  readonly payload: unknown;
  /** Earliest time the job may run; defaults to now. */
  readonly runAt?: Date;
  readonly maxAttempts?: number;
  /** A second enqueue with the same key is ignored (returns null). */
  readonly dedupeKey?: string;
}

export interface ClaimedJob {
  readonly id: string;
  readonly type: string;
  readonly payload: unknown;
  /** 1 on the first run. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** Fencing token: only the holder of the current lease may complete or reschedule the job. */
  readonly leaseToken: string;
  readonly leaseExpiresAt: Date;
}

export interface JobStore {
  /** Call with the transaction of the change that needs the job: a rolled-back change leaves no job. */
  enqueue(tx: Db, job: EnqueueJob): Promise<string | null>;
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
   * Completes the job, fenced by its lease, and in the same single statement applies `effects` (data-modifying
   * CTEs the caller writes). Every effect must be conditioned on `completed` (an SQL boolean that is true only
   * when the completion happened), so a worker that lost its lease changes nothing. One round trip instead of
   * BEGIN, n statements, the completion and COMMIT: the hot path of webhook delivery uses it. Completions
   * that arrive while earlier ones are being written are written together in one statement (group commit);
   * there each entry's CTEs are renamed, so an effect must name an earlier one through `ref(name)` (a literal
   * name still works, but that entry is then written on its own after the grouped statement fails).
   */
  completeWith(job: ClaimedJob, effects: (completed: SQL, ref: (name: string) => SQL) => readonly JobEffect[]): Promise<boolean>;
  /**
   * completeWith for hot paths, as one fixed-text named statement over arrays: the job's completion, fenced by
   * its lease, and `grouped.effects` applied to its `values` (one per `grouped.columns`) only when the
   * completion happened. Calls with the same `grouped` that arrive together share one statement.
   */
  completeGrouped(job: ClaimedJob, values: readonly unknown[], grouped: GroupedEffects): Promise<boolean>;
  /** Returns jobs whose worker died (lease expired) to the queue. */
  reclaimExpired(): Promise<number>;
  stats(): Promise<{ pending: number; running: number; dead: number; oldestPendingAgeSeconds: number }>;
}

/** A named data-modifying CTE for completeWith; later effects may refer to earlier ones through `ref(name)`. */
export interface JobEffect {
  /** A plain identifier ([a-z_][a-z0-9_]*, no "__"), unique among the job's effects. */
  readonly name: string;
  readonly statement: SQL;
}

/**
 * `insert into jobs … select … where <condition>` for use as a completeWith effect: enqueues `job` only when
 * `condition` holds (dedupe key respected). `id` and `now` come from the caller's generator and clock.
 */
export function conditionalEnqueueSql(
  job: EnqueueJob & { readonly id: string; readonly now: Date; readonly defaultMaxAttempts?: number },
  condition: SQL,
): SQL {
  const now = job.now.toISOString();
  return sql`
    insert into jobs (id, type, payload, status, run_at, attempts, max_attempts, dedupe_key, created_at, updated_at)
    select ${job.id}, ${job.type}, ${JSON.stringify(job.payload ?? null)}::jsonb, 'pending', ${(job.runAt ?? job.now).toISOString()}::timestamptz,
      0, ${job.maxAttempts ?? job.defaultMaxAttempts ?? DEFAULT_MAX_ATTEMPTS}, ${job.dedupeKey ?? null}, ${now}::timestamptz, ${now}::timestamptz
    where ${condition}
    on conflict (dedupe_key) do nothing
    returning id`;
}

export const DEFAULT_MAX_ATTEMPTS = 10;

/**
 * The fixed part of a completeGrouped statement. The statement reads the input rows as `input` (job_id,
 * lease_token, then `columns`), and `done` is the input rows whose job was completed under its lease:
 * `effects` are data-modifying CTEs (`name as (…), …`) over `done` only, with fixed text and no parameters.
 */
export interface GroupedEffects {
  /** Names the prepared statement; one name, one text. */
  readonly name: string;
  readonly columns: ReadonlyArray<{ readonly name: string; readonly type: string }>;
  readonly effects: SQL;
}

/** Group completion (completeWith): at most this many entries per statement, this many statements at once. */
const COMPLETION_BATCH_MAX = 64;
const COMPLETION_BATCHES_IN_FLIGHT = 2;

type CompletionEffects = (completed: SQL, ref: (name: string) => SQL) => readonly JobEffect[];

interface QueuedCompletion {
  readonly job: ClaimedJob;
  readonly effects: CompletionEffects;
  readonly resolve: (completed: boolean) => void;
  readonly reject: (error: unknown) => void;
}

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

  /**
   * Group completion: completeWith calls that arrive while earlier ones are being written wait and go
   * together in one statement (one round trip, one commit), each entry fenced by its own lease. Idle, a
   * completion is written at once (after the current tick, so completions of the same tick share it).
   */
  const queuedCompletions: QueuedCompletion[] = [];
  let completionBatchesInFlight = 0;

  function flushCompletions(): void {
    while (completionBatchesInFlight < COMPLETION_BATCHES_IN_FLIGHT && queuedCompletions.length > 0) {
      const batch = queuedCompletions.splice(0, COMPLETION_BATCH_MAX);
      completionBatchesInFlight += 1;
      void writeCompletions(batch).finally(() => {
        completionBatchesInFlight -= 1;
        flushCompletions();
      });
    }
  }

  async function writeCompletions(batch: readonly QueuedCompletion[]): Promise<void> {
    const now = clock.now().toISOString();
    const built: Array<{ entry: QueuedCompletion; ctes: SQL[]; completedName: string }> = [];
    for (const entry of batch) {
      // A single entry keeps the plain names (completed_job, the effects' own): callers that name an
      // earlier effect literally instead of through ref() still work alone, and fall back to that below.
      const suffix = batch.length === 1 ? "" : `__${built.length}`;
      const completedName = `completed_job${suffix}`;
      try {
        const list = entry.effects(sql.raw(`exists (select 1 from ${completedName})`), (name) => sql.raw(`${name}${suffix}`));
        for (const effect of list) {
          if (!/^[a-z_][a-z0-9_]*$/.test(effect.name) || effect.name.includes("__") || effect.name === "completed_job")
            throw new Error(`bad effect name ${effect.name}`);
        }
        built.push({
          entry,
          completedName,
          ctes: [
            sql`${sql.raw(completedName)} as (
              update jobs set status = 'succeeded', completed_at = ${now}::timestamptz, updated_at = ${now}::timestamptz,
                lease_token = null, lease_expires_at = null, last_error = null
              where id = ${entry.job.id} and lease_token = ${entry.job.leaseToken} and status = 'running'
              returning id
            )`,
            ...list.map((effect) => sql`${sql.raw(`${effect.name}${suffix}`)} as (${effect.statement})`),
          ],
        });
      } catch (error) {
        entry.reject(error);
      }
    }
    if (built.length === 0) return;
    try {
      const rows = await queryRows<Record<string, string | number>>(
        db,
        sql`with ${sql.join(
          built.flatMap((b) => b.ctes),
          sql`, `,
        )} select ${sql.join(
          built.map((b, i) => sql.raw(`(select count(*) from ${b.completedName}) as c${i}`)),
          sql`, `,
        )}`,
      );
      built.forEach((b, i) => {
        b.entry.resolve(Number(rows[0]?.[`c${i}`] ?? 0) === 1);
      });
    } catch (error) {
      if (built.length === 1) {
        built[0]?.entry.reject(error);
        return;
      }
      // The statement rolled back as a whole: one entry's failure must not fail the others, so each is
      // written on its own.
      await Promise.all(built.map((b) => writeCompletions([b.entry])));
    }
  }

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

    async enqueue(tx, job) {
      const now = clock.now();
      const id = ids.newId();
      const inserted = await tx
        .insert(jobs)
        .values({
          id,
          type: job.type,
          payload: job.payload ?? null,
          status: "pending",
          runAt: job.runAt ?? now,
          maxAttempts: job.maxAttempts ?? defaultMaxAttempts,
          dedupeKey: job.dedupeKey ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: jobs.dedupeKey })
        .returning({ id: jobs.id });
      return inserted[0]?.id ?? null;
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

    completeWith(job, effects) {
      return new Promise<boolean>((resolve, reject) => {
        queuedCompletions.push({ job, effects, resolve, reject });
        if (queuedCompletions.length === 1) queueMicrotask(flushCompletions);
      });
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
