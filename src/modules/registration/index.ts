import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { registrationRouteRoles } from "./registration.access.js";
import { REGISTRATION_ERRORS } from "./registration.errors.js";
import type { RegistrationPorts } from "./registration.ports.js";
import { registerRegistrationRoutes } from "./registration.routes.js";
import { createRegistrationService } from "./registration.service.js";

/** For the retention sweep (src/worker/retention.ts). */
/** The one password rule (registration, invitations, resets, changes): the people module uses it too. */
export { createPasswordPolicy, type PasswordPolicy } from "./registration.password.js";
export type { RegistrationPorts } from "./registration.ports.js";
export { pruneExpiredRegistrations } from "./registration.retention.js";
/** For the mail outbox (a port of the emails module, src/composition.ts): whether a recipient is one of a Business's verified people. */
export { emailRecipientFacts, findBusinessName } from "./registration.shared.js";

export interface RegistrationSettings {
  /** PUBLIC_BASE_URL: named in the e-mail's instructions. */
  readonly publicBaseUrl: string;
  /** REGISTRATION_TOKEN_TTL_HOURS. */
  readonly tokenTtlHours: number;
  /** REGISTRATION_EMAILS_PER_ADDRESS_PER_DAY. */
  readonly emailsPerAddressPerDay: number;
}

/** Self-service registration of a Business: the e-mailed token, then the first person and API keys. */
export function defineRegistration(platform: PlatformServices, settings: RegistrationSettings, ports: RegistrationPorts) {
  const service = createRegistrationService({
    db: platform.db,
    clock: platform.clock,
    ids: platform.ids,
    issueApiKey: ports.issueApiKey,
    mail: ports.mail,
    publicBaseUrl: settings.publicBaseUrl,
    tokenTtlHours: settings.tokenTtlHours,
    emailsPerAddressPerDay: settings.emailsPerAddressPerDay,
    passwordPolicy: ports.passwordPolicy,
  });
  return defineModule({
    name: "registration",
    routeRoles: registrationRouteRoles,
    errorCodes: REGISTRATION_ERRORS,
    registerRoutes: (app) => registerRegistrationRoutes(app, service),
    offers: {},
  });
}

export { REGISTRATION_ERRORS, registrationRouteRoles };
