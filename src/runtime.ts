// createRuntime(config): opens the database, applies migrations, wires the shared dependencies and composes the
// modules (src/composition.ts) once, for the API (buildApp) and the worker alike. Tests call it with a manual clock
// and their own database.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import type { AppDeps } from "./app.js";
import { type ComposedModules, type CompositionDeps, composeModules } from "./composition.js";
import type { Config } from "./config.js";
import { createDeliveriesHook, createDeliveryHook } from "./modules/webhooks/index.js";
import { type Clock, systemClock } from "./platform/clock.js";
import { createFieldCipher, type FieldCipher } from "./platform/crypto.js";
import { makeDataDirPrivate } from "./platform/data-dir.js";
import { untilDatabaseReachable } from "./platform/db/availability.js";
import { type Database, openDatabase } from "./platform/db/client.js";
import { runMigrations } from "./platform/db/migrate.js";
import { createEventRecorder } from "./platform/events/outbox.js";
import { type IdGenerator, uuidV7Generator } from "./platform/ids.js";
import { createJobStore, JOBS_WAKEUP_CHANNEL } from "./platform/jobs/job-store.js";
import { createWorker, type JobHandlers, type Worker } from "./platform/jobs/worker.js";
import { createLogger } from "./platform/logger.js";
import { createMailer, type Mailer } from "./platform/mail/mailer.js";
import { createMetrics } from "./platform/metrics.js";
import { type Resolver, systemResolver, type TargetPolicy } from "./platform/outbound-http/url-safety.js";
import { createWebhookSender, type WebhookSender } from "./platform/outbound-http/webhook-sender.js";
import { createRateLimiter, type RateLimitStore } from "./platform/rate-limit.js";
import { createProductionSimulatorRail, SIMULATOR_TIMINGS } from "./rails/production-simulator.js";
import type { RailRegistry } from "./rails/rail.js";
import { createRailRegistry } from "./rails/registry.js";
import { createSandboxRail } from "./rails/sandbox-rail.js";
import { createJobHandlers } from "./worker/handlers.js";
import { enqueueMaskingBackfillIfNeeded } from "./worker/masking-backfill.js";

export interface RuntimeOptions {
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  readonly logger?: Logger;
  /** An already open database (tests); otherwise one is opened from the config. */
  readonly database?: Database;
  /**
   * Whether a database that cannot be reached yet is waited for (main.ts, on PostgreSQL): createRuntime then returns
   * at once, `started` settles once the database is reached and migrated (each try logged, 1 s doubling to 30 s,
   * no overall deadline), and the app answers 503 meanwhile. Otherwise (tests, and the embedded database, where
   * nothing is "down") createRuntime returns only once started, and fails if the database cannot be used.
   */
  readonly waitForDatabase?: boolean;
  /** With `waitForDatabase`: called on each failed try to reach the database. */
  readonly onDatabaseWait?: () => void;
  /** Extra job handlers (tests register probes here). */
  readonly extraJobHandlers?: JobHandlers;
  /** The payout rails per environment (tests inject fakes that script outcomes). */
  readonly rails?: RailRegistry;
  /** Extra CA certificates (PEM) trusted for webhook receivers: tests' self-signed receivers. Never set in production. */
  readonly webhookTlsCa?: string;
  /** Host name resolver for webhook URLs (tests map names to chosen addresses); defaults to the system's. */
  readonly webhookResolver?: Resolver;
  /** Host name resolver for bank-rail SFTP hosts (tests map names to chosen addresses); defaults to the system's. */
  readonly bankRailResolver?: Resolver;
  /**
   * Deadline of one webhook call: the spec's 10 s unless given. A test shortens it to see a timeout without
   * waiting 10 s. Never set in production (no configuration variable reaches it).
   */
  readonly webhookTimeoutMs?: number;
  /** An extra CA certificate (PEM) trusted for the SMTP relay: tests' self-signed relay. Never set in production. */
  readonly smtpTlsCa?: string;
  /**
   * TEST ONLY, never set in production (main.ts does not): awaited between a bank file's upload and its record,
   * so the crash test (test/bank-rails/crash-postgres.test.ts) can kill a worker process in that window.
   */
  readonly testOnlyBankUploadPause?: (file: { readonly id: string; readonly fileName: string }) => Promise<void>;
}

export interface Runtime {
  readonly deps: AppDeps &
    CompositionDeps & { readonly cipher: FieldCipher; readonly mailer: Mailer; readonly modules: ComposedModules };
  /**
   * Settles once the database was reached and migrated (already settled when createRuntime returns, unless
   * `waitForDatabase`); rejects when the start failed for good (a wrong password, a database that does not exist)
   * or close() ended the wait. Start workers only after it.
   */
  readonly started: Promise<void>;
  readonly handlers: JobHandlers;
  createWorker(workerId?: string): Worker;
  /** Marks the process as shutting down (readiness turns 503). */
  beginShutdown(): void;
  close(): Promise<void>;
}

/** Embedded mode only: a key generated on first start and kept beside the data it protects. */
async function loadOrCreateEmbeddedKey(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, "encryption.key");
  try {
    const key = Buffer.from((await readFile(file, "utf8")).trim(), "base64");
    if (key.length === 32) return key;
    throw new Error(`${file} does not hold a 32-byte base64 key`);
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") throw error;
  }
  const key = randomBytes(32);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  await chmod(file, 0o600);
  return key;
}

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? uuidV7Generator;
  const logger = options.logger ?? createLogger(config.logLevel);
  const embedded = options.database === undefined && config.databaseUrl === null;
  // DATA_DIR is private to the service user (see platform/data-dir.ts); wider modes left by an earlier run,
  // a restore or a copy are corrected before anything reads it. On PostgreSQL it is created only when mail
  // is written there.
  const found = await makeDataDirPrivate(config.dataDir, { create: embedded });
  if (found.correctedDirectories + found.correctedFiles > 0) {
    logger.warn(
      { data_dir: config.dataDir, folders: found.correctedDirectories, files: found.correctedFiles },
      "DATA_DIR entries were readable by other users: group and other permissions removed",
    );
  }
  const database =
    options.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize }));
  const ownsDatabase = options.database === undefined;
  // Ends a wait for the database when the process shuts down before it came.
  const stopWaiting = new AbortController();
  const waitForDatabase = options.waitForDatabase === true && database.engine === "postgres";
  const migrate = () => runMigrations(database.db);
  const migrated = (async () => {
    const outcome = waitForDatabase
      ? await untilDatabaseReachable(migrate, {
          log: logger.child({ component: "database-startup" }),
          signal: stopWaiting.signal,
          ...(options.onDatabaseWait === undefined ? {} : { onWait: options.onDatabaseWait }),
        })
      : await migrate();
    if (outcome.applied > 0) logger.info(outcome, "database migrations applied");
    if (embedded) {
      // PGlite creates a new database's files readable by everyone (0666) whatever the umask.
      const created = await makeDataDirPrivate(config.dataDir, { create: false });
      if (created.correctedDirectories + created.correctedFiles > 0) {
        logger.debug(
          { folders: created.correctedDirectories, files: created.correctedFiles },
          "embedded database files made private",
        );
      }
    }
  })();
  if (!waitForDatabase) {
    try {
      await migrated;
    } catch (error) {
      if (ownsDatabase) await database.close().catch(() => {});
      throw error;
    }
  }

  const encryptionKey = config.encryptionKey ?? (await loadOrCreateEmbeddedKey(config.dataDir));
  const cipher = createFieldCipher(encryptionKey);
  const jobStore = createJobStore({ db: database.db, clock, ids, defaultMaxAttempts: config.jobs.maxAttempts });
  let hasStarted = false;
  const started = migrated.then(async () => {
    // Masked values stored under an older masking rule are re-masked by a job (a no-op read when none are left).
    try {
      if ((await enqueueMaskingBackfillIfNeeded(database.db, jobStore)) !== null) logger.info("masking backfill enqueued");
    } catch (error) {
      // Not fatal: the values stay as they were, and the next start tries again.
      logger.warn({ err: error }, "could not check for masked values to re-mask");
    }
    hasStarted = true;
  });
  // Whoever waits for it (main.ts) hears a failure; until then it must not count as an unhandled rejection.
  started.catch(() => {});
  if (!waitForDatabase) await started;
  // Webhooks: every recorded event is matched against the tenant's subscription in its own transaction.
  const events = createEventRecorder({
    clock,
    ids,
    onRecorded: createDeliveryHook({ clock, ids }),
    onRecordedMany: createDeliveriesHook({ clock, ids }),
  });
  const webhookPolicy: TargetPolicy = {
    allowPrivateTargets: config.webhooks.allowPrivateTargets,
    resolve: options.webhookResolver ?? systemResolver,
  };
  // SFTP hosts of bank rails: the same address rules, under their own operator switch.
  const bankRailHostPolicy: TargetPolicy = {
    allowPrivateTargets: config.bankRails.allowPrivateHosts,
    resolve: options.bankRailResolver ?? systemResolver,
  };
  const webhookSender: WebhookSender = createWebhookSender({
    policy: webhookPolicy,
    ...(options.webhookTlsCa === undefined ? {} : { ca: options.webhookTlsCa }),
    ...(options.webhookTimeoutMs === undefined ? {} : { timeoutMs: options.webhookTimeoutMs }),
  });
  const metrics = createMetrics({ jobStore });
  // Wake-ups for idle workers: one LISTEN per process, opened when the first worker starts. Without it the
  // workers still run every job, only later (at their poll interval): the log and the metrics say so.
  const wakeupListeners = new Set<() => void>();
  let stopListening: Promise<() => Promise<void>> | null = null;
  const wakeupLog = logger.child({ component: "job-wakeups", channel: JOBS_WAKEUP_CHANNEL });
  const wakeups = (nudge: () => void) => {
    wakeupListeners.add(nudge);
    stopListening ??= database
      .listen(
        JOBS_WAKEUP_CHANNEL,
        () => {
          for (const listener of wakeupListeners) listener();
        },
        {
          listening: (recovered) => {
            metrics.observeWakeupListener("listening");
            if (recovered) wakeupLog.info("job wake-ups restored: listening again");
          },
          failed: (error, retryInMs) => {
            metrics.observeWakeupListener("failed");
            wakeupLog.warn(
              { err: error, retry_in_ms: retryInMs },
              "job wake-ups unavailable (LISTEN failed); workers poll only until it succeeds",
            );
          },
          lost: (error) => {
            metrics.observeWakeupListener("lost");
            wakeupLog.warn({ err: error }, "job wake-up connection lost; workers poll only until it reconnects");
          },
        },
      )
      .catch((error: unknown) => {
        metrics.observeWakeupListener("failed");
        wakeupLog.warn({ err: error }, "job wake-ups unavailable; workers poll only");
        return async () => {};
      });
    return () => {
      wakeupListeners.delete(nudge);
    };
  };
  const store: RateLimitStore = database.pool === null ? { kind: "memory" } : { kind: "postgres", pool: database.pool };
  // Creating it opens no connection and touches no file: that happens on the first send, in a job.
  const mailer = createMailer({
    smtpUrl: config.mail.smtpUrl,
    smtpAllowPlaintext: config.mail.smtpAllowPlaintext,
    ...(options.smtpTlsCa === undefined ? {} : { smtpTlsCa: options.smtpTlsCa }),
    dataDir: config.dataDir,
    from: config.mail.from,
    ids,
    logger: logger.child({ component: "mailer" }),
  });
  let accepting = true;

  // Production uses the configured rail; PRODUCTION_RAIL=simulator (the only value so far) is the simulator.
  const rails =
    options.rails ??
    createRailRegistry({
      sandbox: createSandboxRail(),
      production: createProductionSimulatorRail({
        clock,
        // The simulator's late return must land after settlement, however long the configured return window.
        lateReturnAfterMs: Math.max(SIMULATOR_TIMINGS.lateReturn, (config.payouts.returnWindowHours + 24) * 3_600_000),
      }),
    });
  // Every module, once per process, whatever its role: the API reads their routes, the worker their jobs.
  const modules = composeModules({
    config,
    database,
    clock,
    ids,
    cipher,
    events,
    jobStore,
    logger,
    metrics,
    rails,
    webhookPolicy,
    webhookSender,
    bankRailHostPolicy,
    mailer,
    ...(options.testOnlyBankUploadPause === undefined ? {} : { testOnlyBankUploadPause: options.testOnlyBankUploadPause }),
  });

  const deps = {
    config,
    database,
    clock,
    ids,
    logger,
    jobStore,
    events,
    metrics,
    cipher,
    mailer,
    webhookPolicy,
    webhookSender,
    bankRailHostPolicy,
    rails,
    modules,
    tenantLimiter: createRateLimiter(config.rateLimit, store, "tenant"),
    clientAddressLimiter: createRateLimiter(config.registrationRateLimit, store, "client"),
    collectionPageLimiter: createRateLimiter(config.collectionPageRateLimit, store, "collect"),
    isAcceptingTraffic: () => accepting,
    hasStarted: () => hasStarted,
  };
  const handlers: JobHandlers = {
    ...createJobHandlers(modules),
    ...(options.extraJobHandlers ?? {}),
  };

  return {
    deps,
    handlers,
    started,
    createWorker: (workerId) =>
      createWorker({
        store: jobStore,
        handlers,
        clock,
        logger,
        workerId: workerId ?? `${hostname()}:${process.pid}:${ids.newId().slice(-8)}`,
        concurrency: config.jobs.concurrency,
        pollIntervalMs: config.jobs.pollIntervalMs,
        leaseMs: config.jobs.leaseSeconds * 1000,
        wakeups,
        onPoll: (result) => metrics.observeWorkerPoll(result),
      }),
    beginShutdown: () => {
      accepting = false;
    },
    close: async () => {
      accepting = false;
      stopWaiting.abort(new Error("shutting down before the database was reached"));
      await Promise.all([
        deps.tenantLimiter.close(),
        deps.clientAddressLimiter.close(),
        deps.collectionPageLimiter.close(),
        mailer.close(),
        modules.close(),
      ]);
      await webhookSender.close().catch(() => {});
      if (stopListening !== null) await (await stopListening)();
      if (ownsDatabase) await database.close();
    },
  };
}
