// The platform's durable jobs table.
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../db/shared.schema.js";

export const jobStatusEnum = pgEnum("job_status", ["pending", "running", "succeeded", "dead"]);

/**
 * Durable jobs. Enqueued inside the caller's transaction; claimed with FOR UPDATE SKIP LOCKED under a
 * lease whose token fences late writes from a worker that lost its lease.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey(),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    status: jobStatusEnum("status").notNull().default("pending"),
    runAt: timestamp("run_at", { withTimezone: true, mode: "date" }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    /** Fencing token of the current lease; a completion must present it. */
    leaseToken: uuid("lease_token"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true, mode: "date" }),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    /** Optional caller-chosen key: a second enqueue with the same key is a no-op. */
    dedupeKey: text("dedupe_key"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("jobs_due_idx").on(t.runAt).where(sql`status = 'pending'`),
    index("jobs_lease_idx").on(t.leaseExpiresAt).where(sql`status = 'running'`),
    uniqueIndex("jobs_dedupe_key").on(t.dedupeKey),
    check("jobs_attempts_nonnegative", sql`${t.attempts} >= 0`),
  ],
);
