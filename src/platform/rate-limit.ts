// Rate limiting per Business and environment (spec: Limits), and per client address for registration.
// rate-limiter-flexible keeps the counters: in memory for the embedded single process, in PostgreSQL when
// several API processes share one database so they share one count.
import type pg from "pg";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";

export interface RateLimitConfig {
  /** Requests allowed per Business and environment within one window. */
  readonly points: number;
  readonly windowSeconds: number;
}

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly resetSeconds: number;
}

export interface RateLimiter {
  consume(key: string): Promise<RateLimitDecision>;
  /** Sends counts not yet shared and stops the flush timer. */
  close(): Promise<void>;
}

export type RateLimitStore = { kind: "memory" } | { kind: "postgres"; pool: pg.Pool };

export interface SharedCountOptions {
  /** How often locally admitted requests are added to the shared count. */
  readonly flushIntervalMs: number;
  /** Below this many remaining points every request is counted in the shared store before it is admitted. */
  readonly exactBelowRemaining: number;
}

export function createRateLimiter(
  config: RateLimitConfig,
  store: RateLimitStore,
  keyPrefix: string,
  shared: SharedCountOptions = { flushIntervalMs: 100, exactBelowRemaining: Math.max(10, Math.ceil(config.points / 10)) },
): RateLimiter {
  const options = { points: config.points, duration: config.windowSeconds, keyPrefix };
  if (store.kind === "memory") return exactLimiter(new RateLimiterMemory(options), config.points);
  const postgres = new RateLimiterPostgres({
    ...options,
    storeClient: store.pool,
    storeType: "pool",
    tableName: "rate_limits",
    tableCreated: true, // created by our migrations
    clearExpiredByTimeout: true,
    // If PostgreSQL hiccups, count in memory rather than failing every request.
    insuranceLimiter: new RateLimiterMemory(options),
  });
  return batchedSharedLimiter(postgres, config.points, shared);
}

/** One store round trip per request: exact. Used in memory, where a round trip costs nothing. */
function exactLimiter(limiter: RateLimiterAbstract, points: number): RateLimiter {
  return {
    async consume(key) {
      try {
        return decision(true, points, await limiter.consume(key, 1));
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(false, points, rejection);
        throw rejection;
      }
    },
    close: async () => {},
  };
}

interface KnownWindow {
  /** Shared count as last read from the store, plus what this process admitted since. */
  consumed: number;
  resetAtMs: number;
  /** When the shared total was last read; older than one flush interval means stale. */
  syncedAtMs: number;
}

/**
 * A shared count without a database write per request. Each process admits requests against the last
 * shared total it read plus its own not-yet-shared admissions, and adds those admissions to the store in
 * one statement per key every `flushIntervalMs`. Within `exactBelowRemaining` of the limit (and for the
 * first request of a window, and whenever its view of the shared total is older than one flush interval)
 * it counts the request in the store before admitting it, so small limits stay exact. Across processes
 * the overshoot is bounded by what the others admit in one flush interval while far from the limit. Besides saving a round trip, this removes the per-request
 * update of one hot row per tenant, which would otherwise serialise a tenant's requests on commit flushes.
 */
function batchedSharedLimiter(limiter: RateLimiterAbstract, points: number, shared: SharedCountOptions): RateLimiter {
  const windows = new Map<string, KnownWindow>();
  const unshared = new Map<string, number>();
  let flushing: Promise<void> | null = null;

  const remember = (key: string, res: RateLimiterRes) => {
    // The wall clock here only mirrors the store's own window arithmetic (rate-limiter-flexible uses it too).
    const now = Date.now();
    windows.set(key, { consumed: res.consumedPoints, resetAtMs: now + res.msBeforeNext, syncedAtMs: now });
  };

  async function flush(): Promise<void> {
    const batch = [...unshared];
    unshared.clear();
    await Promise.all(
      batch.map(async ([key, count]) => {
        try {
          remember(key, await limiter.penalty(key, count));
        } catch {
          windows.delete(key); // unknown shared state: the next request goes the exact way
        }
      }),
    );
  }

  const timer = setInterval(() => {
    if (flushing === null && unshared.size > 0) flushing = flush().finally(() => (flushing = null));
  }, shared.flushIntervalMs);
  timer.unref();

  return {
    async consume(key) {
      const known = windows.get(key);
      const now = Date.now();
      const fresh = known !== undefined && now < known.resetAtMs && now - known.syncedAtMs < shared.flushIntervalMs;
      if (fresh && points - (known.consumed + 1) >= shared.exactBelowRemaining) {
        known.consumed += 1;
        unshared.set(key, (unshared.get(key) ?? 0) + 1);
        return {
          allowed: true,
          limit: points,
          remaining: points - known.consumed,
          resetSeconds: Math.max(1, Math.ceil((known.resetAtMs - now) / 1000)),
        };
      }
      // Exact path: this request plus anything admitted locally but not yet shared.
      const pending = unshared.get(key) ?? 0;
      unshared.delete(key);
      try {
        const res = await limiter.consume(key, 1 + pending);
        remember(key, res);
        return decision(true, points, res);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          remember(key, rejection);
          return decision(false, points, rejection);
        }
        throw rejection;
      }
    },
    async close() {
      clearInterval(timer);
      await flushing;
      if (unshared.size > 0) await flush();
    },
  };
}

function decision(allowed: boolean, limit: number, res: RateLimiterRes): RateLimitDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  return {
    "ratelimit-limit": String(d.limit),
    "ratelimit-remaining": String(d.remaining),
    "ratelimit-reset": String(d.resetSeconds),
  };
}
