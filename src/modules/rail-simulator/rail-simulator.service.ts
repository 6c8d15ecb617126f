// The operator's control of the production simulator: push any rail outcome for a production payout, as a
// real rail's callback would. The outcome becomes a `payout.rail_outcome` job, applied by the payouts module
// exactly like the simulator's own scheduled outcomes (its state machine decides whether the move is allowed).
import { createHash, timingSafeEqual } from "node:crypto";
import { type Db, transaction } from "../../platform/db/client.js";
import { AppError, type ErrorDetail } from "../../platform/errors.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { SerializedRailOutcome } from "../../rails/rail.js";
import { PAYOUT_RAIL_OUTCOME_JOB } from "../payouts/index.js";
import { findPayoutEnvironment } from "../payouts/payouts.shared.js";
import type { PushOutcomeBody, PushOutcomeResponse } from "./rail-simulator.schemas.js";

export interface RailSimulatorServiceDeps {
  readonly db: Db;
  readonly jobStore: Pick<JobStore, "enqueue">;
  readonly controlToken: string;
}

export type RailSimulatorService = ReturnType<typeof createRailSimulatorService>;

const NEEDS_REASON = new Set(["returned", "failed", "canceled", "compliance_hold"]);
const FIELD_OF_TYPE: Readonly<Record<string, "estimated_arrival_at" | "delivered_at">> = {
  estimated_arrival: "estimated_arrival_at",
  delivered: "delivered_at",
};

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** Checks which fields the outcome's type needs, and turns the body into the job's outcome. */
export function toSerializedOutcome(body: PushOutcomeBody): SerializedRailOutcome {
  const details: ErrorDetail[] = [];
  const wantsReason = NEEDS_REASON.has(body.type);
  if (wantsReason && body.reason === undefined) {
    details.push({ field: "reason", code: "required", message: `A ${body.type} outcome needs a reason.` });
  }
  if (!wantsReason && body.reason !== undefined) {
    details.push({ field: "reason", code: "unknown_field", message: `A ${body.type} outcome takes no reason.` });
  }
  for (const field of ["estimated_arrival_at", "delivered_at"] as const) {
    const wanted = FIELD_OF_TYPE[body.type] === field;
    if (wanted && body[field] === undefined) {
      details.push({ field, code: "required", message: `A ${body.type} outcome needs ${field}.` });
    }
    if (!wanted && body[field] !== undefined) {
      details.push({ field, code: "unknown_field", message: `A ${body.type} outcome takes no ${field}.` });
    }
  }
  if (details.length > 0) throw new AppError("validation_failed", { details });
  const iso = (value: string | undefined) => new Date(value ?? "").toISOString();
  switch (body.type) {
    case "estimated_arrival":
      return { type: body.type, estimatedArrivalAt: iso(body.estimated_arrival_at) };
    case "delivered":
      return { type: body.type, deliveredAt: iso(body.delivered_at) };
    case "returned":
    case "failed":
    case "canceled":
    case "compliance_hold":
      return { type: body.type, reason: body.reason ?? "" };
    default:
      return { type: body.type };
  }
}

export function presentOutcome(outcome: SerializedRailOutcome): PushOutcomeResponse["outcome"] {
  switch (outcome.type) {
    case "estimated_arrival":
      return { type: outcome.type, estimated_arrival_at: outcome.estimatedArrivalAt };
    case "delivered":
      return { type: outcome.type, delivered_at: outcome.deliveredAt };
    case "returned":
    case "failed":
    case "canceled":
    case "compliance_hold":
      return { type: outcome.type, reason: outcome.reason };
    default:
      return { type: outcome.type };
  }
}

export function createRailSimulatorService(deps: RailSimulatorServiceDeps) {
  const expected = digest(deps.controlToken);

  /** Constant-time comparison of equal-length digests, so neither the token nor its length leaks by timing. */
  function verifyToken(presented: string | null): void {
    if (presented === null || !timingSafeEqual(digest(presented), expected)) {
      throw new AppError("unauthorized", {
        message: "A valid simulator control token is required: send `Authorization: Bearer <SIMULATOR_CONTROL_TOKEN>`.",
      });
    }
  }

  async function pushOutcome(payoutId: string, body: PushOutcomeBody): Promise<PushOutcomeResponse> {
    const outcome = toSerializedOutcome(body);
    // Production payouts only: sandbox payouts stop at disbursed (spec, What the service does 5).
    if ((await findPayoutEnvironment(deps.db, payoutId)) !== "production") {
      throw new AppError("not_found", { message: "No such production payout." });
    }
    const payload = { payoutId: payoutId.toLowerCase(), outcome };
    const jobId = await transaction(deps.db, (tx) => deps.jobStore.enqueue(tx, PAYOUT_RAIL_OUTCOME_JOB, payload));
    return { job_id: jobId, payout_id: payload.payoutId, outcome: presentOutcome(outcome) };
  }

  return { verifyToken, pushOutcome };
}
