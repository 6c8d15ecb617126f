import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import type { PayeeNameVerifiers } from "../../rails/payee-name/payee-name-verifier.js";
import { destinationsRouteRoles } from "./destinations.access.js";
import { DESTINATION_ERRORS } from "./destinations.errors.js";
import {
  createNameCheckJobHandler,
  createNameCheckRequests,
  DESTINATION_NAME_CHECK_JOB,
  type NameCheckRequests,
} from "./destinations.name-check.js";
import type { DestinationsPorts } from "./destinations.ports.js";
import { registerDestinationRoutes } from "./destinations.routes.js";
import { DestinationPolicySchema, DestinationSchema } from "./destinations.schemas.js";
import { createDestinationService, DESTINATION_POLICY_CONTROL } from "./destinations.service.js";

export type { DestinationsPorts } from "./destinations.ports.js";
export { railDestinationOf } from "./destinations.rail.js";
export type { DestinationRow } from "./destinations.repo.js";
/** For the bank-rails module (a port, src/composition.ts): the facts that decide which rail pays a destination. */
export { type DestinationRoutingFacts, destinationRoutingFactsOf } from "./destinations.routing.js";
export type { NotificationOfChange } from "./destinations.schema.js";
export { type RegisterBankAccountBody, RegisterBankAccountBodySchema } from "./destinations.schemas.js";
export {
  auditedDestination,
  type DestinationService,
  destinationsLeftToRemask,
  isPayoutUsable,
  type PreparedDestination,
  presentDestination,
  type RemaskedDestination,
  remaskStoredDestinations,
} from "./destinations.service.js";
/** The destination policy (issue 29): the shared query other modules read it through, and what weakens it. */
/** For the bank-rails module: an ACH notification of change, recorded on the destination it names. */
export {
  type ApprovalFields,
  approvalFieldsFor,
  approvalFieldsUnder,
  DEFAULT_DESTINATION_POLICY,
  type DestinationAddedBy,
  type DestinationPolicy,
  type DestinationPolicyControls,
  destinationAddedByActor,
  destinationPolicyWeakens,
  findDestinationPolicy,
  hasUsableDetails,
  type NameCheckMode,
  recordNotificationOfChange,
  type ScreeningMode,
} from "./destinations.shared.js";

export {
  type BankForm,
  type BankFormField,
  bankFormFor,
  defaultCurrencyOf,
  isCountryCode,
  isCurrencyCode,
  isSepaCountry,
} from "./validation/index.js";
/**
 * For the composition root: queues payee name checks in another module's transaction (the beneficiaries module
 * when a legal name changes, the import for the accounts it writes). Built from the platform's job store alone,
 * so it exists before the modules that need it.
 */
export { createNameCheckRequests, DESTINATION_NAME_CHECK_JOB, type NameCheckRequests };

/** Destinations (bank accounts and cards) of Beneficiaries: their API and the checks the import and collection reuse. */
export interface DestinationsSettings {
  /** Who answers payee name checks, per environment (src/rails/payee-name/registry.ts). */
  readonly nameVerifiers: PayeeNameVerifiers;
}

export function defineDestinations(platform: PlatformServices, settings: DestinationsSettings, ports: DestinationsPorts) {
  const nameChecks = createNameCheckRequests(platform.jobStore);
  const service = createDestinationService({
    db: platform.db,
    clock: platform.clock,
    ids: platform.ids,
    cipher: platform.cipher,
    events: platform.events,
    presentBeneficiary: ports.beneficiaries.present,
    changeDeclaredDestination: ports.beneficiaries.changeDeclaredDestination,
    enrollAfterCommit: ports.enrollAfterCommit,
    checkBankRailAccount: ports.checkBankRailAccount,
    pendingPayoutHeadsTo: ports.pendingPayoutHeadsTo,
    recordAudit: ports.recordAudit,
    guardWeakening: ports.guardWeakening,
    screenAfterEnabled: ports.screenAfterEnabled,
    nameChecks,
  });
  const nameCheckHandler = createNameCheckJobHandler({
    db: platform.db,
    clock: platform.clock,
    cipher: platform.cipher,
    verifiers: settings.nameVerifiers,
  });
  return defineModule({
    name: "destinations",
    routeRoles: destinationsRouteRoles,
    errorCodes: DESTINATION_ERRORS,
    registerRoutes: (app) => registerDestinationRoutes(app, service),
    sharedSchemas: [DestinationSchema, DestinationPolicySchema],
    jobs: { definitions: [DESTINATION_NAME_CHECK_JOB], handlers: nameCheckHandler },
    offers: {
      /** For the import and collection: accounts prepared and written by the same checks as the API's. */
      service,
      /** For control-changes: applies an approved relaxation of the destination policy. */
      controlChange: { kind: DESTINATION_POLICY_CONTROL, apply: service.applyApprovedPolicyChange },
    },
  });
}

export { DESTINATION_ERRORS, destinationsRouteRoles };
