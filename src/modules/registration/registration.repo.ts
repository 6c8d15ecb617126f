import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/client.js";
import { deleteBatch } from "../../platform/db/delete-batch.js";
import { businesses } from "../../platform/db/shared.schema.js";
import { memberships, pendingRegistrations, users } from "./registration.schema.js";

export type BusinessRow = typeof businesses.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;
export type PendingRegistrationRow = typeof pendingRegistrations.$inferSelect;

async function insertOne<T>(rows: Promise<T[]>): Promise<T> {
  const [row] = await rows;
  if (row === undefined) throw new Error("insert returned no row");
  return row;
}

export function insertBusiness(tx: Tx, row: typeof businesses.$inferInsert): Promise<BusinessRow> {
  return insertOne(tx.insert(businesses).values(row).returning());
}

export function insertUser(tx: Tx, row: typeof users.$inferInsert): Promise<UserRow> {
  return insertOne(tx.insert(users).values(row).returning());
}

export function insertMembership(tx: Tx, row: typeof memberships.$inferInsert): Promise<MembershipRow> {
  return insertOne(tx.insert(memberships).values(row).returning());
}

export async function findUserByEmail(tx: Tx, email: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function markEmailVerified(tx: Tx, userId: string, at: Date): Promise<UserRow> {
  return insertOne(
    tx
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${at.toISOString()}::timestamptz)` })
      .where(eq(users.id, userId))
      .returning(),
  );
}

/**
 * Serialises registrations of one address until the transaction ends, so concurrent requests cannot all
 * pass the per-recipient count at once.
 */
export async function lockRegistrationAddress(tx: Tx, email: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`registration:${email}`}, 0))`);
}

export async function countRegistrationsSince(tx: Tx, email: string, since: Date): Promise<number> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(pendingRegistrations)
    .where(and(eq(pendingRegistrations.email, email), gt(pendingRegistrations.createdAt, since)));
  return row?.count ?? 0;
}

export function insertPendingRegistration(
  tx: Tx,
  row: typeof pendingRegistrations.$inferInsert,
): Promise<PendingRegistrationRow> {
  return insertOne(tx.insert(pendingRegistrations).values(row).returning());
}

/**
 * Consumes the registration behind a token hash: a conditional update, so of two requests with one token
 * (a double submit) exactly one gets the row; the other waits for the first to commit, then finds it
 * consumed. Null for an unknown, expired or consumed token alike.
 */
export async function consumePendingRegistration(tx: Tx, tokenHash: string, now: Date): Promise<PendingRegistrationRow | null> {
  const [row] = await tx
    .update(pendingRegistrations)
    .set({ consumedAt: now })
    .where(
      and(
        eq(pendingRegistrations.tokenHash, tokenHash),
        isNull(pendingRegistrations.consumedAt),
        gt(pendingRegistrations.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** A consumed registration no longer needs the password it carried. */
export async function clearPendingPassword(tx: Tx, id: string): Promise<void> {
  await tx.update(pendingRegistrations).set({ passwordHash: null }).where(eq(pendingRegistrations.id, id));
}

/**
 * Deletes up to `limit` registrations whose token expired before `before` (used or not), and answers how many.
 * Rows another transaction holds are skipped (SKIP LOCKED), so two sweeps at once take different rows.
 */
export async function deleteExpiredPendingRegistrations(tx: Tx, before: Date, limit: number): Promise<number> {
  return deleteBatch(tx, pendingRegistrations, pendingRegistrations.id, lt(pendingRegistrations.expiresAt, before), limit);
}
