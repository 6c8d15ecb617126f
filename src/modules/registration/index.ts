import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/client.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { ApiKeysModule } from "../api-keys/index.js";
import type { MailOutbox } from "../emails/index.js";
import { registerRegistrationRoutes } from "./registration.routes.js";
import { createRegistrationService } from "./registration.service.js";

export { registrationRouteRoles } from "./registration.access.js";
export { REGISTRATION_ERRORS } from "./registration.errors.js";

export function createRegistrationModule(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  apiKeys: ApiKeysModule;
  mail: Pick<MailOutbox, "sendPlatformMail">;
  publicBaseUrl: string;
  tokenTtlHours: number;
  emailsPerAddressPerDay: number;
  passwordPolicy?: (password: string, field: string, context?: readonly string[]) => void;
}) {
  const service = createRegistrationService({
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    issueApiKey: deps.apiKeys.service.issueApiKey,
    mail: deps.mail,
    publicBaseUrl: deps.publicBaseUrl,
    tokenTtlHours: deps.tokenTtlHours,
    emailsPerAddressPerDay: deps.emailsPerAddressPerDay,
    ...(deps.passwordPolicy === undefined ? {} : { passwordPolicy: deps.passwordPolicy }),
  });
  return {
    service,
    registerRoutes: (app: AppInstance) => registerRegistrationRoutes(app, service),
  };
}

/** For the retention sweep (src/worker/retention.ts). */
export { pruneExpiredRegistrations } from "./registration.retention.js";
/** For the mail outbox (injected in app.ts): whether a recipient is one of a Business's verified people. */
export { emailRecipientFacts, findBusinessName } from "./registration.shared.js";
