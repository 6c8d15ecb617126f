// When the database is out of reach, and waiting for it. One rule for the whole service: the error handler answers
// 503 for these errors (a request that lost its database is retried by its client), and a process that starts
// while the database is down waits on exactly these (main.ts), while any other failure still stops the start.
import { setTimeout as sleep } from "node:timers/promises";

/** Socket errors of a server that is down, restarting, or not yet resolvable (a container not started yet). */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs of a server that is not accepting this connection now but will: 57P01 admin_shutdown (also what a
 * backend says when its postmaster died or an immediate shutdown began), 57P02 crash_shutdown, 57P03
 * cannot_connect_now (starting up, in recovery, shutting down), 53300 too_many_connections, and class 08
 * (connection_exception).
 */
const SERVER_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);

/**
 * node-postgres errors that carry no code: the pool's connection deadline, a connection closed under a query, and
 * a checked-out client used again after its connection failed.
 */
const DRIVER_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|connection error and is not queryable/i;

/**
 * True when `error` (or one of its causes) says the database cannot be reached now and may be later. False for
 * everything else, including a server that answers but refuses us for good: a wrong password or user (class 28),
 * a database that does not exist (3D000), missing privileges, TLS that does not match. Those need the operator.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
      return true;
    }
    if (DRIVER_MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

export interface WaitForDatabaseOptions {
  /** Where each try is reported (a pino logger). */
  readonly log: { warn(fields: object, message: string): void; info(fields: object, message: string): void };
  /** Stops waiting (shutdown): the wait rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** First delay between tries (default 1 s), doubled after each try up to `maxDelayMs` (default 30 s). */
  readonly firstDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Called on each failed try (main.ts tells the console that the process is up but waiting). */
  readonly onWait?: (attempt: number) => void;
}

/**
 * Runs `step` (the start's first use of the database: the migrations) until it does not fail for want of the
 * database. Every failed try is logged with its number and the delay before the next (1 s doubling to 30 s).
 * There is no overall deadline: a process whose database is away stays up and not ready (/readyz 503, /healthz
 * 200) rather than exiting into its supervisor's restart loop, and the log says why. An error that no wait
 * can fix (see isDatabaseUnreachable) is thrown at once.
 */
export async function untilDatabaseReachable<T>(step: () => Promise<T>, options: WaitForDatabaseOptions): Promise<T> {
  const first = options.firstDelayMs ?? 1_000;
  const max = options.maxDelayMs ?? 30_000;
  for (let attempt = 1; ; attempt += 1) {
    options.signal?.throwIfAborted();
    try {
      const result = await step();
      if (attempt > 1) options.log.info({ attempts: attempt }, "database reachable");
      return result;
    } catch (error) {
      if (!isDatabaseUnreachable(error)) throw error;
      const delay = Math.min(first * 2 ** (attempt - 1), max);
      options.log.warn({ attempt, retry_in_ms: delay, err: error }, "database not reachable yet; waiting for it");
      options.onWait?.(attempt);
      const signal = options.signal;
      await sleep(delay, undefined, signal === undefined ? {} : { signal }).catch((aborted: unknown) => {
        throw signal?.reason ?? aborted;
      });
    }
  }
}
