// Rate limiting per Business and environment (spec: Limits), and per client address for registration.
// rate-limiter-flexible keeps the counters: in memory for the embedded single process, in PostgreSQL when
// several API processes share one database so they share one count.
import type pg from "pg";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { RateLimitConfig } from "../config.js";

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly resetSeconds: number;
}

export interface RateLimiter {
  consume(key: string): Promise<RateLimitDecision>;
}

export type RateLimitStore = { kind: "memory" } | { kind: "postgres"; pool: pg.Pool };

export function createRateLimiter(config: RateLimitConfig, store: RateLimitStore, keyPrefix: string): RateLimiter {
  const options = { points: config.points, duration: config.windowSeconds, keyPrefix };
  let limiter: RateLimiterAbstract;
  if (store.kind === "postgres") {
    limiter = new RateLimiterPostgres({
      ...options,
      storeClient: store.pool,
      storeType: "pool",
      tableName: "rate_limits",
      tableCreated: true, // created by our migrations
      clearExpiredByTimeout: true,
      // If PostgreSQL hiccups, count in memory rather than failing every request.
      insuranceLimiter: new RateLimiterMemory(options),
    });
  } else {
    limiter = new RateLimiterMemory(options);
  }
  return {
    async consume(key) {
      try {
        const res = await limiter.consume(key, 1);
        return decision(true, config.points, res);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(false, config.points, rejection);
        throw rejection;
      }
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
