import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { destinationsRouteRoles } from "./destinations.access.js";
import { DESTINATION_ERRORS } from "./destinations.errors.js";
import type { DestinationsPorts } from "./destinations.ports.js";
import { registerDestinationRoutes } from "./destinations.routes.js";
import { DestinationPolicySchema, DestinationSchema } from "./destinations.schemas.js";
import { createDestinationService } from "./destinations.service.js";

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

/** Destinations (bank accounts and cards) of Beneficiaries: their API and the checks the import and collection reuse. */
export function defineDestinations(platform: PlatformServices, ports: DestinationsPorts) {
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
    reportWeakenedControl: ports.reportWeakenedControl,
  });
  return defineModule({
    name: "destinations",
    routeRoles: destinationsRouteRoles,
    errorCodes: DESTINATION_ERRORS,
    registerRoutes: (app) => registerDestinationRoutes(app, service),
    sharedSchemas: [DestinationSchema, DestinationPolicySchema],
    offers: {
      /** For the import and collection: accounts prepared and written by the same checks as the API's. */
      service,
    },
  });
}

export { DESTINATION_ERRORS, destinationsRouteRoles };
