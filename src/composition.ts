import type { Config } from "./config.js";
import { defineApiKeys } from "./modules/api-keys/index.js";
import { defineBankRails, type InboundStatements } from "./modules/bank-rails/index.js";
import {
  type BeneficiariesPorts,
  defineBeneficiaries,
  findPostalAddresses,
  identityRequirementsOf,
} from "./modules/beneficiaries/index.js";
import { defineBeneficiaryExport } from "./modules/beneficiary-export/index.js";
import { defineBeneficiaryImport } from "./modules/beneficiary-import/index.js";
import { defineBusinessProfile } from "./modules/business-profile/index.js";
import { closeLinksOfArchivedBeneficiary, defineCollection } from "./modules/collection/index.js";
import { defineControlChanges } from "./modules/control-changes/index.js";
import {
  createNameCheckRequests,
  type DestinationsPorts,
  defineDestinations,
  destinationRoutingFactsOf,
  findDestinationPolicy,
} from "./modules/destinations/index.js";
import { defineEmails } from "./modules/emails/index.js";
import { defineEnrollment, type EnrollmentPorts } from "./modules/enrollment/index.js";
import { defineEvents } from "./modules/events/index.js";
import { defineFunding, type WaitingPayoutQueue } from "./modules/funding/index.js";
import { defineLedger } from "./modules/ledger/index.js";
import { definePayoutLimits } from "./modules/payout-limits/index.js";
import { definePayouts, makerCheckerOn, type PayoutBankFileHooks } from "./modules/payouts/index.js";
import { createAuditRecorder, definePeople } from "./modules/people/index.js";
import { defineRailSimulator } from "./modules/rail-simulator/index.js";
import { defineReconciliation } from "./modules/reconciliation/index.js";
import { defineRegistration, emailRecipientFacts } from "./modules/registration/index.js";
import { defineScreening } from "./modules/screening/index.js";
import { defineTopUps } from "./modules/top-ups/index.js";
import { defineWebhooks } from "./modules/webhooks/index.js";
import type { ControlChangeApplier } from "./platform/auth/audit.js";
import { assembleRouteRoles, PLATFORM_ROUTE_ROLES, type RouteRoles } from "./platform/auth/route-roles.js";
import { assembleErrorCodes, type ErrorCodeTable, PLATFORM_ERRORS } from "./platform/errors.js";
import type { Mailer } from "./platform/mail/mailer.js";
import type { ModuleDefinition, ModuleJobs, PlatformServices, SharedSchema } from "./platform/modules/module-definition.js";
import type { TargetPolicy } from "./platform/outbound-http/url-safety.js";
import type { WebhookSender } from "./platform/outbound-http/webhook-sender.js";
import { isBankStatement, readStatementsOrRefuse } from "./rails/bank-files/statement-reader.js";
import { createPayeeNameVerifiers } from "./rails/payee-name/registry.js";
import type { RailRegistry } from "./rails/rail.js";
import { createMaskingBackfillHandler, MASKING_BACKFILL_JOB } from "./worker/masking-backfill.js";
import { createRetentionHandler, RETENTION_SWEEP_JOB } from "./worker/retention.js";

/** What the modules are built from: the platform's services (runtime.ts), the configuration and the process's resources. */
export interface CompositionDeps extends Omit<PlatformServices, "db"> {
  readonly config: Config;
  /** The payout rails per environment. */
  readonly rails: RailRegistry;
  /** Where webhook URLs may point, and the guarded client that calls them. */
  readonly webhookPolicy: TargetPolicy;
  readonly webhookSender: WebhookSender;
  /** Where bank-rail SFTP servers may be (checked when configured and on every connection). */
  readonly bankRailHostPolicy: TargetPolicy;
  /** Sends queued e-mail, from the emails module's job only; building it opens no connection (platform/mail/mailer.ts). */
  readonly mailer: Mailer;
  /** TEST ONLY (RuntimeOptions.testOnlyBankUploadPause): see BankFilesDeps.testOnlyPauseAfterUpload. */
  readonly testOnlyBankUploadPause?: (file: { readonly id: string; readonly fileName: string }) => Promise<void>;
}

export interface ComposedModules {
  /** Every module, in the order the API registers their routes (the order of the OpenAPI document's paths). */
  readonly modules: readonly ModuleDefinition[];
  /** Their shared schemas, in the order the API adds them (the order of the document's named components). */
  readonly sharedSchemas: readonly SharedSchema[];
  /**
   * Jobs that belong to no one module, registered by the worker beside the modules' (src/worker/): the retention
   * sweep (it says when; each module deletes its own rows) and the masking backfill (it re-masks rows of four
   * modules, each batch one transaction).
   */
  readonly processJobs: ModuleJobs;
  /** What the API's platform hooks need of the modules: who a key or a session cookie is (the access hook). */
  readonly access: {
    readonly authenticate: ReturnType<typeof defineApiKeys>["offers"]["authenticate"];
    readonly sessions: ReturnType<typeof definePeople>["offers"]["sessions"];
  };
  /**
   * The role-by-route table: the platform's own routes, then each module's `routeRoles`, in list order (a route
   * declared twice stops the start). The access hook, the OpenAPI document and the role tests read it.
   */
  readonly routeRoles: RouteRoles;
  /**
   * The error-code table: the platform's codes, then each module's `errorCodes`, in list order (a code declared
   * twice stops the start). /docs/errors and the start-up check of every route's declared codes read it.
   */
  readonly errorCodes: ErrorCodeTable;
  /** The collection service the hosted collection pages (src/pages/collection) serve. */
  readonly collectionPages: ReturnType<typeof defineCollection>["offers"]["service"];
  /** Loads SANCTIONS_LISTS: called once the database is migrated, by a process that runs the worker. */
  readonly loadConfiguredSanctionsLists: () => Promise<void>;
  /** Runs every module's onClose (the process is ending). */
  close(): Promise<void>;
}

/**
 * The order shared schemas are added in: the order of the named components of the published OpenAPI document
 * (packages/client/src/generated/openapi.json), which is kept byte for byte. A module not named here adds its
 * schemas after these, in list order.
 */
const SCHEMA_ORDER: readonly string[] = [
  "api-keys",
  "beneficiaries",
  "destinations",
  "beneficiary-import",
  "collection",
  "webhooks",
  "events",
  "payouts",
  "emails",
  "people",
  "business-profile",
  "bank-rails",
];

/**
 * A port whose provider is defined after its consumer (a loop between two modules). The consumer gets `call`,
 * which forwards to the function given to `fill` in the second step of composeModules; nothing calls it before
 * (no request or job runs while the modules are composed), and a call that did would throw, not do nothing.
 */
function portFilledLater<Args extends unknown[], Result>(name: string) {
  let target: ((...args: Args) => Result) | null = null;
  return {
    call: (...args: Args): Result => {
      if (target === null) throw new Error(`the ${name} port was called before the composition filled it`);
      return target(...args);
    },
    fill(provider: (...args: Args) => Result): void {
      target = provider;
    },
  };
}

type Hook<Name extends keyof PayoutBankFileHooks> = PayoutBankFileHooks[Name];
type ReadBeneficiary = EnrollmentPorts["readBeneficiary"];
type ScreenInTransaction = BeneficiariesPorts["screenInTransaction"];
type ScreenAfterEnabled = DestinationsPorts["screenAfterEnabled"];
type Waiting<Name extends keyof WaitingPayoutQueue> = WaitingPayoutQueue[Name];

/** Every module of the service, built once per process (runtime.ts); the API and the worker read the result. */
export function composeModules(deps: CompositionDeps): ComposedModules {
  const { config } = deps;
  const platform: PlatformServices = {
    database: deps.database,
    db: deps.database.db,
    clock: deps.clock,
    ids: deps.ids,
    cipher: deps.cipher,
    events: deps.events,
    jobStore: deps.jobStore,
    logger: deps.logger,
    metrics: deps.metrics,
  };

  // The audit log belongs to the people module; other modules record their security-relevant acts through it,
  // inside their own transactions. Built first: api-keys records through it, and people revokes keys through
  // api-keys (see createAuditRecorder).
  const audit = createAuditRecorder({ clock: deps.clock, ids: deps.ids });
  const recordAudit = audit.recordForActor;

  // The two loops, closed in a second step below, after both sides are defined:
  //   enrollment -> beneficiaries (the retry route answers the Beneficiary), beneficiaries -> enrollment (an
  //   acknowledged Beneficiary is enrolled);
  //   bank-rails -> payouts (a cut-off files the waiting payouts), payouts -> bank-rails (creation's routing
  //   check, the disbursement's queueing);
  //   funding -> payouts (the release takes the payouts waiting for funds), payouts -> funding (the posting
  //   rules of every move).
  // Each loop is cut on the side whose need is met at call time only, never while building.
  const readBeneficiary = portFilledLater<Parameters<ReadBeneficiary>, ReturnType<ReadBeneficiary>>("enrollment.readBeneficiary");
  // beneficiaries -> screening (a creation or a change is screened in its transaction), screening -> payouts
  // (a cleared hit releases held payouts), payouts -> beneficiaries (the gates): screening comes after payouts.
  const screenInTransaction = portFilledLater<Parameters<ScreenInTransaction>, ReturnType<ScreenInTransaction>>(
    "screening.screenInTransaction",
  );
  // destinations -> screening (turning the policy's screening on starts a rescreen run in its transaction).
  const screenAfterEnabled = portFilledLater<Parameters<ScreenAfterEnabled>, ReturnType<ScreenAfterEnabled>>(
    "screening.screenAfterEnabled",
  );
  const lockWaiting = portFilledLater<Parameters<Hook<"lockWaiting">>, ReturnType<Hook<"lockWaiting">>>(
    "bank-rails.payoutFiles.lockWaiting",
  );
  const recordSubmission = portFilledLater<Parameters<Hook<"recordSubmission">>, ReturnType<Hook<"recordSubmission">>>(
    "bank-rails.payoutFiles.recordSubmission",
  );
  const failBeforeSubmission = portFilledLater<
    Parameters<Hook<"failBeforeSubmission">>,
    ReturnType<Hook<"failBeforeSubmission">>
  >("bank-rails.payoutFiles.failBeforeSubmission");

  const lockWaitingForFunds = portFilledLater<Parameters<Waiting<"lockWaiting">>, ReturnType<Waiting<"lockWaiting">>>(
    "funding.waitingPayouts.lockWaiting",
  );
  const markFundsReserved = portFilledLater<Parameters<Waiting<"markReserved">>, ReturnType<Waiting<"markReserved">>>(
    "funding.waitingPayouts.markReserved",
  );
  // bank-rails -> reconciliation (statements found in an inbound folder), reconciliation -> bank-rails (the
  // payouts a statement line names): cut on the inbound side, which is called only when a poll runs.
  const receiveInboundStatement = portFilledLater<
    Parameters<InboundStatements["receive"]>,
    ReturnType<InboundStatements["receive"]>
  >("reconciliation.inboundStatements.receive");

  // Four eyes on weakening a control (issue 29): control-changes hands an approved change back to the control's
  // owner, defined after it (each owner takes control-changes' guard): the appliers are filled in the second step.
  const applierFilledLater = (name: string) =>
    portFilledLater<Parameters<ControlChangeApplier>, ReturnType<ControlChangeApplier>>(`control-changes.appliers.${name}`);
  const appliers = {
    payout_limits: applierFilledLater("payout_limits"),
    approval_policy: applierFilledLater("approval_policy"),
    funding_account: applierFilledLater("funding_account"),
    destination_policy: applierFilledLater("destination_policy"),
  };

  const apiKeys = defineApiKeys(platform, { recordAudit });
  // Every e-mail goes through this outbox. It learns who a Business's verified people are from the registration
  // module's shared query (registration itself sends through the outbox).
  const emails = defineEmails(
    platform,
    { dailyLimitPerBusiness: config.mail.dailyLimitPerBusiness, mailer: deps.mailer },
    { recipientFacts: emailRecipientFacts },
  );
  const people = definePeople(
    platform,
    {
      audit,
      publicBaseUrl: config.publicBaseUrl,
      sessions: {
        idleMs: config.sessions.idleMinutes * 60_000,
        absoluteMs: config.sessions.absoluteHours * 3_600_000,
        stepUpMs: config.sessions.stepUpWindowMinutes * 60_000,
        secureCookie: config.publicBaseUrl.startsWith("https:"),
        throttle: {
          perAccount: config.sessions.failuresPerAccount,
          perAddress: config.sessions.failuresPerAddress,
          windowMs: config.sessions.throttleWindowMinutes * 60_000,
        },
      },
    },
    { mail: emails.offers.outbox, revokeKeysOfRemovedMember: apiKeys.offers.revokeKeysOfRemovedMember },
  );
  const { reportWeakenedControl } = people.offers;
  const controlChanges = defineControlChanges(platform, {
    makerCheckerOn,
    appliers: Object.fromEntries(Object.entries(appliers).map(([kind, port]) => [kind, port.call])),
    reportWeakenedControl,
    notifyControlChangeProposed: people.offers.notifyControlChangeProposed,
    recordAudit,
  });
  const { guardWeakening } = controlChanges.offers;
  // Payout limits: the payouts module runs their rules at creation, approval and void.
  const payoutLimits = definePayoutLimits(platform, { recordAudit, guardWeakening });
  // The ledger (its tables, written through ledger.shared.ts) and the funding accounts posting on it.
  const ledger = defineLedger();
  const funding = defineFunding(platform, {
    waitingPayouts: { lockWaiting: lockWaitingForFunds.call, markReserved: markFundsReserved.call },
    recordAudit,
    guardWeakening,
  });
  const registration = defineRegistration(
    platform,
    {
      publicBaseUrl: config.publicBaseUrl,
      tokenTtlHours: config.registration.tokenTtlHours,
      emailsPerAddressPerDay: config.registration.emailsPerAddressPerDay,
    },
    { issueApiKey: apiKeys.offers.issueApiKey, mail: emails.offers.outbox, passwordPolicy: people.offers.passwordPolicy },
  );
  const businessProfile = defineBusinessProfile(platform, { recordAudit });
  const enrollment = defineEnrollment(platform, { rails: deps.rails }, { readBeneficiary: readBeneficiary.call });
  // Payee name checks are queued by the destinations module's job definition from the job store alone, so the
  // beneficiaries module (legal name changes) and the import (accounts written in bulk) get them before it exists.
  const nameChecks = createNameCheckRequests(platform.jobStore);
  const beneficiaries = defineBeneficiaries(
    platform,
    { identityRequirements: identityRequirementsOf(config.identityRequired) },
    {
      mail: emails.offers.outbox,
      enrollAfterCommit: enrollment.offers.enrollAfterCommit,
      // Archiving closes the live collection link in its own transaction (collection owns the links).
      closeLinksOnArchive: closeLinksOfArchivedBeneficiary,
      requestNameChecks: nameChecks.ofBeneficiary,
      recordAudit,
      screenInTransaction: screenInTransaction.call,
    },
  );
  const bankRails = defineBankRails(
    platform,
    {
      localRoot: config.bankRails.localRoot,
      sftpPolicy: deps.bankRailHostPolicy,
      pollIntervalMs: config.bankRails.pollIntervalSeconds * 1000,
      inboundMaxFileBytes: config.bankRails.inboundMaxFileBytes,
      ...(deps.testOnlyBankUploadPause === undefined ? {} : { testOnlyPauseAfterUpload: deps.testOnlyBankUploadPause }),
    },
    {
      destinationRoutingFactsOf,
      postalAddressesOf: findPostalAddresses,
      payoutFiles: {
        lockWaiting: lockWaiting.call,
        recordSubmission: recordSubmission.call,
        failBeforeSubmission: failBeforeSubmission.call,
      },
      recordAudit,
      reportWeakenedControl,
      openFundingAccount: funding.offers.openRailFundingAccount,
      statements: { isStatement: isBankStatement, receive: receiveInboundStatement.call },
    },
  );
  const payouts = definePayouts(
    platform,
    { rails: deps.rails, returnWindowHours: config.payouts.returnWindowHours },
    {
      checkRailRoutes: bankRails.offers.checkRoutes,
      bankRails: bankRails.offers.queue,
      funding: funding.offers.payoutPostings,
      // The destination policy's `name_check` of the tenant, read in the creating transaction.
      nameCheckMode: async (tx, tenant) => (await findDestinationPolicy(tx, tenant)).nameCheck,
      recordAudit,
      limits: payoutLimits.offers.rules,
      guardWeakening,
    },
  );
  const destinations = defineDestinations(
    platform,
    { nameVerifiers: createPayeeNameVerifiers(config.nameCheck.verifier) },
    {
      beneficiaries: beneficiaries.offers.service,
      enrollAfterCommit: enrollment.offers.enrollAfterCommit,
      checkBankRailAccount: bankRails.offers.checkAccount,
      pendingPayoutHeadsTo: payouts.offers.pendingPayoutHeadsTo,
      recordAudit,
      guardWeakening,
      screenAfterEnabled: screenAfterEnabled.call,
    },
  );
  const beneficiaryExport = defineBeneficiaryExport(platform, {
    presentBeneficiary: beneficiaries.offers.service.present,
    recordAudit,
  });
  const beneficiaryImport = defineBeneficiaryImport(platform, {
    prepareBeneficiary: beneficiaries.offers.service.prepareBeneficiary,
    prepareBankAccount: destinations.offers.service.prepareBankAccount,
    screenBeneficiaries: beneficiaries.offers.service.screenChanged,
    enqueueEnrollment: enrollment.offers.enqueueEnrollment,
    requestNameChecks: nameChecks.ofDestinations,
    recordAudit,
  });
  const collection = defineCollection(
    platform,
    { publicBaseUrl: config.publicBaseUrl },
    {
      mail: emails.offers.outbox,
      beneficiaries: beneficiaries.offers.service,
      destinations: destinations.offers.service,
      enrollAfterCommit: enrollment.offers.enrollAfterCommit,
      checkRailRoute: bankRails.offers.checkRoute,
      recordAudit,
    },
  );
  // Top-ups: approving one credits its funding account through the funding module, in the decision's transaction.
  const topUps = defineTopUps(platform, {
    recordAudit,
    creditFundingAccount: funding.offers.creditFundingAccount,
    findFundingAccount: funding.offers.findFundingAccount,
  });
  // Reconciliation: statements in, lines matched to payouts (through the payouts lifecycle) and top-ups, unknown
  // money posted on the funding accounts' ledger.
  const reconciliation = defineReconciliation(
    platform,
    {
      readStatements: readStatementsOrRefuse,
      isStatement: isBankStatement,
      toleranceMinor: config.reconciliation.toleranceMinor,
      windowBusinessDays: config.reconciliation.windowBusinessDays,
      maxStatementBytes: config.bankRails.inboundMaxFileBytes,
    },
    {
      findRailFundingAccount: funding.offers.findRailFundingAccount,
      findFundingAccount: funding.offers.findFundingAccount,
      creditFundingAccount: funding.offers.creditFundingAccount,
      postStatementMovement: funding.offers.postStatementMovement,
      postStatementMovements: funding.offers.postStatementMovements,
      statementFacts: bankRails.offers.statementFacts,
      payouts: payouts.offers.reconciliation,
      topUps: topUps.offers.statementTopUps,
      recordAudit,
    },
  );
  // Sanctions screening, switched per Business and environment by the destination policy's `screening`.
  const screening = defineScreening(
    platform,
    { threshold: config.screening.threshold, lists: config.screening.lists, operatorToken: config.operatorToken },
    {
      screeningEnabled: async (db, tenant) => (await findDestinationPolicy(db, tenant)).screening === "on",
      releaseScreeningHold: payouts.offers.releaseScreeningHold,
      recordAudit,
    },
  );
  const webhooks = defineWebhooks(platform, { policy: deps.webhookPolicy, sender: deps.webhookSender }, { recordAudit });
  const events = defineEvents(platform, { connectionTimeoutMs: config.http.connectionTimeoutMs });
  // The production simulator's operator control endpoint exists only when a control token is configured.
  const railSimulator = defineRailSimulator(platform, {
    controlToken: config.productionRail === "simulator" ? config.simulatorControlToken : null,
  });

  // Second step: the loops' ports now reach their providers.
  readBeneficiary.fill(beneficiaries.offers.readBeneficiary);
  screenInTransaction.fill(screening.offers.screenInTransaction);
  screenAfterEnabled.fill(screening.offers.screenAfterEnabled);
  lockWaiting.fill(payouts.offers.bankFiles.lockWaiting);
  recordSubmission.fill(payouts.offers.bankFiles.recordSubmission);
  failBeforeSubmission.fill(payouts.offers.bankFiles.failBeforeSubmission);
  lockWaitingForFunds.fill(payouts.offers.waitingPayouts.lockWaiting);
  markFundsReserved.fill(payouts.offers.waitingPayouts.markReserved);
  for (const owner of [
    payoutLimits.offers.controlChange,
    payouts.offers.controlChange,
    funding.offers.controlChange,
    destinations.offers.controlChange,
  ]) {
    const port = appliers[owner.kind as keyof typeof appliers];
    if (port === undefined) throw new Error(`no applier port for control changes of kind ${owner.kind}`);
    port.fill(owner.apply);
  }
  receiveInboundStatement.fill((tx, tenant, text) => reconciliation.offers.inboundStatements.receive(tx, tenant, text));

  // The module list, in the order of their routes (the OpenAPI document's paths follow it).
  const modules: readonly ModuleDefinition[] = [
    registration,
    people,
    businessProfile,
    emails,
    apiKeys,
    beneficiaries,
    destinations,
    beneficiaryExport,
    beneficiaryImport,
    collection,
    webhooks,
    events,
    enrollment,
    railSimulator,
    payouts,
    bankRails,
    ledger,
    funding,
    topUps,
    payoutLimits,
    controlChanges,
    reconciliation,
    screening,
  ];

  const rank = (module: ModuleDefinition) => {
    const index = SCHEMA_ORDER.indexOf(module.name);
    return index === -1 ? SCHEMA_ORDER.length : index;
  };
  const sharedSchemas = [...modules].sort((a, b) => rank(a) - rank(b)).flatMap((module) => module.sharedSchemas ?? []);
  for (const schema of sharedSchemas) {
    if (typeof schema.$id !== "string") throw new Error("a module's shared schema has no $id (see SharedSchema)");
  }

  const processJobs: ModuleJobs = {
    definitions: [RETENTION_SWEEP_JOB, MASKING_BACKFILL_JOB],
    handlers: {
      ...createRetentionHandler({
        db: platform.db,
        clock: deps.clock,
        jobStore: deps.jobStore,
        logger: deps.logger.child({ component: "retention" }),
        retention: config.retention,
        signInThrottleWindowMs: config.sessions.throttleWindowMinutes * 60_000,
      }),
      ...createMaskingBackfillHandler({
        db: platform.db,
        cipher: deps.cipher,
        clock: deps.clock,
        jobStore: deps.jobStore,
      }),
    },
  };

  return {
    modules,
    sharedSchemas,
    processJobs,
    routeRoles: assembleRouteRoles([
      PLATFORM_ROUTE_ROLES,
      ...modules.flatMap((m) => (m.routeRoles === undefined ? [] : [m.routeRoles])),
    ]),
    errorCodes: assembleErrorCodes([
      PLATFORM_ERRORS,
      ...modules.flatMap((m) => (m.errorCodes === undefined ? [] : [m.errorCodes])),
    ]),
    access: { authenticate: apiKeys.offers.authenticate, sessions: people.offers.sessions },
    collectionPages: collection.offers.service,
    loadConfiguredSanctionsLists: screening.offers.loadConfiguredLists,
    close: async () => {
      for (const module of modules) await module.onClose?.();
    },
  };
}
