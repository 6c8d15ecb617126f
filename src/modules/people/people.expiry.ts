// Sessions that expire: at their idle timeout or absolute lifetime a session is marked ended and the expiry
// recorded in the audit log, in one transaction, either when it is presented again (the access hook) or
// by the session sweep job, so sessions nobody presents again end too. The conditional update that ends a
// session lets exactly one of the two through, so each expiry is recorded once.
import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { AuditRecorder } from "./people.audit.js";
import { SESSION_SWEEP_JOB, SESSION_SWEEP_SLOT_MS } from "./people.jobs.js";
import { endSession, lockExpiredSessions, nextPossibleExpiry, type SessionRow } from "./people.repo.js";

export type ExpiryReason = "absolute_lifetime" | "idle_timeout";

export interface SessionExpiryDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly audit: AuditRecorder;
  readonly jobStore: Pick<JobStore, "enqueue">;
  readonly idleMs: number;
}

export type SessionExpiry = ReturnType<typeof createSessionExpiry>;

export function createSessionExpiry(deps: SessionExpiryDeps) {
  const { db, clock } = deps;
  /** A sweep at the first slot at or after `at` (fixed slots: every chain lands on the same jobs). */
  async function scheduleSweep(tx: Tx, at: Date): Promise<void> {
    const runAt = new Date(Math.ceil(at.getTime() / SESSION_SWEEP_SLOT_MS) * SESSION_SWEEP_SLOT_MS);
    await deps.jobStore.enqueue(tx, SESSION_SWEEP_JOB, {}, { runAt, dedupeKey: `session-sweep:${runAt.toISOString()}` });
  }

  /** Why a live session is no longer valid at `now`, or null while it is. */
  function expiryOf(row: Pick<SessionRow, "expiresAt" | "lastSeenAt">, now: Date): ExpiryReason | null {
    if (now.getTime() >= row.expiresAt.getTime()) return "absolute_lifetime";
    if (now.getTime() - row.lastSeenAt.getTime() >= deps.idleMs) return "idle_timeout";
    return null;
  }

  /** Ends an expired session and records it, once: the conditional update lets one of two enders through. */
  async function endExpiredSession(
    tx: Tx,
    row: SessionRow,
    reason: ExpiryReason,
    detectedBy: "presented" | "sweep",
    origin: { readonly clientAddress: string; readonly userAgent: string | null } | null,
  ): Promise<void> {
    if (!(await endSession(tx, row.id, clock.now(), reason))) return;
    await deps.audit(tx, {
      businessId: row.businessId,
      action: "session_expired",
      actor: {
        userId: row.userId,
        membershipId: row.membershipId,
        role: row.role,
        sessionId: row.id,
        clientAddress: origin?.clientAddress ?? null,
        userAgent: origin?.userAgent ?? null,
      },
      subjectType: "session",
      subjectId: row.id,
      details: {
        reason,
        detected_by: detectedBy,
        last_seen_at: row.lastSeenAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
      },
    });
  }

  /**
   * The sweep: ends every expired live session in batches (each batch one transaction: the sessions ended and
   * their audit records), then schedules the next sweep while live sessions remain. `complete` is called in
   * the last transaction, so the job's completion commits with it.
   */
  async function sweepExpiredSessions(complete: (tx: Tx) => Promise<boolean>): Promise<number> {
    const BATCH = 200;
    let ended = 0;
    for (;;) {
      const done = await transaction(db, async (tx) => {
        const now = clock.now();
        const rows = await lockExpiredSessions(tx, now, deps.idleMs, BATCH);
        for (const row of rows) {
          const reason = expiryOf(row, now);
          if (reason !== null) await endExpiredSession(tx, row, reason, "sweep", null);
        }
        ended += rows.length;
        if (rows.length === BATCH) return false;
        const next = await nextPossibleExpiry(tx, deps.idleMs);
        if (next !== null) await scheduleSweep(tx, new Date(Math.max(next.getTime(), now.getTime() + 1)));
        if (!(await complete(tx))) throw new Error("session sweep: the job's lease was lost");
        return true;
      });
      if (done) return ended;
    }
  }

  return { expiryOf, endExpiredSession, scheduleSweep, sweepExpiredSessions };
}
