// The screening module's job: screening every Beneficiary again after a list changed, one batch per job.
import { Type } from "@sinclair/typebox";
import { defineJob } from "../../platform/jobs/job-definition.js";

/** One batch of a run (screening_runs); the batch's transaction enqueues the next one until the last Beneficiary. */
export const SCREENING_RESCREEN_JOB = defineJob({
  type: "screening.rescreen",
  version: 1,
  payload: Type.Object({ runId: Type.String({ minLength: 36, maxLength: 36 }) }),
});
