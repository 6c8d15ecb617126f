// The people module's job: the session sweep, which ends sessions that expired (idle timeout or absolute
// lifetime) without being presented again, so every expired session is marked ended and audited once.
import { Type } from "@sinclair/typebox";
import { defineJob } from "../../platform/jobs/job-definition.js";

/**
 * Ends the expired sessions, then schedules itself at the slot after the next possible expiry while live
 * sessions remain. Slots are fixed (multiples of SESSION_SWEEP_SLOT_MS) and the dedupe key names the slot,
 * so the chain started by each sign-in and the running chain collapse into one job per slot.
 */
export const SESSION_SWEEP_JOB = defineJob({
  type: "people.session_sweep",
  version: 1,
  payload: Type.Object({}),
});

export const SESSION_SWEEP_SLOT_MS = 5 * 60_000;
