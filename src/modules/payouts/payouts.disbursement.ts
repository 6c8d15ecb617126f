// Disbursement: the three job handlers that move an approved payout through its rail.
//
// `payout.disburse` (enqueued by the approving transaction, runs after it committed):
//   1. transaction: lock the payout; if it is on compliance hold before the rail was called, note the
//      deferral and end (the release of the hold enqueues a new job); if it is still approved and has no
//      attempt, record attempt 1 with its
//      idempotency key (`payout_<id>_1`) as `submitting`, and mark the payout's disbursement as started
//      (from then on the Business can no longer cancel). An attempt already `submitting` means an earlier
//      run died after this step: it is resumed with the same key. A resolved attempt means nothing to do.
//   2. no transaction: read the destination (deleted or not: spec, Rules tied to states 1) with its
//      decrypted details, and call `rail.submit` with the attempt's key. A rail treats a repeated key as the
//      same request, so a crash between 2 and 3 cannot send the money twice.
//   3. transaction: resolve the attempt (conditional on `submitting`); accepted -> rail_ref and
//      `payout.disbursement_submitted`, and the rail's scheduled outcomes become `payout.rail_outcome` jobs;
//      refused -> the payout fails (`payout.failed`). The job completes in this same transaction.
// `payout.rail_outcome`: one outcome, one state-machine move with its event. An outcome that no longer
//   applies (a repeat, or the payout moved on) is logged and completed, never retried. Outcomes a rail
//   scheduled at submission are chained (each job enqueues the next), so they apply in the rail's order.
// `payout.settle`: at the close of the return window, a production payout still `disbursed` settles.
import type { Tenant } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import type { IdGenerator } from "../../platform/ids.js";
import { jobHandler, type PayloadOf } from "../../platform/jobs/job-definition.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import { type JobHandlers, LeaseLostError, PermanentJobError } from "../../platform/jobs/worker.js";
import {
  parseRailOutcome,
  type RailOutcome,
  type RailRegistry,
  type SerializedRailOutcome,
  serializeRailOutcome,
} from "../../rails/rail.js";
import { railDestinationOf } from "../destinations/index.js";
import { isScreeningBlocked } from "./payouts.gates.js";
import { PAYOUT_DISBURSE_JOB, PAYOUT_RAIL_OUTCOME_JOB, PAYOUT_SETTLE_JOB } from "./payouts.jobs.js";
import type { Lifecycle } from "./payouts.lifecycle.js";
import {
  type AttemptRow,
  findBeneficiaryById,
  findDestinationById,
  findLatestAttempt,
  insertAttempt,
  lockDeferredPayoutsOf,
  lockPayoutById,
  type PayoutRow,
  resolveAttempt,
  updatePayoutIf,
} from "./payouts.repo.js";
import type { PayoutTrigger } from "./payouts.state.js";

export interface DisbursementLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface DisbursementDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  readonly jobStore: Pick<JobStore, "enqueue">;
  readonly rails: RailRegistry;
  readonly lifecycle: Lifecycle;
  readonly logger: DisbursementLogger;
  readonly returnWindowHours: number;
  /** From the bank-rails module (a port): whether a production payout waits for a bank file instead. */
  readonly bankRails: BankRailQueue;
}

/**
 * The bank-file rails: `route` names the bank rail a production payout goes to (null: the registry's rail),
 * or refuses it; `queue` records it for that rail's next cut-off, in the caller's transaction.
 */
export interface BankRailQueue {
  route(tx: Tx, payout: PayoutRow): Promise<{ rail: string } | { refused: string } | null>;
  queue(tx: Tx, payout: PayoutRow, rail: string): Promise<void>;
}

type OutcomePayload = PayloadOf<typeof PAYOUT_RAIL_OUTCOME_JOB>;

function readOutcomePayload(payload: OutcomePayload): { payoutId: string; outcome: RailOutcome; chained: OutcomePayload } {
  const outcome = parseRailOutcome(payload.outcome);
  for (const value of Object.values(outcome)) {
    if (value instanceof Date && Number.isNaN(value.getTime())) throw new PermanentJobError("rail outcome with an invalid date");
  }
  return { payoutId: payload.payoutId, outcome, chained: payload };
}

/**
 * Every rail outcome is, field for field, a trigger of the payout state machine (the two unions share their
 * variants), so an outcome is applied as it is; the compiler keeps the two vocabularies in step.
 */
const asTrigger = (outcome: RailOutcome): PayoutTrigger => outcome;

export function createDisbursementHandlers(deps: DisbursementDeps): JobHandlers {
  const { db, clock, ids, cipher, jobStore, rails, lifecycle, logger } = deps;
  const windowMs = deps.returnWindowHours * 3_600_000;

  async function enqueueSettlement(tx: Tx, payout: PayoutRow, reason: string): Promise<void> {
    if (payout.environment !== "production" || payout.disbursedAt === null) return;
    const due = Math.max(payout.disbursedAt.getTime() + windowMs, clock.now().getTime());
    await jobStore.enqueue(
      tx,
      PAYOUT_SETTLE_JOB,
      { payoutId: payout.id },
      { runAt: new Date(due), dedupeKey: `payout-settle:${payout.id}:${reason}:${clock.now().getTime()}` },
    );
  }

  /**
   * The one start of a disbursement, whatever the rail: attempt 1 recorded as `submitting` with its idempotency
   * key, and the payout marked as started on `rail` (from then on the Business can no longer cancel), in the
   * caller's transaction, the payout locked. `queued`: a bank rail's cut-off submits it; `submitting`: the API
   * rail is called after commit.
   */
  async function startAttempt(
    tx: Tx,
    payoutId: string,
    rail: string,
    disbursementStatus: "queued" | "submitting",
  ): Promise<{ marked: PayoutRow; attempt: AttemptRow }> {
    const now = clock.now();
    const attempt = await insertAttempt(tx, {
      id: ids.newId(),
      payoutId,
      attemptNumber: 1,
      rail,
      idempotencyKey: `payout_${payoutId}_1`,
      status: "submitting",
      createdAt: now,
      updatedAt: now,
    });
    const marked = await updatePayoutIf(tx, payoutId, "approved", {
      disbursementStartedAt: now,
      rail,
      disbursementStatus,
      updatedAt: now,
    });
    if (marked === null) throw new Error("payout left approved while locked");
    return { marked, attempt };
  }

  const disburse = jobHandler(PAYOUT_DISBURSE_JOB, async ({ payoutId }, context) => {
    // Step 1: record the attempt before the rail hears of it.
    const started = await transaction(db, async (tx) => {
      const payout = await lockPayoutById(tx, payoutId);
      if (payout === null) return null;
      if (payout.status === "compliance_hold" && payout.heldFromStatus === "approved" && payout.disbursementStartedAt === null) {
        // Held before the rail heard of it: this job ends here, and the release dispatches it again.
        await updatePayoutIf(tx, payoutId, "compliance_hold", { disbursementDeferredAt: clock.now() });
        return null;
      }
      if (payout.status !== "approved") return null;
      // Waiting for funds (enforce): nothing is sent; the release that reserves it dispatches it again.
      if (payout.fundingStatus === "awaiting_funds") return null;
      const latest = await findLatestAttempt(tx, payoutId);
      if (latest !== null && latest.rail !== "sepa" && latest.rail !== "ach") {
        return latest.status === "submitting" ? { payout, attempt: latest } : null;
      }
      if (latest !== null) return null; // waiting for its bank file, or already in one
      // A sanctions screening hit waiting for review (or confirmed): nothing is sent; clearing the hit
      // dispatches it again (releaseScreeningHold below).
      const beneficiary = await findBeneficiaryById(tx, payout.beneficiaryId);
      if (beneficiary !== null && isScreeningBlocked(beneficiary.screeningStatus)) {
        await updatePayoutIf(tx, payoutId, "approved", { disbursementDeferredAt: clock.now() });
        return null;
      }
      const bankRoute = payout.environment === "production" ? await deps.bankRails.route(tx, payout) : null;
      if (bankRoute !== null && "refused" in bankRoute) {
        await lifecycle.apply(
          tx,
          payout,
          { type: "failed", reason: bankRoute.refused },
          { extraPatch: { disbursementStatus: "refused" } },
        );
        return null;
      }
      if (bankRoute !== null) {
        // A bank rail: the attempt is recorded now and resolved when the cut-off puts the payout in a file.
        const { marked } = await startAttempt(tx, payoutId, bankRoute.rail, "queued");
        await deps.bankRails.queue(tx, marked, bankRoute.rail);
        return null;
      }
      // An API rail: the attempt is submitted in step 2.
      const { marked, attempt } = await startAttempt(tx, payoutId, rails.forEnvironment(payout.environment).name, "submitting");
      return { payout: marked, attempt };
    });
    if (started === null) {
      logger.info({ payout_id: payoutId }, "payout needs no disbursement (not approved, or already submitted)");
      return;
    }
    const { payout, attempt } = started;

    // Step 2: the rail call, outside any transaction.
    const destinationRow = await findDestinationById(db, payout.destinationId);
    const beneficiary = await findBeneficiaryById(db, payout.beneficiaryId);
    if (destinationRow === null || beneficiary === null) throw new Error("payout names a missing destination or Beneficiary");
    const rail = rails.forEnvironment(payout.environment);
    const result = await rail.submit({
      environment: payout.environment,
      payoutId: payout.id,
      idempotencyKey: attempt.idempotencyKey,
      amountMinor: payout.amountMinor,
      currency: payout.currency,
      externalRef: payout.externalRef,
      beneficiary: {
        beneficiaryId: beneficiary.id,
        beneficiaryType: beneficiary.beneficiaryType,
        name: beneficiary.name,
        email: beneficiary.email,
        country: beneficiary.countryOfResidence ?? beneficiary.countryOfIncorporation,
      },
      destination: railDestinationOf(cipher, destinationRow),
    });

    // Step 3: record what the rail said, and complete the job with it.
    await transaction(db, async (tx) => {
      const current = await lockPayoutById(tx, payoutId);
      if (current === null) throw new Error("payout vanished");
      const now = clock.now();
      const resolved = await resolveAttempt(tx, attempt.id, {
        status: result.accepted ? "submitted" : "refused",
        railRef: result.accepted ? result.railRef : null,
        failureReason: result.accepted ? null : result.reason,
        updatedAt: now,
      });
      if (resolved) {
        if (result.accepted) {
          await lifecycle.apply(
            tx,
            current,
            { type: "submitted" },
            { extraPatch: { railRef: result.railRef, disbursementStatus: "submitted" } },
          );
          await enqueueChain(tx, payoutId, attempt.id, now, result.scheduledOutcomes);
        } else {
          const failed = await lifecycle.apply(
            tx,
            current,
            { type: "failed", reason: result.reason },
            { extraPatch: { disbursementStatus: "refused" } },
          );
          if (failed.kind !== "moved")
            logger.warn({ payout_id: payoutId, outcome: failed.kind }, "refused payout could not fail");
        }
      }
      if (!(await context.completeWithin(tx))) throw new LeaseLostError();
    });
  });

  async function enqueueChain(
    tx: Tx,
    payoutId: string,
    chainId: string,
    submittedAt: Date,
    scheduled: ReadonlyArray<{ afterMs: number; outcome: RailOutcome }>,
  ): Promise<void> {
    const timed = scheduled.map((item) => ({
      runAt: new Date(submittedAt.getTime() + Math.max(0, item.afterMs)).toISOString(),
      outcome: serializeRailOutcome(item.outcome),
    }));
    await enqueueNext(tx, payoutId, chainId, 0, timed);
  }

  async function enqueueNext(
    tx: Tx,
    payoutId: string,
    chainId: string,
    position: number,
    remaining: ReadonlyArray<{ runAt: string; outcome: SerializedRailOutcome }>,
  ): Promise<void> {
    const [first, ...rest] = remaining;
    if (first === undefined) return;
    await jobStore.enqueue(
      tx,
      PAYOUT_RAIL_OUTCOME_JOB,
      { payoutId, outcome: first.outcome, next: rest, chainId, position },
      { runAt: new Date(first.runAt), dedupeKey: `payout-outcome:${chainId}:${position}` },
    );
  }

  /**
   * A payout whose disbursement job ended on a hold (disbursement_deferred_at) gets a new one when the hold
   * clears. Only then: a payout released before its first job ran still has that job, and two live
   * disbursement jobs for one payout would call the rail twice (with the same key, but still twice).
   */
  async function redispatchDeferred(tx: Tx, payout: PayoutRow): Promise<void> {
    if (payout.status !== "approved" || payout.disbursementDeferredAt === null || payout.disbursementStartedAt !== null) return;
    await updatePayoutIf(tx, payout.id, "approved", { disbursementDeferredAt: null });
    await jobStore.enqueue(
      tx,
      PAYOUT_DISBURSE_JOB,
      { payoutId: payout.id },
      { dedupeKey: `payout-disburse:${payout.id}:released:${payout.disbursementDeferredAt.getTime()}` },
    );
  }

  const applyOutcome = jobHandler(PAYOUT_RAIL_OUTCOME_JOB, async (payload, context) => {
    const { payoutId, outcome, chained } = readOutcomePayload(payload);
    await transaction(db, async (tx) => {
      const payout = await lockPayoutById(tx, payoutId);
      if (payout === null) {
        logger.warn({ payout_id: payoutId, outcome: outcome.type }, "rail outcome for an unknown payout ignored");
        await completeOutcomeJob(tx);
      } else {
        // The move's follow-ups and the job's completion are written before its posting on the funding account
        // (beforeMoney), so that the posting is the transaction's last statement and the funding account's row,
        // shared by every payout of the account, stays locked for its commit only.
        const applied = await lifecycle.apply(tx, payout, asTrigger(outcome), {
          beforeMoney: async (tx, moved) => {
            if (outcome.type === "disbursed") await enqueueSettlement(tx, moved, "disbursed");
            if (outcome.type === "compliance_hold_cleared" && moved.status === "disbursed")
              await enqueueSettlement(tx, moved, "hold-cleared");
            if (outcome.type === "compliance_hold_cleared") await redispatchDeferred(tx, moved);
            await completeOutcomeJob(tx);
          },
        });
        if (applied.kind !== "moved") {
          // A repeat or an outcome that no longer applies: recorded in the log, never retried.
          logger.info(
            { payout_id: payoutId, outcome: outcome.type, status: payout.status, result: applied.kind },
            "rail outcome not applied",
          );
          await completeOutcomeJob(tx);
        }
      }
    });

    async function completeOutcomeJob(tx: Tx): Promise<void> {
      if (chained.next !== undefined && chained.chainId !== undefined) {
        await enqueueNext(tx, payoutId, chained.chainId, (chained.position ?? 0) + 1, chained.next);
      }
      if (!(await context.completeWithin(tx))) throw new LeaseLostError();
    }
  });

  const settle = jobHandler(PAYOUT_SETTLE_JOB, async ({ payoutId }, context) => {
    await transaction(db, async (tx) => {
      const payout = await lockPayoutById(tx, payoutId);
      const due = payout?.disbursedAt != null && payout.disbursedAt.getTime() + windowMs <= clock.now().getTime();
      if (payout !== null && payout.status === "disbursed" && due) {
        await lifecycle.apply(tx, payout, { type: "settle" });
      } else if (payout !== null) {
        logger.info({ payout_id: payoutId, status: payout.status }, "settlement not applied");
      }
      if (!(await context.completeWithin(tx))) throw new LeaseLostError();
    });
  });

  return { ...disburse, ...applyOutcome, ...settle };
}

/**
 * For the screening module: a Beneficiary's screening hit was cleared (or withdrawn), so its approved payouts
 * held before the rail heard of them are dispatched again, in the caller's transaction.
 */
export function createScreeningHoldRelease(deps: { readonly jobStore: Pick<JobStore, "enqueue"> }) {
  return async function releaseScreeningHold(tx: Tx, tenant: Tenant, beneficiaryId: string): Promise<number> {
    const held = await lockDeferredPayoutsOf(tx, tenant, beneficiaryId);
    for (const payout of held) {
      const deferredAt = payout.disbursementDeferredAt as Date;
      await updatePayoutIf(tx, payout.id, "approved", { disbursementDeferredAt: null });
      await deps.jobStore.enqueue(
        tx,
        PAYOUT_DISBURSE_JOB,
        { payoutId: payout.id },
        { dedupeKey: `payout-disburse:${payout.id}:released:${deferredAt.getTime()}` },
      );
    }
    return held.length;
  };
}
