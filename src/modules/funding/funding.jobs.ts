// The funding module's job: the release of payouts waiting for funds on one funding account, in approval order.
// Enqueued by the transaction that raised the account's available balance (a credit, a void, a return, a setting
// that loosened enforcement); handled in funding.release.ts.
import { Type } from "@sinclair/typebox";
import { defineJob } from "../../platform/jobs/job-definition.js";

export const FUNDING_RELEASE_JOB = defineJob({
  type: "funding.release_waiting",
  version: 1,
  payload: Type.Object({ fundingAccountId: Type.String() }),
  maxAttempts: 10,
});
