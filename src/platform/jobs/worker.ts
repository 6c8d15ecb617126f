// The worker loop: claim due jobs, run their handlers after the enqueuing transaction committed, record
// the outcome. Any number of workers (in any number of processes) may share one database.
import { performance } from "node:perf_hooks";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.js";
import { LeaseLostError, PermanentJobError, RetryJobError } from "./job-errors.js";
import type { JobStore } from "./job-store.js";
import type { ClaimedJob, JobContext, JobHandlers } from "./job-types.js";

export { LeaseLostError, PermanentJobError, RetryJobError } from "./job-errors.js";
export type { JobContext, JobHandler, JobHandlers } from "./job-types.js";

export interface WorkerOptions {
  readonly store: JobStore;
  readonly handlers: JobHandlers;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
  readonly workerId: string;
  readonly concurrency: number;
  readonly pollIntervalMs: number;
  readonly leaseMs: number;
  /**
   * Optional wake-up source (see runtime.ts: PostgreSQL NOTIFY / PGlite listen): called with a function
   * that makes an idle worker poll at once instead of waiting out the poll interval; returns an unsubscribe.
   */
  readonly wakeups?: (nudge: () => void) => () => void;
  /**
   * A wake-up (or a freed slot) polls at once when the last poll is at least this old, else when it becomes
   * that old: under a steady stream of commits each claim then takes the jobs of several commits instead of
   * one claim (and one round trip) per commit. Default 10 ms.
   */
  readonly wakeupCoalesceMs?: number;
  /**
   * Hears the result of every poll of the loop (not of drain()): `claimed` (it took jobs), `empty` (nothing
   * was due), `full` (no free slot, nothing claimed), `failed` (the sweep or the claim threw). runtime.ts
   * counts them on /metrics.
   */
  readonly onPoll?: (result: PollResult) => void;
}

export type PollResult = "claimed" | "empty" | "full" | "failed";

export interface Worker {
  start(): void;
  /** Stops claiming, waits for claimed jobs to finish (bounded by timeoutMs). */
  stop(timeoutMs: number): Promise<void>;
  /** Claims and runs due jobs until none is due. For tests and scripts; the loop uses the same path. */
  drain(): Promise<number>;
  readonly running: boolean;
}

/** The longest a worker waits after polls that failed in a row, unless its poll interval is longer. */
const FAILED_POLL_MAX_DELAY_MS = 5_000;

/** After `failures` failed polls in a row: the poll interval, doubled per failure, at most 5 s (or the interval). */
export function failedPollDelayMs(pollIntervalMs: number, failures: number): number {
  return Math.min(pollIntervalMs * 2 ** Math.max(0, failures - 1), Math.max(pollIntervalMs, FAILED_POLL_MAX_DELAY_MS));
}

/** Default retry delay: 5 s, doubling per attempt, capped at 15 minutes. */
export function defaultRetryDelayMs(attempt: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempt - 1), 15 * 60_000);
}

export function createWorker(options: WorkerOptions): Worker {
  const { store, handlers, clock, logger, workerId, concurrency, pollIntervalMs, leaseMs } = options;
  const handledTypes = Object.keys(handlers);
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  /** The poll under way, if any: stop() waits for it, since the jobs it is claiming must be awaited too. */
  let polling: Promise<void> | null = null;
  let lastSweepAt = 0;
  /** A nudge arrived while a poll was under way: poll again right after it. */
  let nudged = false;
  let unsubscribeWakeups: (() => void) | null = null;
  const coalesceMs = options.wakeupCoalesceMs ?? 10;
  /** performance.now() when the last poll started, and when the pending timer fires. */
  let lastPollAt = Number.NEGATIVE_INFINITY;
  let timerDueAt = Number.POSITIVE_INFINITY;
  /** Polls that failed in a row (the database is away): each waits twice as long, up to FAILED_POLL_MAX_DELAY_MS. */
  let failedPolls = 0;

  function schedule(delayMs: number): void {
    const dueAt = performance.now() + delayMs;
    // A poll already due sooner stays as it is.
    if (timer !== null && timerDueAt <= dueAt) return;
    if (timer !== null) clearTimeout(timer);
    timerDueAt = dueAt;
    timer = setTimeout(poll, delayMs);
  }

  function nudge(): void {
    if (!running) return;
    if (polling !== null) {
      nudged = true;
      return;
    }
    schedule(Math.max(0, lastPollAt + coalesceMs - performance.now()));
  }

  async function runJob(job: ClaimedJob): Promise<void> {
    const handler = handlers[job.type];
    const log = logger.child({ job_id: job.id, job_type: job.type, attempt: job.attempt });
    if (handler === undefined) {
      await store.fail(job, `no handler for job type ${job.type}`, clock.now());
      log.error("no handler for job type");
      return;
    }
    let completedInTx = false;
    const context: JobContext = {
      job,
      completeWithin: async (tx) => {
        completedInTx = await store.complete(job, tx);
        return completedInTx;
      },
      completeGrouped: async (values, grouped) => {
        completedInTx = await store.completeGrouped(job, values, grouped);
        return completedInTx;
      },
    };
    try {
      await handler(job.payload, context);
      if (!completedInTx) {
        const completed = await store.complete(job);
        if (!completed) log.warn("job finished after its lease was taken over; outcome not recorded");
      }
    } catch (error) {
      if (error instanceof LeaseLostError) {
        log.warn("job lease lost; another worker owns it");
        return;
      }
      const delay = error instanceof RetryJobError ? error.delayMs : defaultRetryDelayMs(job.attempt);
      const message = error instanceof Error ? error.message : String(error);
      const retryAt = error instanceof PermanentJobError ? null : new Date(clock.now().getTime() + delay);
      const outcome = await store.fail(job, message, retryAt);
      log.warn({ err: error, outcome }, "job failed");
    }
  }

  async function claimAndRun(limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const claimed = await store.claim(workerId, limit, leaseMs, handledTypes);
    for (const job of claimed) {
      const promise: Promise<void> = runJob(job)
        .catch((error) => logger.error({ err: error, job_id: job.id }, "job bookkeeping failed"))
        .finally(() => {
          inFlight.delete(promise);
          // Half the slots free: look for more work now rather than after the poll interval (claims stay
          // batched, so a busy worker does not issue one claim per finished job).
          if (options.wakeups !== undefined && running && inFlight.size <= Math.floor(concurrency / 2)) nudge();
        });
      inFlight.add(promise);
    }
    return claimed.length;
  }

  async function maybeSweep(): Promise<void> {
    const now = clock.now().getTime();
    if (now - lastSweepAt < Math.min(leaseMs / 2, 30_000)) return;
    lastSweepAt = now;
    const reclaimed = await store.reclaimExpired();
    if (reclaimed > 0) logger.warn({ reclaimed }, "reclaimed jobs whose lease expired");
  }

  async function tick(): Promise<void> {
    timer = null;
    timerDueAt = Number.POSITIVE_INFINITY;
    if (!running) return;
    lastPollAt = performance.now();
    let claimed = 0;
    let limit = 0;
    let result: PollResult;
    try {
      await maybeSweep();
      limit = concurrency - inFlight.size;
      claimed = await claimAndRun(limit);
      result = claimed > 0 ? "claimed" : limit <= 0 ? "full" : "empty";
    } catch (error) {
      failedPolls += 1;
      logger.error({ err: error, failed_polls: failedPolls }, "worker poll failed");
      result = "failed";
    }
    options.onPoll?.(result);
    if (!running) return;
    // A full batch: look again at once (a backlog). Some jobs, or a wake-up meanwhile: look again once the
    // coalescing window has passed. Otherwise wait for the poll interval, a wake-up or a free slot.
    // A failed poll (the database is down or restarting) backs off, so an outage costs a log line every few
    // seconds rather than one per poll interval; the wake-up listener's reconnection nudges the loop at once.
    const backoff = result === "failed" ? failedPollDelayMs(pollIntervalMs, failedPolls) : null;
    if (result !== "failed") failedPolls = 0;
    const delay =
      backoff !== null
        ? backoff
        : (claimed > 0 || nudged) && inFlight.size < concurrency
          ? claimed > 0 && claimed >= limit
            ? 0
            : Math.max(0, lastPollAt + coalesceMs - performance.now())
          : pollIntervalMs;
    nudged = false;
    schedule(delay);
  }

  function poll(): void {
    polling = tick().finally(() => {
      polling = null;
    });
  }

  return {
    get running() {
      return running;
    },
    start() {
      if (running) return;
      running = true;
      if (options.wakeups !== undefined) unsubscribeWakeups = options.wakeups(nudge);
      schedule(0);
    },
    async stop(timeoutMs) {
      running = false;
      unsubscribeWakeups?.();
      unsubscribeWakeups = null;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      timerDueAt = Number.POSITIVE_INFINITY;
      const pollUnderWay = polling;
      if (pollUnderWay === null && inFlight.size === 0) return;
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        // A poll under way may still add claimed jobs to inFlight: wait for it first.
        (async () => {
          await pollUnderWay;
          await Promise.allSettled([...inFlight]);
        })(),
        new Promise<void>((resolve) => {
          timeout = setTimeout(resolve, timeoutMs);
        }),
      ]);
      if (timeout) clearTimeout(timeout);
    },
    async drain() {
      let total = 0;
      for (;;) {
        await store.reclaimExpired();
        const claimed = await claimAndRun(concurrency);
        await Promise.allSettled([...inFlight]);
        if (claimed === 0) return total;
        total += claimed;
      }
    },
  };
}
