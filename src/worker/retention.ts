// The retention sweep: rows that nobody can use any more are deleted a retention period after they became
// useless, so a self-hosted instance does not keep password hashes, addresses, link tokens and sign-in details
// forever. Each module deletes its own rows through a function on its index.ts; this job only says when.
//
//   pending registrations, team invitations, password resets   EXPIRED_TOKEN_RETENTION_DAYS (7) after expiry
//   captured sandbox e-mail                                     SANDBOX_EMAIL_RETENTION_DAYS (30) after capture
//   ended sessions (but each person's latest sign-in)           ENDED_SESSION_RETENTION_DAYS (30) after the end
//   failed sign-ins                                             once out of the throttling window
//
// Scheduling: fixed hourly slots, as the session sweep's. A worker process enqueues the sweep of the next slot
// when it starts, and every sweep first enqueues the sweep of the slot after it (committed on its own, so a sweep
// that fails for good does not end the chain); the dedupe key names the slot, so every process and the running
// chain land on one job per slot. A row therefore goes at most an hour after its period ends.
//
// Bounded work: every deletion is a batch of at most RETENTION_BATCH_SIZE rows in its own transaction, and a run
// does at most RETENTION_BATCHES_PER_RUN batches of each kind; when rows are left, a fresh job due at once
// continues, so a large backlog (the first sweep after an upgrade) never holds one long transaction and no run
// outlives its lease. Batches lock the rows they delete with SKIP LOCKED, so two sweeps at once (two workers,
// an overdue slot and its successor) take different rows, and deleting what is already gone does nothing:
// every sweep is idempotent.
import { Type } from "@sinclair/typebox";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import { pruneCapturedEmails } from "../modules/emails/index.js";
import {
  pruneEndedSessions,
  pruneExpiredInvitations,
  pruneExpiredPasswordResets,
  pruneSignInFailures,
} from "../modules/people/index.js";
import { pruneExpiredRegistrations } from "../modules/registration/index.js";
import type { Clock } from "../platform/clock.js";
import type { Db } from "../platform/db/client.js";
import { defineJob, jobHandler } from "../platform/jobs/job-definition.js";
import type { JobStore } from "../platform/jobs/job-store.js";
import type { JobHandlers } from "../platform/jobs/worker.js";

export const RETENTION_SWEEP_JOB = defineJob({ type: "retention.sweep", version: 1, payload: Type.Object({}) });

export const RETENTION_SWEEP_SLOT_MS = 60 * 60_000;
/** Rows per transaction, and transactions per kind of row in one run (then a fresh job continues). */
export const RETENTION_BATCH_SIZE = 500;
export const RETENTION_BATCHES_PER_RUN = 4;

const DAY_MS = 24 * 60 * 60_000;

/** One kind of row: how long it is kept, and its owner's function that deletes a batch of those older than that. */
interface RetentionStep {
  readonly kind: string;
  readonly keepMs: number;
  readonly prune: (db: Db, before: Date, limit: number) => Promise<number>;
}

/** Enqueues the sweep of the first slot after `now` (a no-op when that slot's sweep exists already). */
export async function scheduleRetentionSweep(db: Db, jobStore: Pick<JobStore, "enqueue">, now: Date): Promise<void> {
  const runAt = new Date((Math.floor(now.getTime() / RETENTION_SWEEP_SLOT_MS) + 1) * RETENTION_SWEEP_SLOT_MS);
  await jobStore.enqueue(db, RETENTION_SWEEP_JOB, {}, { runAt, dedupeKey: `retention-sweep:${runAt.toISOString()}` });
}

export function createRetentionHandler(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly jobStore: Pick<JobStore, "enqueue">;
  readonly logger: Pick<Logger, "info">;
  readonly retention: Config["retention"];
  /** Failed sign-ins are read only within this window (SIGN_IN_THROTTLE_WINDOW_MINUTES). */
  readonly signInThrottleWindowMs: number;
}): JobHandlers {
  const { db, clock, jobStore, logger, retention } = deps;
  const steps: readonly RetentionStep[] = [
    { kind: "pending_registrations", keepMs: retention.expiredTokenDays * DAY_MS, prune: pruneExpiredRegistrations },
    { kind: "invitations", keepMs: retention.expiredTokenDays * DAY_MS, prune: pruneExpiredInvitations },
    { kind: "password_resets", keepMs: retention.expiredTokenDays * DAY_MS, prune: pruneExpiredPasswordResets },
    { kind: "sandbox_emails", keepMs: retention.sandboxEmailDays * DAY_MS, prune: pruneCapturedEmails },
    { kind: "sessions", keepMs: retention.endedSessionDays * DAY_MS, prune: pruneEndedSessions },
    { kind: "sign_in_failures", keepMs: deps.signInThrottleWindowMs, prune: pruneSignInFailures },
  ];

  return jobHandler(RETENTION_SWEEP_JOB, async (_payload, context) => {
    const now = clock.now();
    await scheduleRetentionSweep(db, jobStore, now);
    const deleted: Record<string, number> = {};
    let rowsLeft = false;
    for (const step of steps) {
      const before = new Date(now.getTime() - step.keepMs);
      let count = 0;
      for (let batch = 0; ; batch += 1) {
        if (batch === RETENTION_BATCHES_PER_RUN) {
          rowsLeft = true;
          break;
        }
        const n = await step.prune(db, before, RETENTION_BATCH_SIZE);
        count += n;
        // A short batch: nothing left that this sweep could lock (another sweep may hold the rest).
        if (n < RETENTION_BATCH_SIZE) break;
      }
      if (count > 0) deleted[step.kind] = count;
    }
    if (Object.keys(deleted).length > 0) logger.info({ deleted }, "retention sweep deleted rows past their retention period");
    if (rowsLeft) {
      await jobStore.enqueue(db, RETENTION_SWEEP_JOB, {}, { dedupeKey: `retention-sweep:after:${context.job.id}` });
    }
  });
}
