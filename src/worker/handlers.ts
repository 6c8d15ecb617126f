// The job handlers of every module, by job type (each registered under its job definition's name with
// `jobHandler`); each must be idempotent because a job can run more than once.
import type { AppDeps } from "../app.js";
import { createEnrollmentJobHandlers } from "../modules/enrollment/index.js";
import { createPayoutJobHandlers } from "../modules/payouts/index.js";
import { createDeliveryJobHandler } from "../modules/webhooks/index.js";
import type { JobHandlers } from "../platform/jobs/worker.js";
import { createMailJobHandler } from "../platform/mail/mail-job.js";
import type { Mailer } from "../platform/mail/mailer.js";
import { createMaskingBackfillHandler } from "./masking-backfill.js";

/** What the handlers need beyond the API's dependencies: the mailer is used only from jobs. */
export type WorkerDeps = AppDeps & { readonly mailer: Mailer };

export function createJobHandlers(deps: WorkerDeps): JobHandlers {
  return {
    ...createMailJobHandler(deps.mailer, deps.cipher),
    ...createDeliveryJobHandler({
      db: deps.database.db,
      clock: deps.clock,
      ids: deps.ids,
      cipher: deps.cipher,
      sender: deps.webhookSender,
      logger: deps.logger.child({ component: "webhooks" }),
    }),
    ...createPayoutJobHandlers({
      ...deps,
      db: deps.database.db,
      logger: deps.logger.child({ component: "payouts" }),
      returnWindowHours: deps.config.payouts.returnWindowHours,
    }),
    ...createMaskingBackfillHandler({ ...deps, db: deps.database.db }),
    ...createEnrollmentJobHandlers({
      ...deps,
      db: deps.database.db,
      logger: deps.logger.child({ component: "enrollment" }),
    }),
  };
}
