// The rate limiter's counters table.
import { bigint, integer, pgTable, varchar } from "drizzle-orm/pg-core";

/**
 * Counters of rate-limiter-flexible's PostgreSQL store (its own table layout), shared across API processes.
 * The migration creates it UNLOGGED (hand-edited; drizzle-kit cannot express it): counters are worth no
 * WAL flush per request, and losing them in a crash only resets the current window.
 */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});
