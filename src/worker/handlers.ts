// The job handlers of every module, by job type. Later modules add theirs here (disbursement, webhook
// delivery); each must be idempotent because a job can run more than once.
import type { AppDeps } from "../app.js";
import { createBankFiles } from "../modules/bank-rails/index.js";
import { destinationRoutingFacts } from "../modules/destinations/index.js";
import { createEnrollmentJobHandlers } from "../modules/enrollment/index.js";
import { createPayoutBankFileFunctions, createPayoutJobHandlers } from "../modules/payouts/index.js";
import { createDeliveryJobHandler, WEBHOOK_DELIVER_JOB } from "../modules/webhooks/index.js";
import type { JobHandlers } from "../platform/jobs/worker.js";
import { createMailJobHandler, MAIL_SEND_JOB } from "../platform/mail/mail-job.js";
import type { Mailer } from "../platform/mail/mailer.js";
import { createMaskingBackfillHandler, MASKING_BACKFILL_JOB } from "./masking-backfill.js";

/** What the handlers need beyond the API's dependencies: the mailer is used only from jobs. */
export type WorkerDeps = AppDeps & { readonly mailer: Mailer };

export function createJobHandlers(deps: WorkerDeps): JobHandlers {
  // Bank-file rails (SEPA, ACH): the disbursement job queues payouts for their rail's cut-off.
  const bankFiles = createBankFiles({
    db: deps.database.db,
    clock: deps.clock,
    ids: deps.ids,
    cipher: deps.cipher,
    jobStore: deps.jobStore,
    logger: deps.logger.child({ component: "bank-rails" }),
    localRoot: deps.config.bankRails.localRoot,
    payouts: createPayoutBankFileFunctions({ clock: deps.clock, cipher: deps.cipher, events: deps.events }),
    destinationRoutingFacts,
    observe: (rail, event) => deps.metrics.observeBankFile(rail, event),
    pollIntervalMs: deps.config.bankRails.pollIntervalSeconds * 1000,
  });
  return {
    ...bankFiles.handlers,
    [MAIL_SEND_JOB]: createMailJobHandler(deps.mailer, deps.cipher),
    [WEBHOOK_DELIVER_JOB]: createDeliveryJobHandler({
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
      bankRails: bankFiles.queue,
    }),
    [MASKING_BACKFILL_JOB]: createMaskingBackfillHandler({ ...deps, db: deps.database.db }),
    // Issue 4 (rails): enrollment of imported Beneficiaries.
    ...createEnrollmentJobHandlers({
      ...deps,
      db: deps.database.db,
      logger: deps.logger.child({ component: "enrollment" }),
    }),
  };
}
