// The job handlers of every module, by job type (each registered under its job definition's name with
// `jobHandler`); each must be idempotent because a job can run more than once.
import type { AppDeps } from "../app.js";
import { createBankFiles } from "../modules/bank-rails/index.js";
import { destinationRoutingFactsOf } from "../modules/destinations/index.js";
import { createEmailsModule } from "../modules/emails/index.js";
import { createEnrollmentJobHandlers } from "../modules/enrollment/index.js";
import { createPayoutBankFileFunctions, createPayoutJobHandlers } from "../modules/payouts/index.js";
import { createPeopleJobHandlers } from "../modules/people/index.js";
import { emailRecipientFacts } from "../modules/registration/index.js";
import { createDeliveryJobHandler } from "../modules/webhooks/index.js";
import type { JobHandlers } from "../platform/jobs/worker.js";
import { createMailJobHandler } from "../platform/mail/mail-job.js";
import type { Mailer } from "../platform/mail/mailer.js";
import { createMaskingBackfillHandler } from "./masking-backfill.js";
import { createRetentionHandler } from "./retention.js";

/** What the handlers need beyond the API's dependencies: the mailer is used only from jobs. */
export type WorkerDeps = AppDeps & {
  readonly mailer: Mailer;
  /** TEST ONLY (RuntimeOptions.testOnlyBankUploadPause): see BankFilesDeps.testOnlyPauseAfterUpload. */
  readonly testOnlyBankUploadPause?: (file: { readonly id: string; readonly fileName: string }) => Promise<void>;
};

export function createJobHandlers(deps: WorkerDeps): JobHandlers {
  // Bank-file rails (SEPA, ACH): the disbursement job queues payouts for their rail's cut-off.
  const bankFiles = createBankFiles({
    db: deps.database.db,
    clock: deps.clock,
    ids: deps.ids,
    cipher: deps.cipher,
    events: deps.events,
    jobStore: deps.jobStore,
    logger: deps.logger.child({ component: "bank-rails" }),
    localRoot: deps.config.bankRails.localRoot,
    sftpPolicy: deps.bankRailHostPolicy,
    payouts: createPayoutBankFileFunctions({ clock: deps.clock, cipher: deps.cipher, events: deps.events }),
    destinationRoutingFactsOf,
    observe: (rail, event) => deps.metrics.observeBankFile(rail, event),
    pollIntervalMs: deps.config.bankRails.pollIntervalSeconds * 1000,
    inboundMaxFileBytes: deps.config.bankRails.inboundMaxFileBytes,
    observeInboundRead: (rail, bytes) => deps.metrics.observeBankInboundRead(rail, bytes),
    ...(deps.testOnlyBankUploadPause === undefined ? {} : { testOnlyPauseAfterUpload: deps.testOnlyBankUploadPause }),
  });
  return {
    ...bankFiles.handlers,
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
      bankRails: bankFiles.queue,
    }),
    ...createMaskingBackfillHandler({ ...deps, db: deps.database.db }),
    ...createPeopleJobHandlers({
      db: deps.database.db,
      clock: deps.clock,
      ids: deps.ids,
      cipher: deps.cipher,
      // Password-reset requests are answered here (off the request path) and queue their e-mail.
      mail: createEmailsModule({
        db: deps.database.db,
        clock: deps.clock,
        ids: deps.ids,
        cipher: deps.cipher,
        jobStore: deps.jobStore,
        logger: deps.logger.child({ component: "emails" }),
        metrics: deps.metrics,
        dailyLimitPerBusiness: deps.config.mail.dailyLimitPerBusiness,
        recipientFacts: emailRecipientFacts,
      }).outbox,
      publicBaseUrl: deps.config.publicBaseUrl,
      jobStore: deps.jobStore,
      idleMs: deps.config.sessions.idleMinutes * 60_000,
    }),
    ...createRetentionHandler({
      db: deps.database.db,
      clock: deps.clock,
      jobStore: deps.jobStore,
      logger: deps.logger.child({ component: "retention" }),
      retention: deps.config.retention,
      signInThrottleWindowMs: deps.config.sessions.throttleWindowMinutes * 60_000,
    }),
    ...createEnrollmentJobHandlers({
      ...deps,
      db: deps.database.db,
      logger: deps.logger.child({ component: "enrollment" }),
    }),
  };
}
