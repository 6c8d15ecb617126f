// Process entry: `node dist/main.js [all|api|worker|migrate]`.
//   all      API and worker in one process (the default, and what `npm start` runs)
//   api      HTTP only; run several behind a load balancer against one PostgreSQL
//   worker   background jobs only; run several against one PostgreSQL
//   migrate  apply database migrations and exit
import path from "node:path";
import { buildApp, buildMetricsApp } from "./app.js";
import { ConfigError, loadConfig, parseProcessRole } from "./config.js";
import { identityRequirementsOf } from "./modules/beneficiaries/index.js";
import { PRODUCTION_PASSWORD_HASH_COST, passwordHashCost } from "./platform/crypto.js";
import { DataDirPermissionError } from "./platform/data-dir.js";
import { createLogger } from "./platform/logger.js";
import { createRuntime } from "./runtime.js";
import { scheduleRetentionSweep } from "./worker/retention.js";

async function main(): Promise<void> {
  // Everything this process creates (database files, the encryption key, mail) is for its own user only,
  // whatever umask it was started with; runtime.ts also corrects what already exists under DATA_DIR.
  process.umask(0o077);
  // Only the test harness lowers the password hash cost, in its own processes; a service never runs with it.
  if (passwordHashCost() !== PRODUCTION_PASSWORD_HASH_COST) {
    throw new Error("password hashing is set to the tests' low cost; refusing to start");
  }
  const arg = process.argv[2];
  const config = loadConfig();
  // The modules' own settings are checked at once, for every process role, like the rest of the configuration
  // (config.ts reads them as plain data; the module that owns the rule interprets them).
  identityRequirementsOf(config.identityRequired);
  const logger = createLogger(config.logLevel);
  // On PostgreSQL a database that is down (or not up yet) is waited for: the API listens at once and answers 503
  // (/readyz too) until it is reached and migrated, and the worker starts claiming jobs only then. An error that
  // waiting cannot fix (wrong password, no such database) still stops the start. See runtime.ts `started`.
  // The startup banner ("… listening on host:port") means ready: it is printed once the start is complete, so
  // whoever waits for it (an operator, a script, a test) can send requests at once. While the database is being
  // waited for, a shorter line says the port answers 503 meanwhile.
  let databaseWaitedFor = false;
  let announceWaiting: (() => void) | null = null;
  const runtime = await createRuntime(config, {
    logger,
    waitForDatabase: true,
    onDatabaseWait: () => {
      if (databaseWaitedFor) return;
      databaseWaitedFor = true;
      announceWaiting?.();
    },
  });
  let stopping = false;
  /** The start's outcome; a shutdown that ended the wait is no failure (shutdown() exits by itself). */
  const started = () =>
    runtime.started.then(
      () => true,
      (error: unknown) => {
        if (stopping) return false;
        throw error;
      },
    );
  if (arg === "migrate") {
    await started();
    logger.info("migrations are up to date");
    await runtime.close();
    return;
  }
  const role = parseProcessRole(arg);
  const app = role === "worker" ? null : await buildApp(runtime.deps);
  const worker = role === "api" ? null : runtime.createWorker();
  // Its own listener when METRICS_PORT is set, in every role: a worker-only process is scraped there too.
  const metricsApp = config.metrics.port === null ? null : await buildMetricsApp(runtime.deps);

  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting immediately");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, "shutting down: no new connections or jobs; finishing in-flight work");
    runtime.beginShutdown();
    const deadline = setTimeout(() => {
      logger.error("shutdown timed out; exiting");
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000);
    deadline.unref();
    await Promise.all([app?.close(), metricsApp?.close(), worker?.stop(config.shutdownTimeoutMs)]);
    await runtime.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGINT", (signal) => void shutdown(signal));
  process.on("SIGTERM", (signal) => void shutdown(signal));

  let announceReady = () => {};
  let announceMetrics = () => {};
  if (app !== null) {
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === "object" && address !== null ? address.port : config.port;
    announceWaiting = () =>
      process.stdout.write(
        `Payout orchestration service (${role}) listening on ${config.host}:${port}: waiting for the database; every request but /healthz and /readyz answers 503 until it is reached\n`,
      );
    if (databaseWaitedFor) announceWaiting();
    const base = config.publicBaseUrl.replace(`:${config.port}`, `:${port}`);
    const database = config.databaseUrl === null ? `embedded PGlite in ${config.dataDir}` : "PostgreSQL (DATABASE_URL)";
    announceReady = () =>
      process.stdout.write(
        [
          "",
          `Payout orchestration service (${role}) listening on ${config.host}:${port}, database: ${database}`,
          `  Dashboard:      ${base}/dashboard/  (register a Business there, or sign in)`,
          `  API document:   ${base}/v1/openapi.json`,
          `  API reference:  ${base}/docs`,
          `  Health check:   ${base}/healthz  (readiness: ${base}/readyz)`,
          ...(config.metrics.port === null && config.metrics.token !== null
            ? [`  Metrics:        ${base}/metrics  (Authorization: Bearer <METRICS_TOKEN>)`]
            : []),
          config.mail.smtpUrl === null
            ? `  E-mail:         written as .eml files under ${path.join(config.dataDir, "mail")} by the worker (SMTP_URL unset)`
            : "  E-mail:         sent through the SMTP_URL relay",
          "  Start here:     POST /v1/registration, then POST /v1/registration/verification with the e-mailed token, for API keys",
          "",
        ].join("\n"),
      );
  }
  if (metricsApp !== null) {
    await metricsApp.listen({ port: config.metrics.port ?? 0, host: config.metrics.host });
    const address = metricsApp.server.address();
    const port = typeof address === "object" && address !== null ? address.port : config.metrics.port;
    const host = config.metrics.host.includes(":") ? `[${config.metrics.host}]` : config.metrics.host;
    const auth = config.metrics.token === null ? "" : "  (Authorization: Bearer <METRICS_TOKEN>)";
    announceMetrics = () =>
      process.stdout.write(`Metrics (${role}) listening on ${host}:${port}: http://${host}:${port}/metrics${auth}\n`);
  }
  if (!(await started())) return;
  // The service's banner first, then the metrics listener's (scripts take the first "listening on" as the API's).
  announceReady();
  announceMetrics();
  if (worker !== null) {
    // Starts the hourly retention sweep's chain, or finds it running (one job per slot, whatever the processes).
    await scheduleRetentionSweep(runtime.deps.database.db, runtime.deps.jobStore, runtime.deps.clock.now()).catch(
      (error: unknown) => logger.warn({ err: error }, "could not schedule the retention sweep; the next start tries again"),
    );
    // SANCTIONS_LISTS: loaded (and every Beneficiary screened again by a job) when the files changed since the
    // last load; a file that cannot be read stops the start, as a bad configuration value does.
    await runtime.deps.modules.loadConfiguredSanctionsLists();
    worker.start();
    logger.info("worker started");
  }
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
  } else if (error instanceof DataDirPermissionError) {
    process.stderr.write(`Data directory error: ${error.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
