// The webhook module's job: one delivery attempt. Enqueued by the delivery hook (attempt 1), by the attempt
// before it (in SQL, see webhooks.repo.ts) and by a manual retry; handled in webhooks.delivery.ts.
import { Type } from "@sinclair/typebox";
import { defineJob } from "../../platform/jobs/job-definition.js";

export const WEBHOOK_DELIVER_JOB = defineJob({
  type: "webhook.deliver",
  version: 1,
  payload: Type.Object({
    delivery_id: Type.String(),
    series: Type.Integer(),
    attempt: Type.Integer(),
  }),
  // Job-level retries (a database error around an attempt), not delivery attempts: those are attempt rows.
  maxAttempts: 5,
  // One job per attempt, ever: a second enqueue of the same attempt is a no-op.
  dedupeKey: { prefix: "webhook", fields: ["delivery_id", "series", "attempt"] },
});
