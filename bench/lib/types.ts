// The contract between bench/run.ts and the benchmark modules. A benchmark gets a context (how to start
// the built service, where PostgreSQL is, how long to warm and measure) and returns a JSON-ready result.
import type { ServiceBuild } from "./service-build.js";

export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

export type Engine = "pglite" | "postgres";

export interface BenchSettings {
  /** Seconds of load before each measurement (JIT, connection pools, caches). */
  readonly warmupSeconds: number;
  /** Seconds of measured load. */
  readonly measureSeconds: number;
  /** Engines to run on; PostgreSQL is dropped (and reported as skipped) when the server is unreachable. */
  readonly engines: readonly Engine[];
}

export interface BenchContext {
  readonly settings: BenchSettings;
  /** How to start the service under test in its own process. */
  readonly service: ServiceBuild;
  /** A PostgreSQL server URL on which scratch databases may be created, or null (then `postgresUnavailable` says why). */
  readonly postgresServerUrl: string | null;
  readonly postgresUnavailable: string | null;
  /** Progress for humans, on stderr; stdout is reserved for the final JSON document. */
  log(message: string): void;
}

export interface Benchmark {
  /** snake_case key of the result in the JSON document; also the name accepted on the command line. */
  readonly name: string;
  readonly description: string;
  run(context: BenchContext): Promise<{ readonly [key: string]: Json }>;
}
