import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import type { TargetPolicy } from "../../platform/outbound-http/url-safety.js";
import { bankRailsRouteRoles } from "./bank-rails.access.js";
import { BANK_RAIL_ERRORS } from "./bank-rails.errors.js";
import { createBankFiles } from "./bank-rails.files.js";
import { createInboundView } from "./bank-rails.inbound-view.js";
import { BANK_CUTOFF_JOB, BANK_POLL_JOB, BANK_UPLOAD_JOB } from "./bank-rails.jobs.js";
import type { BankRailsPorts } from "./bank-rails.ports.js";
import { registerBankRailRoutes } from "./bank-rails.routes.js";
import { BankFileSchema, BankInboundFileSchema, BankRailSchema } from "./bank-rails.schemas.js";
import { createBankRailService } from "./bank-rails.service.js";
import { paymentBlocks, sentItemsByReferences, statementAccountRail } from "./bank-rails.statements.js";

export { bankFileName } from "./bank-rails.files.js";
export { BANK_CUTOFF_JOB, BANK_POLL_JOB, BANK_UPLOAD_JOB } from "./bank-rails.jobs.js";
export type { BankRailsPorts, InboundStatements } from "./bank-rails.ports.js";
export { type RailRoute, routePayout } from "./bank-rails.routing.js";
export type { BankRailName } from "./bank-rails.schemas.js";
export type { SentItem } from "./bank-rails.statements.js";

export interface BankRailsSettings {
  /** BANK_RAIL_LOCAL_ROOT: where local-directory delivery may write; null forbids it. */
  readonly localRoot: string | null;
  /** Where SFTP servers may be (checked when configured and on every connection). */
  readonly sftpPolicy: TargetPolicy;
  /** BANK_RAIL_POLL_INTERVAL_SECONDS, in milliseconds: how often the inbound directory is read. */
  readonly pollIntervalMs: number;
  /** BANK_RAIL_INBOUND_MAX_FILE_BYTES: the size limit of one inbound file. */
  readonly inboundMaxFileBytes: number;
  /** TEST ONLY (RuntimeOptions.testOnlyBankUploadPause): see BankFilesDeps.testOnlyPauseAfterUpload. */
  readonly testOnlyPauseAfterUpload?: (file: { readonly id: string; readonly fileName: string }) => Promise<void>;
}

/**
 * Bank-file rails (SEPA, ACH): their configuration API, the routing checks other modules run, and the jobs that
 * write, deliver and read the files (the disbursement job queues payouts for their rail's cut-off).
 */
export function defineBankRails(platform: PlatformServices, settings: BankRailsSettings, ports: BankRailsPorts) {
  const { db, clock, ids, cipher, events, jobStore, metrics } = platform;
  const logger = platform.logger.child({ component: "bank-rails" });
  const service = createBankRailService({
    db,
    clock,
    ids,
    cipher,
    localRoot: settings.localRoot,
    sftpPolicy: settings.sftpPolicy,
    logger,
    destinationRoutingFactsOf: ports.destinationRoutingFactsOf,
    postalAddressesOf: ports.postalAddressesOf,
    recordAudit: ports.recordAudit,
    reportWeakenedControl: ports.reportWeakenedControl,
    openFundingAccount: ports.openFundingAccount,
  });
  const inboundView = createInboundView({ db });
  const bankFiles = createBankFiles({
    db,
    clock,
    ids,
    cipher,
    events,
    jobStore,
    logger,
    localRoot: settings.localRoot,
    sftpPolicy: settings.sftpPolicy,
    payouts: ports.payoutFiles,
    destinationRoutingFactsOf: ports.destinationRoutingFactsOf,
    observe: (rail, event) => metrics.observeBankFile(rail, event),
    pollIntervalMs: settings.pollIntervalMs,
    inboundMaxFileBytes: settings.inboundMaxFileBytes,
    observeInboundRead: (rail, bytes) => metrics.observeBankInboundRead(rail, bytes),
    statements: ports.statements,
    ...(settings.testOnlyPauseAfterUpload === undefined ? {} : { testOnlyPauseAfterUpload: settings.testOnlyPauseAfterUpload }),
  });
  return defineModule({
    name: "bank-rails",
    routeRoles: bankRailsRouteRoles,
    errorCodes: BANK_RAIL_ERRORS,
    registerRoutes: (app) => registerBankRailRoutes(app, service, inboundView),
    sharedSchemas: [BankRailSchema, BankFileSchema, BankInboundFileSchema],
    jobs: { definitions: [BANK_CUTOFF_JOB, BANK_UPLOAD_JOB, BANK_POLL_JOB], handlers: bankFiles.handlers },
    offers: {
      /**
       * For payout creation: per request, the refusal of a payout no configured rail can carry, or null; every
       * request of a bulk creation in one call (a fixed number of queries).
       */
      checkRoutes: service.checkRoutes,
      /** For collection submissions: the same check for the one account being submitted. */
      checkRoute: service.checkRoute,
      /**
       * For account registration (destinations): what the file of the bank rail that would pay the account
       * cannot carry of it (BIC outside the EEA, the holder's name), before it is written.
       */
      checkAccount: service.checkAccount,
      /** For the disbursement job (payouts): the bank rail a production payout goes to, and its queueing there. */
      queue: bankFiles.queue,
      /** For reconciliation (issue 28): a statement's account, the payouts a reference or a payment block names. */
      statementFacts: { statementAccountRail, sentItemsByReferences, paymentBlocks },
    },
  });
}

export { BANK_RAIL_ERRORS, bankRailsRouteRoles };
