// buildApp(deps): the HTTP application. It registers the platform's plugins and hooks, then the routes of the
// modules composed for this process (src/composition.ts), and never listens; main.ts (or a test) decides what to do
// with it.
import fastifyCookie from "@fastify/cookie";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyBaseLogger, LogController } from "fastify";
import type { Logger } from "pino";
import type { ComposedModules } from "./composition.js";
import type { Config, HttpTimeouts, TrustProxy } from "./config.js";
import { registerCollectionPages } from "./pages/collection/index.js";
import { defaultDashboardDirectory, registerDashboard } from "./pages/dashboard/index.js";
import { createRouteRoleTable } from "./platform/auth/route-roles.js";
import type { Clock } from "./platform/clock.js";
import type { FieldCipher } from "./platform/crypto.js";
import type { Database } from "./platform/db/client.js";
import { AppError } from "./platform/errors.js";
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
import type { Metrics } from "./platform/metrics.js";
import type { RateLimiter } from "./platform/rate-limit.js";
import { COMPONENT_EXAMPLES } from "./reference-examples.js";
import { referenceTags } from "./reference-guide.js";

export interface AppDeps {
  readonly config: Config;
  readonly database: Database;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Every module of the process (src/composition.ts): the API registers their shared schemas and routes. */
  readonly modules: ComposedModules;
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

  const { modules } = deps;
  const routeRoles = createRouteRoleTable(modules.routeRoles);
  // Schemas with an $id: named components in OpenAPI, $ref targets for validation and serialization.
  const sharedSchemas = [ActorSchema, ErrorDetailSchema, ErrorEnvelopeSchema, ...modules.sharedSchemas];
  for (const schema of sharedSchemas) app.addSchema(schema);
  app.setValidatorCompiler(schemaCompilers.validatorCompiler(sharedSchemas));

  // HSTS on every answer (API, docs, dashboard, collection pages, 404s) when published over HTTPS: before the
  // error handling, whose not-found handler takes the hooks added before it.
  installStrictTransportSecurity(app, config.publicBaseUrl);
  installErrorHandling(app, { clock, docsBaseUrl: config.docsBaseUrl });
  // Before any route: each code a route declares must be in the table (and so on /docs/errors).
  installDeclaredErrorCodeCheck(app, modules.errorCodes);

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
    authenticate: modules.access.authenticate,
    sessions: modules.access.sessions,
    routeRoles,
    tenantLimiter: deps.tenantLimiter,
    clientAddressLimiter: deps.clientAddressLimiter,
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
  registerDocsRoutes(app, modules.errorCodes);
  // Every module's routes, in the list's order (the order of the OpenAPI document's paths).
  for (const module of modules.modules) module.registerRoutes?.(app);
  // The hosted pages (no OpenAPI operation: hidden from the document).
  registerCollectionPages(app, {
    collection: modules.collectionPages,
    limiter: deps.collectionPageLimiter,
    cipher: deps.cipher,
    publicBaseUrl: config.publicBaseUrl,
  });
  registerDashboard(app, { directory: defaultDashboardDirectory() });

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
