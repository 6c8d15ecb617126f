import type { Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit, ReportWeakenedControl } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import type { Db, Tx } from "../../platform/db/client.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { TargetPolicy } from "../../platform/outbound-http/url-safety.js";
import type { PostalAddressValue } from "../beneficiaries/index.js";
import type { DestinationRoutingFacts } from "../destinations/index.js";
import { createInboundView } from "./bank-rails.inbound-view.js";
import { registerBankRailRoutes } from "./bank-rails.routes.js";
import { BankFileSchema, BankInboundFileSchema, BankRailSchema } from "./bank-rails.schemas.js";
import { createBankRailService } from "./bank-rails.service.js";

export { bankRailsRouteRoles } from "./bank-rails.access.js";
export { BANK_RAIL_ERRORS } from "./bank-rails.errors.js";

export type BankRailsModule = ReturnType<typeof createBankRailsModule>;
export { type RailRoute, routePayout } from "./bank-rails.routing.js";
export type { BankRailName } from "./bank-rails.schemas.js";

export function createBankRailsModule(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  cipher: FieldCipher;
  localRoot: string | null;
  sftpPolicy: TargetPolicy;
  logger?: { info(object: object, message: string): void };
  destinationRoutingFactsOf: (
    tx: Tx,
    tenant: Tenant,
    destinationIds: readonly string[],
  ) => Promise<ReadonlyMap<string, DestinationRoutingFacts>>;
  postalAddressesOf?: (
    tx: Tx,
    tenant: Tenant,
    beneficiaryIds: readonly string[],
  ) => Promise<ReadonlyMap<string, PostalAddressValue>>;
  recordAudit?: RecordActorAudit;
  /** From the people module: a configured rail's delivery target change is refused to keys and e-mailed to admins. */
  reportWeakenedControl: ReportWeakenedControl;
}) {
  const service = createBankRailService(deps);
  const inboundView = createInboundView({ db: deps.db });
  return {
    service,
    /**
     * For payout creation (injected in app.ts): per request, the refusal of a payout no configured rail can
     * carry, or null; every request of a bulk creation in one call (a fixed number of queries).
     */
    checkRoutes: service.checkRoutes,
    /** For collection submissions (injected in app.ts): the same check for the one account being submitted. */
    checkRoute: service.checkRoute,
    /**
     * For account registration (injected in app.ts): what the file of the bank rail that would pay the
     * account cannot carry of it (BIC outside the EEA, the holder's name), before it is written.
     */
    checkAccount: service.checkAccount,
    sharedSchemas: [BankRailSchema, BankFileSchema, BankInboundFileSchema],
    registerRoutes: (app: AppInstance) => registerBankRailRoutes(app, service, inboundView),
  };
}

export { bankFileName, createBankFiles } from "./bank-rails.files.js";
export { BANK_CUTOFF_JOB, BANK_POLL_JOB, BANK_UPLOAD_JOB } from "./bank-rails.jobs.js";
