// The job handlers of every module, by job type. Later modules add theirs here (e-mail, disbursement,
// webhook delivery); each must be idempotent because a job can run more than once.
import type { AppDeps } from "../app.js";
import type { JobHandlers } from "../platform/jobs/worker.js";

export function createJobHandlers(_deps: AppDeps): JobHandlers {
  return {};
}
