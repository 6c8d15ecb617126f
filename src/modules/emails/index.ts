import { createMailJobHandler, MAIL_SEND_JOB } from "../../platform/mail/mail-job.js";
import type { Mailer } from "../../platform/mail/mailer.js";
import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { emailsRouteRoles } from "./emails.access.js";
import { EMAIL_ERRORS } from "./emails.errors.js";
import type { EmailsPorts } from "./emails.ports.js";
import { registerEmailRoutes } from "./emails.routes.js";
import { SandboxEmailSchema } from "./emails.schemas.js";
import { createEmailsService } from "./emails.service.js";

export type { EmailsPorts } from "./emails.ports.js";
export type { EmailKind } from "./emails.repo.js";
/** For the retention sweep (src/worker/retention.ts). */
export { pruneCapturedEmails } from "./emails.retention.js";
export type { EmailOutcome, MailOutbox, OutgoingEmail, RecipientFacts } from "./emails.service.js";

export interface EmailsSettings {
  /** MAIL_DAILY_LIMIT_PER_BUSINESS: sent e-mails per Business in any 24 hours. */
  readonly dailyLimitPerBusiness: number;
  /**
   * What sends a queued e-mail (SMTP or .eml files), used by the MAIL_SEND_JOB handler only. Building it opens
   * no connection and touches no file (platform/mail/mailer.ts), so an API-only process holds one unused.
   */
  readonly mailer: Mailer;
}

/**
 * E-mail the service issues: the outbox every module sends through (it captures sandbox mail to strangers and
 * limits each Business's mail per day), the job that sends what it queued, and the sandbox mailbox API.
 */
export function defineEmails(platform: PlatformServices, settings: EmailsSettings, ports: EmailsPorts) {
  const service = createEmailsService({
    db: platform.db,
    clock: platform.clock,
    ids: platform.ids,
    cipher: platform.cipher,
    jobStore: platform.jobStore,
    logger: platform.logger.child({ component: "emails" }),
    metrics: platform.metrics,
    dailyLimitPerBusiness: settings.dailyLimitPerBusiness,
    recipientFacts: ports.recipientFacts,
  });
  return defineModule({
    name: "emails",
    routeRoles: emailsRouteRoles,
    errorCodes: EMAIL_ERRORS,
    registerRoutes: (app) => registerEmailRoutes(app, service),
    sharedSchemas: [SandboxEmailSchema],
    jobs: { definitions: [MAIL_SEND_JOB], handlers: createMailJobHandler(settings.mailer, platform.cipher) },
    offers: {
      /** For every module that sends e-mail. */
      outbox: service.outbox,
    },
  });
}

export { EMAIL_ERRORS, emailsRouteRoles };
