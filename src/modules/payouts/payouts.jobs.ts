// The payouts module's jobs: the disbursement path (see payouts.disbursement.ts for what each one does).
// The rail simulator's control endpoint enqueues PAYOUT_RAIL_OUTCOME_JOB too, through this module's index.ts.
import { Type } from "@sinclair/typebox";
import type { Tx } from "../../platform/db/client.js";
import { defineJob } from "../../platform/jobs/job-definition.js";
import type { JobStore } from "../../platform/jobs/job-store.js";

/** A rail outcome as a job carries it (rails/rail.ts SerializedRailOutcome): dates travel as ISO strings. */
const SerializedRailOutcomeSchema = Type.Union([
  Type.Object({ type: Type.Literal("acknowledged") }),
  Type.Object({ type: Type.Literal("estimated_arrival"), estimatedArrivalAt: Type.String() }),
  Type.Object({ type: Type.Literal("disbursed"), disbursedAt: Type.Optional(Type.String()) }),
  Type.Object({ type: Type.Literal("delivered"), deliveredAt: Type.String() }),
  Type.Object({ type: Type.Literal("returned"), reason: Type.String() }),
  Type.Object({ type: Type.Literal("failed"), reason: Type.String() }),
  Type.Object({ type: Type.Literal("canceled"), reason: Type.String() }),
  Type.Object({ type: Type.Literal("compliance_hold"), reason: Type.String() }),
  Type.Object({ type: Type.Literal("compliance_hold_cleared") }),
]);

/** Calls the rail for an approved payout (enqueued by the approving transaction, and again when a hold clears). */
export const PAYOUT_DISBURSE_JOB = defineJob({
  type: "payout.disburse",
  version: 1,
  payload: Type.Object({ payoutId: Type.String() }),
});

/**
 * Enqueues the disbursement of an approved payout, in the approving transaction (one job per payout); answers the
 * job's id, or null when the payout's disbursement job exists already.
 */
export async function enqueueDisbursement(jobStore: Pick<JobStore, "enqueue">, tx: Tx, payoutId: string): Promise<string | null> {
  return jobStore.enqueue(tx, PAYOUT_DISBURSE_JOB, { payoutId }, { dedupeKey: `payout-disburse:${payoutId}` });
}

/**
 * Applies one rail outcome. Outcomes a rail scheduled at submission are chained: `next` holds those still to
 * come (each with its absolute time), `chainId` and `position` tell the jobs of one chain apart.
 */
export const PAYOUT_RAIL_OUTCOME_JOB = defineJob({
  type: "payout.rail_outcome",
  version: 1,
  payload: Type.Object({
    payoutId: Type.String(),
    outcome: SerializedRailOutcomeSchema,
    next: Type.Optional(Type.Array(Type.Object({ runAt: Type.String(), outcome: SerializedRailOutcomeSchema }))),
    chainId: Type.Optional(Type.String()),
    position: Type.Optional(Type.Integer()),
  }),
});

/** Settles a production payout still `disbursed` at the close of its return window. */
export const PAYOUT_SETTLE_JOB = defineJob({
  type: "payout.settle",
  version: 1,
  payload: Type.Object({ payoutId: Type.String() }),
});

/**
 * Fails a production payout still waiting for funds when its funding account's `awaiting_funds_expiry_hours`
 * have passed since it started waiting (enqueued by the approval that made it wait).
 */
export const PAYOUT_FUNDS_EXPIRY_JOB = defineJob({
  type: "payout.funds_expiry",
  version: 1,
  payload: Type.Object({ payoutId: Type.String() }),
});
