import type { AppInstance } from "../../platform/http/types.js";
import { registerEmailRoutes } from "./emails.routes.js";
import { SandboxEmailSchema } from "./emails.schemas.js";
import { createEmailsService, type EmailsServiceDeps } from "./emails.service.js";

export { emailsRouteRoles } from "./emails.access.js";
export { EMAIL_ERRORS } from "./emails.errors.js";

export type EmailsModule = ReturnType<typeof createEmailsModule>;
export type { EmailKind } from "./emails.repo.js";
/** For the retention sweep (src/worker/retention.ts). */
export { pruneCapturedEmails } from "./emails.retention.js";
export type { EmailOutcome, MailOutbox, OutgoingEmail, RecipientFacts } from "./emails.service.js";

/** E-mail the service issues: the outbox every module sends through, and the sandbox mailbox API. */
export function createEmailsModule(deps: EmailsServiceDeps) {
  const service = createEmailsService(deps);
  return {
    outbox: service.outbox,
    sharedSchemas: [SandboxEmailSchema],
    registerRoutes: (app: AppInstance) => registerEmailRoutes(app, service),
  };
}
