// buildTestApp(): the real application on a real database (PGlite, or PostgreSQL when TEST_DATABASE_URL
// is set) with a manual clock, driven through inject(). Each test file builds its own.
import { Writable } from "node:stream";
import { buildApp } from "../../src/app.js";
import { type Config, loadConfig } from "../../src/config.js";
import { createManualClock, type ManualClock } from "../../src/platform/clock.js";
import { createSchemaCompilers } from "../../src/platform/http/schema-compilers.js";
import type { AppInstance } from "../../src/platform/http/types.js";
import type { JobHandlers } from "../../src/platform/jobs/worker.js";
import { createLogger } from "../../src/platform/logger.js";
import type { RailRegistry } from "../../src/rails/rail.js";
import { createRuntime, type Runtime, type RuntimeOptions } from "../../src/runtime.js";
import { createDeclaredErrorCheck, type DeclaredErrorCheck } from "./declared-errors.js";
import { assertRecordedEventsMatchContract } from "./event-contract.js";
import { openTestDatabase, type TestDatabase } from "./test-database.js";
import { testCertificate } from "./webhook-receiver.js";

export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");
export const TEST_START = new Date("2026-05-27T12:00:00.000Z");

export interface TestApp {
  readonly app: AppInstance;
  readonly runtime: Runtime;
  readonly clock: ManualClock;
  readonly config: Config;
  readonly testDatabase: TestDatabase;
  /** Every log line the service wrote, as raw JSON text (for "nothing sensitive in logs" assertions). */
  readonly logLines: string[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables layered over the test defaults (e.g. RATE_LIMIT_REQUESTS). */
  readonly env?: Readonly<Record<string, string>>;
  readonly extraJobHandlers?: JobHandlers;
  /** Payout rails per environment; defaults to the runtime's own. */
  readonly rails?: RailRegistry;
  /** Test-only runtime options (webhooks: the receiver's CA, a fake resolver, a shorter deadline; the SMTP relay's CA). */
  readonly runtime?: Pick<
    RuntimeOptions,
    "webhookTlsCa" | "webhookResolver" | "webhookTimeoutMs" | "smtpTlsCa" | "bankRailResolver"
  >;
  /**
   * A database the test opened itself (one on a PostgreSQL server of its own: test/helpers/own-postgres.ts),
   * migrated by createRuntime and closed by close(); by default a fresh test database (openTestDatabase).
   */
  readonly database?: TestDatabase;
}

/**
 * One set of compiled validators and serializers for every app this worker process builds: the schemas are
 * the same from one app to the next, and compiling them was most of the CPU an app cost to build.
 */
const schemaCompilers = createSchemaCompilers();

const declaredErrorChecks = new WeakMap<AppInstance, DeclaredErrorCheck>();

/**
 * Every response a test receives through inject() is checked against the OpenAPI document: an error from one
 * of its operations must be a status and code that operation declares (close() reports violations).
 */
function observeDeclaredErrors(app: AppInstance): void {
  const check = createDeclaredErrorCheck(app);
  declaredErrorChecks.set(app, check);
  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  const observed = (...args: unknown[]): unknown => {
    const [options, callback] = args;
    if (typeof options !== "object" || options === null || callback !== undefined) return inject(...args);
    const { method, url } = options as { method?: unknown; url?: unknown };
    const result = inject(options) as Promise<{ statusCode: number; body: string }>;
    if (typeof url !== "string") return result;
    return result.then((res) => {
      check.observe(typeof method === "string" ? method : "GET", url, res.statusCode, res.body);
      return res;
    });
  };
  (app as unknown as { inject: unknown }).inject = observed;
}

/** The TestApp behind an app built by buildTestApp (factories take the app alone). */
const testApps = new WeakMap<AppInstance, TestApp>();

export function testAppOf(app: AppInstance): TestApp {
  const testApp = testApps.get(app);
  if (testApp === undefined) throw new Error("this app was not built by buildTestApp");
  return testApp;
}

export function testConfig(env: Readonly<Record<string, string>> = {}): Config {
  return loadConfig({
    LOG_LEVEL: "info",
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    DATA_DIR: "/nonexistent-test-data-dir",
    PUBLIC_BASE_URL: "http://service.test",
    RATE_LIMIT_REQUESTS: "100000",
    REGISTRATION_RATE_LIMIT_REQUESTS: "100000",
    COLLECTION_RATE_LIMIT_REQUESTS: "100000",
    ...env,
  });
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(options.env);
  const clock = createManualClock(TEST_START);
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(String(chunk));
      callback();
    },
  });
  const testDatabase = options.database ?? (await openTestDatabase({ migrated: true }));
  // The SMTP relay of a test (test/mail/smtp-sink.ts) speaks STARTTLS with the tests' self-signed certificate:
  // the service trusts it as the relay's CA unless the test names another, exactly as an operator would add
  // a private CA. Verification itself is never turned off.
  const smtpTlsCa = config.mail.smtpUrl === null ? undefined : testCertificate().cert;
  const runtime = await createRuntime(config, {
    clock,
    logger: createLogger(config.logLevel, sink),
    database: testDatabase.database,
    ...(options.extraJobHandlers ? { extraJobHandlers: options.extraJobHandlers } : {}),
    ...(options.rails ? { rails: options.rails } : {}),
    ...(smtpTlsCa === undefined ? {} : { smtpTlsCa }),
    ...(options.runtime ?? {}),
  });
  const app = await buildApp(runtime.deps, { schemaCompilers });
  observeDeclaredErrors(app);
  const testApp: TestApp = {
    app,
    runtime,
    clock,
    config,
    testDatabase,
    logLines,
    close: async () => {
      // Checked before closing so a mismatch fails the file that recorded it, on both engines.
      const contractCheck = await assertRecordedEventsMatchContract(testDatabase.database.db).then(
        () => null,
        (error: unknown) => error,
      );
      const undeclaredErrors = declaredErrorChecks.get(app)?.violations ?? [];
      await app.close();
      await runtime.close();
      await testDatabase.close();
      if (contractCheck !== null) throw contractCheck;
      if (undeclaredErrors.length > 0) {
        throw new Error(
          `errors the OpenAPI document does not declare (add the code to the route's routeResponses codes):\n${[...new Set(undeclaredErrors)].join("\n")}`,
        );
      }
    },
  };
  testApps.set(app, testApp);
  return testApp;
}
