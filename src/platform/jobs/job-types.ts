// The types that job definitions, the job store and the worker share, in a leaf that imports none of them: a
// definition builds handlers the worker runs, the store enqueues by definition and the worker completes claimed
// jobs through the store, so with these types in any one of the three files they would import each other in a
// circle. job-definition.ts, job-store.ts and worker.ts re-export the ones their callers use.
import type { SQL } from "drizzle-orm";
import type { Db } from "../db/client.js";

export interface JobDefinition<P extends object> {
  /** The job type stored in `jobs.type`: lower case, dots, underscores and dashes only. */
  readonly type: string;
  /** The payload version written with every job (`v`); a worker reads only this version. */
  readonly version: number;
  /** Default attempts before the job is buried; else the store's configured default. */
  readonly maxAttempts?: number;
  /** Dedupe key derived from the payload (`<prefix>:<field>:<field>…`); an enqueue may still pass its own. */
  readonly dedupeKey?: { readonly prefix: string; readonly fields: readonly (keyof P & string)[] };
  /** The stored form: the payload with its version. */
  encode(payload: P): Record<string, unknown>;
  /**
   * The payload of a claimed job. Throws PermanentJobError for a malformed payload or an older version no
   * longer read, RetryJobError for a newer version (a newer worker will read it).
   */
  decode(stored: unknown): P;
  /** The dedupe key the definition derives, or null when it derives none. */
  dedupeKeyOf(payload: P): string | null;
  /**
   * SQL for the stored payload built from one SQL expression per field (for statements that create jobs from
   * rows): `jsonb_build_object('v', <version>, '<field>', <expression>, …)`. Fixed text for fixed expressions.
   */
  payloadSql(fields: { readonly [K in keyof P]-?: SQL }): SQL;
  /** SQL for the dedupe key from the same expressions (`'<prefix>:' || <expression> || ':' || …`), or null. */
  dedupeKeySql(fields: { readonly [K in keyof P]-?: SQL }): SQL | null;
}

export type PayloadOf<D> = D extends JobDefinition<infer P> ? P : never;

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

export interface JobContext {
  readonly job: ClaimedJob;
  /**
   * Marks the job done inside the handler's own transaction, so its database effects and its completion
   * commit together. Returns false when the lease was lost (another worker owns the job now): the
   * handler must then throw to roll its transaction back.
   */
  completeWithin(tx: Db): Promise<boolean>;
  /** JobStore.completeGrouped for this job; false when the lease was lost (nothing was applied then). */
  completeGrouped(values: readonly unknown[], grouped: GroupedEffects): Promise<boolean>;
}

/**
 * A handler as the worker runs it, with the payload as stored. Modules write theirs with `jobHandler` (see
 * job-definition.ts), which decodes the payload first. Handlers may run more than once (a worker can die after
 * the effect, before recording it): make them idempotent.
 */
export type JobHandler = (payload: unknown, context: JobContext) => Promise<void>;
export type JobHandlers = Readonly<Record<string, JobHandler>>;
