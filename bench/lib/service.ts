// The service under test: the built service in its own process (`node dist/main.js api`) on a fresh
// database: an embedded PGlite under a temporary DATA_DIR, or a scratch PostgreSQL database.
import { randomBytes } from "node:crypto";
import { createScratchDatabase, type ScratchDatabase } from "./scratch-postgres.js";
import { type ServerProcess, startServerProcess } from "./server-process.js";
import { createTempDir } from "./temp-dir.js";
import type { BenchContext, Engine } from "./types.js";

export interface ServiceUnderTest {
  readonly engine: Engine;
  readonly server: ServerProcess;
  /** The scratch PostgreSQL database (null on PGlite); still present after stopServer(), gone after dispose(). */
  readonly scratch: ScratchDatabase | null;
  /** Stops the process only (its database connections close, so PostgreSQL flushes their statistics). */
  stopServer(): Promise<void>;
  /** Stops the process and removes its database and data directory. */
  dispose(): Promise<void>;
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
    const server = await startServerProcess({
      name: `service (${engine})`,
      nodeArgs: [...context.service.nodeArgs, "api"],
      env: {
        HOST: "127.0.0.1",
        DATA_DIR: dataDir.path,
        ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        ...(scratch === null ? {} : { DATABASE_URL: scratch.url }),
        ...BENCH_SERVICE_ENV,
        ...env,
      },
      readyPath: "/readyz",
    });
    const owned = scratch;
    return {
      engine,
      server,
      scratch: owned,
      stopServer: () => server.stop(),
      dispose: async () => {
        await server.stop();
        await owned?.drop();
        await dataDir.remove();
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
}

interface RegistrationResponse {
  readonly business: { readonly id: string };
  readonly api_keys: readonly { readonly environment: string; readonly key: string }[];
}

/** POST /v1/registration: a new Business with one sandbox and one production admin key. */
export async function registerBusiness(baseUrl: string, label = "bench"): Promise<RegisteredBusiness> {
  const response = await fetch(`${baseUrl}/v1/registration`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      business_name: `Bench ${label}`,
      email: `${label}-${randomBytes(6).toString("hex")}@bench.example.com`,
      password: "correct horse battery staple",
    }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${text}`);
  const body = JSON.parse(text) as RegistrationResponse;
  const keyFor = (environment: string) => {
    const key = body.api_keys.find((candidate) => candidate.environment === environment)?.key;
    if (key === undefined) throw new Error(`registration returned no ${environment} key`);
    return key;
  };
  return { businessId: body.business.id, sandboxKey: keyFor("sandbox"), productionKey: keyFor("production") };
}
