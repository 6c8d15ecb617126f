// buildApp(deps): the HTTP application. It registers plugins and modules and never listens; main.ts
// (or a test) decides what to do with it.
import fastifyCookie from "@fastify/cookie";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyBaseLogger, LogController } from "fastify";
import type { Logger } from "pino";
import type { Config, HttpTimeouts, TrustProxy } from "./config.js";
import { API_KEY_ERRORS, apiKeysRouteRoles, createApiKeysModule } from "./modules/api-keys/index.js";
import { BANK_RAIL_ERRORS, bankRailsRouteRoles, createBankRailsModule } from "./modules/bank-rails/index.js";
import {
  BENEFICIARY_ERRORS,
  beneficiariesRouteRoles,
  createBeneficiariesModule,
  findPostalAddresses,
  identityRequirementsOf,
} from "./modules/beneficiaries/index.js";
import { beneficiaryExportRouteRoles, createBeneficiaryExportModule } from "./modules/beneficiary-export/index.js";
import { beneficiaryImportRouteRoles, createBeneficiaryImportModule } from "./modules/beneficiary-import/index.js";
import { businessProfileRouteRoles, createBusinessProfileModule } from "./modules/business-profile/index.js";
import { closeLinksOfArchivedBeneficiary, collectionRouteRoles, createCollectionModule } from "./modules/collection/index.js";
import {
  createDestinationsModule,
  DESTINATION_ERRORS,
  destinationRoutingFactsOf,
  destinationsRouteRoles,
} from "./modules/destinations/index.js";
import { createEmailsModule, EMAIL_ERRORS, emailsRouteRoles } from "./modules/emails/index.js";
import { createEnrollmentModule, ENROLLMENT_ERRORS, enrollmentRouteRoles } from "./modules/enrollment/index.js";
import { createEventsModule, eventsRouteRoles } from "./modules/events/index.js";
import { createPayoutsModule, PAYOUT_ERRORS, payoutsRouteRoles } from "./modules/payouts/index.js";
import {
  createAuditRecorder,
  createPasswordPolicy,
  createPeopleModule,
  PEOPLE_ERRORS,
  peopleRouteRoles,
} from "./modules/people/index.js";
import { createRailSimulatorModule } from "./modules/rail-simulator/index.js";
import {
  createRegistrationModule,
  emailRecipientFacts,
  REGISTRATION_ERRORS,
  registrationRouteRoles,
} from "./modules/registration/index.js";
import { createWebhooksModule, WEBHOOK_ERRORS, webhooksRouteRoles } from "./modules/webhooks/index.js";
import { registerCollectionPages } from "./pages/collection/index.js";
import { defaultDashboardDirectory, registerDashboard } from "./pages/dashboard/index.js";
import { assembleRouteRoles, createRouteRoleTable, PLATFORM_ROUTE_ROLES } from "./platform/auth/route-roles.js";
import type { Clock } from "./platform/clock.js";
import type { FieldCipher } from "./platform/crypto.js";
import type { Database } from "./platform/db/client.js";
import { AppError, assembleErrorCodes, PLATFORM_ERRORS } from "./platform/errors.js";
import { createFeedWakeups } from "./platform/events/feed-wakeups.js";
import type { EventRecorder } from "./platform/events/outbox.js";
import { installAccessControl } from "./platform/http/access-hook.js";
import { registerDocsRoutes } from "./platform/http/docs-routes.js";
import { ActorSchema, ErrorDetailSchema, ErrorEnvelopeSchema } from "./platform/http/envelope.js";
import { createClientErrorHandler, createFrameworkErrorHandler, installErrorHandling } from "./platform/http/error-handler.js";
import { installJsonBodyParsing } from "./platform/http/json-body.js";
import { openApiDocumentOptions } from "./platform/http/openapi.js";
import { registerMetricsRoute, registerOpsRoutes } from "./platform/http/ops-routes.js";
import { installDeclaredErrorCodeCheck } from "./platform/http/route-responses.js";
import { createSchemaCompilers, type SchemaCompilers } from "./platform/http/schema-compilers.js";
import { installStrictTransportSecurity } from "./platform/http/strict-transport.js";
import { installRequestTextChecks } from "./platform/http/text-hook.js";
import type { AppInstance } from "./platform/http/types.js";
import type { IdGenerator } from "./platform/ids.js";
import type { JobStore } from "./platform/jobs/job-store.js";
import type { Metrics } from "./platform/metrics.js";
import type { TargetPolicy } from "./platform/outbound-http/url-safety.js";
import type { WebhookSender } from "./platform/outbound-http/webhook-sender.js";
import { createPasswordHasher } from "./platform/password-hasher.js";
import type { RateLimiter } from "./platform/rate-limit.js";
import type { RailRegistry } from "./rails/rail.js";
import { COMPONENT_EXAMPLES } from "./reference-examples.js";
import { referenceTags } from "./reference-guide.js";

export interface AppDeps {
  readonly config: Config;
  readonly database: Database;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly jobStore: JobStore;
  readonly events: EventRecorder;
  readonly metrics: Metrics;
  readonly tenantLimiter: RateLimiter;
  readonly clientAddressLimiter: RateLimiter;
  /** Per client address on the hosted collection pages. */
  readonly collectionPageLimiter: RateLimiter;
  readonly cipher: FieldCipher;
  readonly isAcceptingTraffic: () => boolean;
  /**
   * False while the process waits for its database at startup (main.ts listens before it is reached): every
   * route but /healthz and /readyz then answers 503 service_unavailable.
   */
  readonly hasStarted: () => boolean;
  readonly rails: RailRegistry;
  /** Where webhook URLs may point, and the guarded client that calls them. */
  readonly webhookPolicy: TargetPolicy;
  readonly webhookSender: WebhookSender;
  /** Where bank-rail SFTP servers may be (checked when configured and on every connection). */
  readonly bankRailHostPolicy: TargetPolicy;
}

/**
 * Only named proxies are believed, so request.ip (the key of the per-address limits) is the address the
 * farthest trusted proxy saw, which a client cannot choose; config.ts refuses "trust every hop". A hop count
 * is given to Fastify as a function: Fastify reads a bare number as "trust nothing". It trusts the nearest
 * `hops` peers whoever they are, so it is safe only when the port is reachable through those proxies alone.
 */
function trustProxyOption(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === "number") return (_address, hop) => hop < trust;
  return [...trust];
}

/**
 * Slow clients: Node times out a request whose headers (headersTimeout) or whole body (requestTimeout) do not
 * arrive in time, checking every `connectionsCheckingInterval` (30 s by default, too coarse for a 10 s
 * limit). Fastify sets requestTimeout, keepAliveTimeout and the idle socket timeout (connectionTimeout) from
 * its own options. The request line plus headers may take 16 KB (Node's default, stated so it is visible);
 * beyond it Node raises a 431 that createClientErrorHandler answers in the envelope.
 */
function serverTimeoutOptions(timeouts: HttpTimeouts) {
  return {
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    connectionTimeout: timeouts.connectionTimeoutMs,
    http: {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headersTimeoutMs / 4))),
      maxHeaderSize: 16 * 1024,
    },
  };
}

/**
 * The role-by-route table: the platform's own routes, then each module's contribution (moves into the module
 * definitions). Assembling refuses a route declared twice.
 */
export const ROUTE_ROLES = assembleRouteRoles([
  PLATFORM_ROUTE_ROLES,
  registrationRouteRoles,
  peopleRouteRoles,
  businessProfileRouteRoles,
  apiKeysRouteRoles,
  beneficiariesRouteRoles,
  beneficiaryExportRouteRoles,
  beneficiaryImportRouteRoles,
  enrollmentRouteRoles,
  collectionRouteRoles,
  destinationsRouteRoles,
  payoutsRouteRoles,
  webhooksRouteRoles,
  eventsRouteRoles,
  bankRailsRouteRoles,
  emailsRouteRoles,
]);

/**
 * The error-code table (/docs/errors, the start-up check of each route's declared codes): the platform's codes,
 * then each module's contribution (moves into the module definitions). Assembling refuses a code declared twice.
 */
export const ERROR_CODES = assembleErrorCodes([
  PLATFORM_ERRORS,
  API_KEY_ERRORS,
  BENEFICIARY_ERRORS,
  DESTINATION_ERRORS,
  PAYOUT_ERRORS,
  PEOPLE_ERRORS,
  REGISTRATION_ERRORS,
  EMAIL_ERRORS,
  WEBHOOK_ERRORS,
  ENROLLMENT_ERRORS,
  BANK_RAIL_ERRORS,
]);

export interface BuildAppOptions {
  /**
   * Compiled validators and serializers to reuse (schema-compilers.ts). Each app makes its own unless given
   * one; the tests share one across the many apps a worker process builds.
   */
  readonly schemaCompilers?: SchemaCompilers;
}

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<AppInstance> {
  const { config, database, clock, ids } = deps;
  const schemaCompilers = options.schemaCompilers ?? createSchemaCompilers();
  const routeRoles = createRouteRoleTable(ROUTE_ROLES);
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: () => ids.newId(),
    requestIdHeader: false,
    // One log line per request is written by the onResponse hook below, with the route template.
    logController: new LogController({ requestIdLogLabel: "request_id", disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    ...serverTimeoutOptions(config.http),
    clientErrorHandler: createClientErrorHandler({ clock, ids, docsBaseUrl: config.docsBaseUrl }),
    trustProxy: trustProxyOption(config.trustProxy),
    // Requests on connections still open during shutdown are served normally; the listener is already closed.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: createFrameworkErrorHandler({ clock, docsBaseUrl: config.docsBaseUrl }),
    schemaController: { compilersFactory: { buildSerializer: schemaCompilers.buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  installJsonBodyParsing(app);
  installRequestTextChecks(app);

  // The audit log belongs to the people module; other modules record their security-relevant acts through
  // this recorder, inside their own transactions.
  const audit = createAuditRecorder({ clock, ids });
  // One password rule for registration, invitations, resets and changes.
  const passwordPolicy = createPasswordPolicy();
  // Passwords are hashed on a few low-priority threads (half the cores), so sign-ins cannot slow the API down.
  const passwordHasher = createPasswordHasher();
  app.addHook("onClose", async () => passwordHasher.close());
  const apiKeys = createApiKeysModule({ db: database.db, clock, ids, recordAudit: audit.recordForActor });
  // Every e-mail goes through this outbox: it captures sandbox mail to strangers and limits each Business's
  // mail per day. It learns who a Business's verified people are from the registration module (injected,
  // since registration itself sends through the outbox).
  const emails = createEmailsModule({
    db: database.db,
    clock,
    ids,
    cipher: deps.cipher,
    jobStore: deps.jobStore,
    logger: deps.logger.child({ component: "emails" }),
    metrics: deps.metrics,
    dailyLimitPerBusiness: config.mail.dailyLimitPerBusiness,
    recipientFacts: emailRecipientFacts,
  });
  const registration = createRegistrationModule({
    db: database.db,
    clock,
    ids,
    apiKeys,
    mail: emails.outbox,
    publicBaseUrl: config.publicBaseUrl,
    tokenTtlHours: config.registration.tokenTtlHours,
    emailsPerAddressPerDay: config.registration.emailsPerAddressPerDay,
    passwordPolicy,
  });
  // The Business profile (Business-wide; registration created the row, this module changes it).
  const businessProfile = createBusinessProfileModule({ db: database.db, clock, recordAudit: audit.recordForActor });
  const people = createPeopleModule({
    db: database.db,
    clock,
    ids,
    cipher: deps.cipher,
    mail: emails.outbox,
    publicBaseUrl: config.publicBaseUrl,
    audit,
    passwordPolicy,
    deriveKey: passwordHasher.deriveKey,
    revokeKeysOfRemovedMember: apiKeys.service.revokeKeysOfRemovedMember,
    jobStore: deps.jobStore,
    settings: {
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
  });
  // Enrollment with the payout rail, triggered by beneficiaries and destinations after their
  // commits (injected functions: enrollment reads through the beneficiaries module, so no import cycle).
  const enrollment = createEnrollmentModule({
    db: database.db,
    clock,
    ids,
    cipher: deps.cipher,
    events: deps.events,
    rails: deps.rails,
    logger: deps.logger.child({ component: "enrollment" }),
    readBeneficiary: (actor, id) => beneficiaries.service.get(actor, id),
    jobStore: deps.jobStore,
  });
  const beneficiaries = createBeneficiariesModule({
    db: database.db,
    clock,
    ids,
    cipher: deps.cipher,
    mail: emails.outbox,
    // config.ts reads the lists as plain names; the module checks them against its fields and applies its defaults.
    identityRequirements: identityRequirementsOf(config.identityRequired),
    enrollAfterCommit: enrollment.service.enrollAfterCommit,
    // Archiving closes the live collection link in its own transaction (collection owns the links).
    closeLinksOnArchive: closeLinksOfArchivedBeneficiary,
    recordAudit: audit.recordForActor,
  });
  const bankRails = createBankRailsModule({
    db: database.db,
    clock,
    ids,
    cipher: deps.cipher,
    localRoot: config.bankRails.localRoot,
    sftpPolicy: deps.bankRailHostPolicy,
    logger: deps.logger.child({ component: "bank-rails" }),
    destinationRoutingFactsOf,
    postalAddressesOf: findPostalAddresses,
    recordAudit: audit.recordForActor,
    reportWeakenedControl: people.reportWeakenedControl,
  });
  const payouts = createPayoutsModule({
    db: database.db,
    clock,
    ids,
    events: deps.events,
    jobStore: deps.jobStore,
    logger: deps.logger,
    recordAudit: audit.recordForActor,
    reportWeakenedControl: people.reportWeakenedControl,
    checkRailRoutes: bankRails.checkRoutes,
  });
  const destinations = createDestinationsModule({
    db: database.db,
    clock,
    ids,
    cipher: deps.cipher,
    events: deps.events,
    beneficiaries: beneficiaries.service,
    enrollAfterCommit: enrollment.service.enrollAfterCommit,
    pendingPayoutHeadsTo: payouts.pendingPayoutHeadsTo,
    checkBankRailAccount: bankRails.checkAccount,
    recordAudit: audit.recordForActor,
  });
  const beneficiaryExport = createBeneficiaryExportModule({
    db: database.db,
    clock,
    beneficiaries: beneficiaries.service,
    recordAudit: audit.recordForActor,
  });
  const beneficiaryImport = createBeneficiaryImportModule({
    db: database.db,
    clock,
    ids,
    logger: deps.logger,
    beneficiaries: beneficiaries.service,
    destinations: destinations.service,
    enqueueEnrollment: enrollment.service.enqueueEnrollment,
    recordAudit: audit.recordForActor,
  });
  const collection = createCollectionModule({
    db: database.db,
    clock,
    ids,
    cipher: deps.cipher,
    events: deps.events,
    mail: emails.outbox,
    publicBaseUrl: config.publicBaseUrl,
    beneficiaries: beneficiaries.service,
    destinations: destinations.service,
    enrollAfterCommit: enrollment.service.enrollAfterCommit,
    checkRailRoute: bankRails.checkRoute,
    recordAudit: audit.recordForActor,
  });
  const webhooks = createWebhooksModule({
    db: database.db,
    clock,
    ids,
    cipher: deps.cipher,
    jobStore: deps.jobStore,
    policy: deps.webhookPolicy,
    sender: deps.webhookSender,
    recordAudit: audit.recordForActor,
  });
  // The events API's waits are woken by one LISTEN per API process, opened with the first waiting request.
  const feedWakeups = createFeedWakeups({ database, logger: deps.logger, metrics: deps.metrics });
  const eventsApi = createEventsModule({
    db: database.db,
    wakeups: feedWakeups,
    connectionTimeoutMs: config.http.connectionTimeoutMs,
    observeReread: deps.metrics.observeEventFeedReread,
  });
  // Schemas with an $id: named components in OpenAPI, $ref targets for validation and serialization.
  const sharedSchemas = [
    ActorSchema,
    ErrorDetailSchema,
    ErrorEnvelopeSchema,
    ...apiKeys.sharedSchemas,
    ...beneficiaries.sharedSchemas,
    ...destinations.sharedSchemas,
    ...beneficiaryImport.sharedSchemas,
    ...collection.sharedSchemas,
    ...webhooks.sharedSchemas,
    ...eventsApi.sharedSchemas,
    ...payouts.sharedSchemas,
    ...emails.sharedSchemas,
    ...people.sharedSchemas,
    ...businessProfile.sharedSchemas,
    ...bankRails.sharedSchemas,
  ];
  for (const schema of sharedSchemas) app.addSchema(schema);
  app.setValidatorCompiler(schemaCompilers.validatorCompiler(sharedSchemas));

  // HSTS on every answer (API, docs, dashboard, collection pages, 404s) when published over HTTPS: before the
  // error handling, whose not-found handler takes the hooks added before it.
  installStrictTransportSecurity(app, config.publicBaseUrl);
  installErrorHandling(app, { clock, docsBaseUrl: config.docsBaseUrl });
  // Before any route: each code a route declares must be in the table (and so on /docs/errors).
  installDeclaredErrorCodeCheck(app, ERROR_CODES);

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  // Before anything that reads the database (authentication first): a process still waiting for its database
  // answers 503 with Retry-After, like a request that finds the database gone later, instead of a 500 from a
  // query on tables that may not be migrated yet.
  app.addHook("onRequest", async (request) => {
    if (deps.hasStarted()) return;
    const route = request.routeOptions.url;
    if (route === "/healthz" || route === "/readyz") return;
    throw new AppError("service_unavailable", {
      message: "The service is starting: its database is not reachable yet. Retry shortly.",
      headers: { "retry-after": "5" },
    });
  });
  // Parses the Cookie header into request.cookies (the session cookie) before the access hook runs.
  await app.register(fastifyCookie);
  installAccessControl(app, {
    authenticate: apiKeys.service.authenticate,
    sessions: people.sessions,
    tenantLimiter: deps.tenantLimiter,
    clientAddressLimiter: deps.clientAddressLimiter,
    routeRoles,
  });
  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "unmatched";
    deps.metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    request.log.info(
      { method: request.method, route, status: reply.statusCode, duration_ms: Math.round(reply.elapsedTime * 10) / 10 },
      "request completed",
    );
  });

  await app.register(fastifySwagger, openApiDocumentOptions(config, referenceTags(config), COMPONENT_EXAMPLES, routeRoles));
  await app.register(fastifySwaggerUi, {
    routePrefix: "/docs",
    uiConfig: { url: "/v1/openapi.json" } as Record<string, unknown>,
  });

  registerOpsRoutes(app, { database, isAcceptingTraffic: deps.isAcceptingTraffic, hasStarted: deps.hasStarted });
  // /metrics on the API port only behind METRICS_TOKEN, and not at all when it has its own listener
  // (buildMetricsApp): platform-wide request counts are for the operator, not for whoever reaches the API.
  if (config.metrics.port === null && config.metrics.token !== null) {
    registerMetricsRoute(app, { metrics: deps.metrics, token: config.metrics.token });
  }
  registerDocsRoutes(app, ERROR_CODES);
  registration.registerRoutes(app);
  people.registerRoutes(app);
  businessProfile.registerRoutes(app);
  emails.registerRoutes(app);
  apiKeys.registerRoutes(app);
  beneficiaries.registerRoutes(app);
  destinations.registerRoutes(app);
  beneficiaryExport.registerRoutes(app);
  beneficiaryImport.registerRoutes(app);
  collection.registerRoutes(app);
  registerCollectionPages(app, {
    collection: collection.service,
    limiter: deps.collectionPageLimiter,
    cipher: deps.cipher,
    publicBaseUrl: config.publicBaseUrl,
  });
  registerDashboard(app, { directory: defaultDashboardDirectory() });
  webhooks.registerRoutes(app);
  eventsApi.registerRoutes(app);
  // Shutdown answers the requests waiting for events at once (before the server waits for open requests),
  // then stops the LISTEN.
  app.addHook("preClose", async () => eventsApi.service.endWaits());
  app.addHook("onClose", async () => feedWakeups.close());
  enrollment.registerRoutes(app);
  // The production simulator's operator control endpoint exists only when a control token is configured.
  if (config.productionRail === "simulator" && config.simulatorControlToken !== null) {
    createRailSimulatorModule({
      db: database.db,
      jobStore: deps.jobStore,
      controlToken: config.simulatorControlToken,
    }).registerRoutes(app);
  }
  payouts.registerRoutes(app);
  bankRails.registerRoutes(app);

  await app.ready();
  return app;
}

/**
 * The metrics listener (METRICS_PORT): /metrics alone, behind METRICS_TOKEN when one is set, with the same
 * error envelope as the API. Any process role can run it, so a worker-only process can be scraped too.
 */
export async function buildMetricsApp(
  deps: Pick<AppDeps, "config" | "clock" | "ids" | "logger" | "metrics">,
): Promise<AppInstance> {
  const { config, clock, ids } = deps;
  const app = Fastify({
    loggerInstance: deps.logger.child({ component: "metrics-listener" }) as FastifyBaseLogger,
    genReqId: () => ids.newId(),
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: "request_id", disableRequestLogging: true }),
    bodyLimit: 1024,
    ...serverTimeoutOptions(config.http),
    clientErrorHandler: createClientErrorHandler({ clock, ids, docsBaseUrl: config.docsBaseUrl }),
    return503OnClosing: false,
    frameworkErrors: createFrameworkErrorHandler({ clock, docsBaseUrl: config.docsBaseUrl }),
  }).withTypeProvider<TypeBoxTypeProvider>();
  installErrorHandling(app, { clock, docsBaseUrl: config.docsBaseUrl });
  registerMetricsRoute(app, { metrics: deps.metrics, token: config.metrics.token });
  await app.ready();
  return app;
}
