// The service under test: the built service in its own process (`node dist/main.js api`) on a fresh
// database: an embedded PGlite under a temporary DATA_DIR, or a scratch PostgreSQL database.
import { randomBytes } from "node:crypto";
import { registerThroughMail } from "./registration-mail.js";
import { createScratchDatabase, type ScratchDatabase } from "./scratch-postgres.js";
import { type ServerProcess, startServerProcess } from "./server-process.js";
import { createTempDir } from "./temp-dir.js";
import type { BenchContext, Engine } from "./types.js";

export interface ServiceUnderTest {
  readonly engine: Engine;
  /** The running `api` process; replaced (same port, new pid) while registerBusiness runs. */
  readonly server: ServerProcess;
  /** The scratch PostgreSQL database (null on PGlite); still present after stopServer(), gone after dispose(). */
  readonly scratch: ScratchDatabase | null;
  /** Stops the process only (its database connections close, so PostgreSQL flushes their statistics). */
  stopServer(): Promise<void>;
  /** Stops the process and removes its database and data directory. */
  dispose(): Promise<void>;
  /**
   * Runs `work` against the whole service (API and worker, `node dist/main.js all`) on the same port, data
   * and database, then goes back to the `api` process the measurements use. Registration needs the worker:
   * it writes the verification e-mail.
   */
  withWorker<T>(work: (baseUrl: string) => Promise<T>): Promise<T>;
  /** DATA_DIR of the service: the embedded database and the mail the worker writes. */
  readonly dataDir: string;
}

/** The service's /metrics needs a token on the API port; benchmarks that sample it send this one. */
export const BENCH_METRICS_TOKEN = randomBytes(24).toString("hex");

/** Settings a benchmark should not be throttled or slowed by; a benchmark may override them. */
export const BENCH_SERVICE_ENV: Readonly<Record<string, string>> = {
  LOG_LEVEL: "warn",
  METRICS_TOKEN: BENCH_METRICS_TOKEN,
  RATE_LIMIT_REQUESTS: "10000000",
  REGISTRATION_RATE_LIMIT_REQUESTS: "1000000",
};

export async function startService(
  context: BenchContext,
  engine: Engine,
  env: Readonly<Record<string, string>> = {},
): Promise<ServiceUnderTest> {
  const dataDir = await createTempDir(`bench-${engine}-data`);
  let scratch: ScratchDatabase | null = null;
  try {
    if (engine === "postgres") {
      if (context.postgresServerUrl === null) throw new Error(`PostgreSQL unavailable: ${context.postgresUnavailable}`);
      scratch = await createScratchDatabase(context.postgresServerUrl);
    }
    const serviceEnv = {
      HOST: "127.0.0.1",
      DATA_DIR: dataDir.path,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      ...(scratch === null ? {} : { DATABASE_URL: scratch.url }),
      ...BENCH_SERVICE_ENV,
      ...env,
    };
    const start = (role: "api" | "all", port?: number) =>
      startServerProcess({
        name: `service (${engine}, ${role})`,
        nodeArgs: [...context.service.nodeArgs, role],
        env: serviceEnv,
        readyPath: "/readyz",
        ...(port === undefined ? {} : { port }),
      });
    let server = await start("api");
    const owned = scratch;
    return {
      engine,
      get server() {
        return server;
      },
      scratch: owned,
      dataDir: serviceEnv.DATA_DIR,
      stopServer: () => server.stop(),
      dispose: async () => {
        await server.stop();
        await owned?.drop();
        await dataDir.remove();
      },
      async withWorker(work) {
        const port = Number(new URL(server.baseUrl).port);
        await server.stop();
        server = await start("all", port);
        try {
          return await work(server.baseUrl);
        } finally {
          await server.stop();
          server = await start("api", port);
        }
      },
    };
  } catch (error) {
    await scratch?.drop();
    await dataDir.remove();
    throw error;
  }
}

export interface RegisteredBusiness {
  readonly businessId: string;
  readonly sandboxKey: string;
  readonly productionKey: string;
  /** The admin's e-mail; the password is BENCH_PASSWORD (sign-in benchmarks). */
  readonly email: string;
}

export const BENCH_PASSWORD = "correct horse battery staple";

/**
 * A new Business with one sandbox and one production admin key, registered as a person would: the
 * registration, the token from the e-mail the worker writes under DATA_DIR/mail, the verification.
 */
export async function registerBusiness(service: ServiceUnderTest, label = "bench"): Promise<RegisteredBusiness> {
  const email = `${label}-${randomBytes(6).toString("hex")}@bench.example.com`;
  const keys = await service.withWorker((baseUrl) =>
    registerThroughMail(
      async (route, body) => {
        const response = await fetch(`${baseUrl}${route}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: response.status, text: await response.text() };
      },
      service.dataDir,
      `Bench ${label}`,
      email,
    ),
  );
  return { ...keys, email };
}
