// The people module's jobs: the session sweep, which ends sessions that expired (idle timeout or absolute
// lifetime) without being presented again, so every expired session is marked ended and audited once; and the
// password-reset request, answered off the request path.
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

/**
 * A request for a password reset, answered later by the worker: it looks the address up and, when it has an
 * account, creates the token and queues its e-mail. The request itself only enqueues this job, the same
 * statement for every address, so its answer takes the same time and the same work whether or not the address
 * has an account (issue 24). The address is sealed with the service's cipher, like a queued e-mail.
 */
export const PASSWORD_RESET_REQUEST_JOB = defineJob({
  type: "people.password_reset_request",
  version: 1,
  payload: Type.Object({
    email_sealed: Type.String(),
    client_address: Type.String(),
    user_agent: Type.Union([Type.String(), Type.Null()]),
  }),
});
