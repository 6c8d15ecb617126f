// The bank-rails module's jobs (handlers in bank-rails.files.ts and bank-rails.inbound.ts).
import { Type } from "@sinclair/typebox";
import { defineJob } from "../../platform/jobs/job-definition.js";

/**
 * Builds the rail's file at one cut-off (enqueued when a payout is queued for that rail, run at the cut-off).
 * One job per Business, rail and cut-off instant.
 */
export const BANK_CUTOFF_JOB = defineJob({
  type: "bank_rail.cutoff",
  version: 1,
  payload: Type.Object({
    businessId: Type.String(),
    rail: Type.Union([Type.Literal("sepa"), Type.Literal("ach")]),
    /** The cut-off instant, ISO 8601 UTC. */
    cutoffAt: Type.String(),
  }),
  dedupeKey: { prefix: "bank-cutoff", fields: ["businessId", "rail", "cutoffAt"] },
});

/** Delivers one built file to the bank (after the cut-off's commit; no transaction open while it talks). */
export const BANK_UPLOAD_JOB = defineJob({
  type: "bank_rail.upload",
  version: 1,
  payload: Type.Object({ fileId: Type.String() }),
  dedupeKey: { prefix: "bank-upload", fields: ["fileId"] },
});

/**
 * Reads the rail's inbound directory and applies the bank's answers, then schedules the next poll slot (the
 * dedupe key names the slot, so two chains collapse into one).
 */
export const BANK_POLL_JOB = defineJob({
  type: "bank_rail.poll",
  version: 1,
  payload: Type.Object({ businessId: Type.String(), rail: Type.String() }),
});
