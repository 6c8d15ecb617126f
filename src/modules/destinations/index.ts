import type { Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import type { Db, Tx } from "../../platform/db/client.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { BeneficiaryService } from "../beneficiaries/index.js";
import { registerDestinationRoutes } from "./destinations.routes.js";
import { DestinationSchema } from "./destinations.schemas.js";
import { createDestinationService, type DestinationServiceDeps } from "./destinations.service.js";

export type DestinationsModule = ReturnType<typeof createDestinationsModule>;
export { destinationsRouteRoles } from "./destinations.access.js";
export { DESTINATION_ERRORS } from "./destinations.errors.js";
export { railDestinationOf } from "./destinations.rail.js";
export type { DestinationRow } from "./destinations.repo.js";
export { type DestinationRoutingFacts, destinationRoutingFacts, destinationRoutingFactsOf } from "./destinations.routing.js";
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
/** For the bank-rails module: an ACH notification of change, recorded on the destination it names. */
export { recordNotificationOfChange } from "./destinations.shared.js";
export {
  type BankForm,
  type BankFormField,
  bankFormFor,
  defaultCurrencyOf,
  isCountryCode,
  isCurrencyCode,
  isSepaCountry,
} from "./validation/index.js";

export function createDestinationsModule(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  cipher: FieldCipher;
  events: EventRecorder;
  beneficiaries: BeneficiaryService;
  enrollAfterCommit?: (tenant: Tenant, beneficiaryId: string) => Promise<void>;
  /** From the bank-rails module (injected: bank-rails reads destinations' routing facts). */
  checkBankRailAccount?: DestinationServiceDeps["checkBankRailAccount"];
  /** From the payouts module (injected, not imported: payouts reads destinations). */
  pendingPayoutHeadsTo?: (tx: Tx, tenant: Tenant, destinationId: string) => Promise<boolean>;
  recordAudit: RecordActorAudit;
}) {
  const service = createDestinationService({
    ...deps,
    presentBeneficiary: deps.beneficiaries.present,
    changeDeclaredDestination: deps.beneficiaries.changeDeclaredDestination,
  });
  return {
    service,
    sharedSchemas: [DestinationSchema],
    registerRoutes: (app: AppInstance) => registerDestinationRoutes(app, service),
  };
}
