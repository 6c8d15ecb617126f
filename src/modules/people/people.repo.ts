// Queries on the people module's own tables (people.schema.ts). Each takes the transaction it runs in.
import { and, count, desc, eq, gt, gte, inArray, isNull, lt, lte, min, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, preparedQuery, type Tx } from "../../platform/db/client.js";
import { deleteBatch } from "../../platform/db/delete-batch.js";
import {
  auditRecords,
  businessSecuritySettings,
  invitations,
  passwordResets,
  recoveryCodes,
  sessions,
  signInFailures,
  twoFactorSecrets,
} from "./people.schema.js";

export type SessionRow = typeof sessions.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;
export type AuditRow = typeof auditRecords.$inferSelect;

async function first<T>(rows: Promise<T[]>): Promise<T | null> {
  const [row] = await rows;
  return row ?? null;
}

// Sessions

export async function insertSession(tx: Tx, row: typeof sessions.$inferInsert): Promise<void> {
  await tx.insert(sessions).values(row);
}

/**
 * A live session by the hash of its secret (not ended; the caller checks the timeouts against its clock).
 * Runs on every session request, so prepared (as the API key lookup is).
 */
export async function findLiveSession(db: Db, tokenHash: string): Promise<SessionRow | null> {
  const query = preparedQuery(db, "sessions_find_live", (d) =>
    d
      .select()
      .from(sessions)
      .where(and(eq(sessions.tokenHash, sql.placeholder("tokenHash")), isNull(sessions.endedAt)))
      .limit(1),
  );
  const [row] = await query.execute({ tokenHash });
  return row ?? null;
}

export function findLiveSessionById(db: Db, id: string): Promise<SessionRow | null> {
  return first(
    db
      .select()
      .from(sessions)
      .where(and(eq(sessions.id, id), isNull(sessions.endedAt)))
      .limit(1),
  );
}

/**
 * The person's live sessions in every Business: not ended and, at `now`, within both the absolute lifetime
 * and the idle timeout (an expired session the sweep has not ended yet is left out). Newest first, at most `limit`.
 */
export function listLiveSessionsOfUser(db: Db, userId: string, now: Date, idleMs: number, limit: number): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, now),
        gt(sessions.lastSeenAt, new Date(now.getTime() - idleMs)),
      ),
    )
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .limit(limit);
}

/** A live (not ended) session by id, only if it is `userId`'s: another person's id reads as none. */
export function findLiveSessionOfUser(db: Db, id: string, userId: string): Promise<SessionRow | null> {
  return first(
    db
      .select()
      .from(sessions)
      .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.endedAt)))
      .limit(1),
  );
}

export async function touchSession(db: Db, id: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
}

export async function endSession(tx: Tx, id: string, now: Date, reason: string): Promise<boolean> {
  const rows = await tx
    .update(sessions)
    .set({ endedAt: now, endedReason: reason })
    .where(and(eq(sessions.id, id), isNull(sessions.endedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Ends every live session of a person (all Businesses); returns how many. */
export async function endSessionsOfUser(tx: Tx, userId: string, now: Date, reason: string, exceptId?: string) {
  const rows = await tx
    .update(sessions)
    .set({ endedAt: now, endedReason: reason })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.endedAt),
        exceptId === undefined ? undefined : sql`${sessions.id} <> ${exceptId}`,
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}

export async function endSessionsOfMembership(tx: Tx, membershipId: string, now: Date, reason: string): Promise<number> {
  const rows = await tx
    .update(sessions)
    .set({ endedAt: now, endedReason: reason })
    .where(and(eq(sessions.membershipId, membershipId), isNull(sessions.endedAt)))
    .returning({ id: sessions.id });
  return rows.length;
}

/**
 * Live sessions past their idle timeout or absolute lifetime, locked for ending (SKIP LOCKED: two sweepers
 * take different rows, and a request ending one of them itself is not waited for).
 */
export function lockExpiredSessions(tx: Tx, now: Date, idleMs: number, limit: number): Promise<SessionRow[]> {
  const idleBefore = new Date(now.getTime() - idleMs);
  return tx
    .select()
    .from(sessions)
    .where(and(isNull(sessions.endedAt), or(lte(sessions.expiresAt, now), lte(sessions.lastSeenAt, idleBefore))))
    .orderBy(sessions.id)
    .limit(limit)
    .for("update", { skipLocked: true });
}

/** When the next live session can expire at the earliest (null: no live session). */
export async function nextPossibleExpiry(db: Db, idleMs: number): Promise<Date | null> {
  const [row] = await db
    .select({
      at: sql<Date | null>`min(least(${sessions.expiresAt}, ${sessions.lastSeenAt} + ${`${idleMs} milliseconds`}::interval))`.mapWith(
        sessions.expiresAt,
      ),
    })
    .from(sessions)
    .where(isNull(sessions.endedAt));
  return row?.at ?? null;
}

/** Whether the session's person has a confirmed second factor (SQL, for the updates below). */
const personHasTwoFactor = sql`exists (select 1 from ${twoFactorSecrets} where ${twoFactorSecrets.userId} = ${sessions.userId} and ${twoFactorSecrets.confirmedAt} is not null)`;

/**
 * The Business now requires two-factor authentication: the live sessions in it of people without it serve
 * only enrolment from now on (as a sign-in would), instead of carrying on until they end. Returns how many.
 */
export async function restrictSessionsToEnrolment(tx: Tx, businessId: string): Promise<number> {
  const rows = await tx
    .update(sessions)
    .set({ twoFactorPending: true })
    .where(
      and(
        eq(sessions.businessId, businessId),
        isNull(sessions.endedAt),
        eq(sessions.twoFactorPending, false),
        sql`not ${personHasTwoFactor}`,
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}

/** The requirement is lifted: sessions that owed only an enrolment are free again (a code still owed stays owed). */
export async function releaseEnrolmentOnlySessions(tx: Tx, businessId: string): Promise<number> {
  const rows = await tx
    .update(sessions)
    .set({ twoFactorPending: false })
    .where(
      and(
        eq(sessions.businessId, businessId),
        isNull(sessions.endedAt),
        eq(sessions.twoFactorPending, true),
        sql`not ${personHasTwoFactor}`,
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}

/** Replaces the secret of a live session (a new session id for the browser) and records a confirmation. */
export async function renewSession(
  tx: Tx,
  id: string,
  change: { tokenHash: string; confirmedAt?: Date; twoFactorPending?: boolean },
): Promise<boolean> {
  const rows = await tx
    .update(sessions)
    .set(change)
    .where(and(eq(sessions.id, id), isNull(sessions.endedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** The last sign-in of each of these people (their newest session's start). */
export async function lastSignIns(db: Db, userIds: readonly string[]): Promise<Map<string, Date>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: sessions.userId, at: sql<Date>`max(${sessions.createdAt})`.mapWith(sessions.createdAt) })
    .from(sessions)
    .where(and(inArray(sessions.userId, [...userIds]), eq(sessions.twoFactorPending, false)))
    .groupBy(sessions.userId);
  return new Map(rows.map((row) => [row.userId, row.at]));
}

// Throttling

export async function insertSignInFailure(tx: Tx, row: typeof signInFailures.$inferInsert): Promise<void> {
  await tx.insert(signInFailures).values(row);
}

/**
 * Serialises the attempts on one account key and one client address until the transaction ends, so that
 * counting their failures and reserving one more is one decision: two attempts cannot both count four and
 * both take the fifth place. Always the account first, then the address (one order: no deadlock).
 */
export async function lockAttemptKeys(tx: Tx, account: string, clientAddress: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`throttle:account:${account}`}, 0))`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`throttle:address:${clientAddress}`}, 0))`);
}

/** Takes back one reserved attempt (its row), when the credential turned out right or was never evaluated. */
export async function deleteSignInFailure(db: Db, id: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.id, id));
}

/** Failures since `since` for the e-mail and for the client address, with the oldest of each (for Retry-After). */
export async function countSignInFailures(tx: Tx, email: string, clientAddress: string, since: Date) {
  const [byEmail] = await tx
    .select({ n: count(), oldest: min(signInFailures.occurredAt) })
    .from(signInFailures)
    .where(and(eq(signInFailures.email, email), gt(signInFailures.occurredAt, since)));
  const [byAddress] = await tx
    .select({ n: count(), oldest: min(signInFailures.occurredAt) })
    .from(signInFailures)
    .where(and(eq(signInFailures.clientAddress, clientAddress), gt(signInFailures.occurredAt, since)));
  return {
    email: { count: byEmail?.n ?? 0, oldest: byEmail?.oldest ?? null },
    address: { count: byAddress?.n ?? 0, oldest: byAddress?.oldest ?? null },
  };
}

/** The n-th newest failure time of an e-mail or address within the window: when it leaves, one more try is allowed. */
export async function nthNewestFailure(
  tx: Tx,
  by: "email" | "address",
  value: string,
  since: Date,
  n: number,
): Promise<Date | null> {
  const column = by === "email" ? signInFailures.email : signInFailures.clientAddress;
  const row = await first(
    tx
      .select({ at: signInFailures.occurredAt })
      .from(signInFailures)
      .where(and(eq(column, value), gt(signInFailures.occurredAt, since)))
      .orderBy(desc(signInFailures.occurredAt))
      .offset(n - 1)
      .limit(1),
  );
  return row?.at ?? null;
}

export async function deleteSignInFailuresOf(tx: Tx, email: string): Promise<void> {
  await tx.delete(signInFailures).where(eq(signInFailures.email, email));
}

/** Forgets the failures of this e-mail and this address that left the window (both by index), so the table stays small. */
export async function deleteExpiredSignInFailures(tx: Tx, email: string, clientAddress: string, before: Date): Promise<void> {
  await tx.delete(signInFailures).where(and(eq(signInFailures.email, email), lt(signInFailures.occurredAt, before)));
  await tx
    .delete(signInFailures)
    .where(and(eq(signInFailures.clientAddress, clientAddress), lt(signInFailures.occurredAt, before)));
}

// Invitations

export async function insertInvitation(tx: Tx, row: typeof invitations.$inferInsert): Promise<InvitationRow> {
  const [inserted] = await tx.insert(invitations).values(row).returning();
  if (inserted === undefined) throw new Error("insert returned no row");
  return inserted;
}

/**
 * Consumes the invitation behind a token hash: a conditional update, so of two acceptances of one
 * invitation exactly one gets the row; the other waits for the first to commit and then finds it used.
 */
export function consumeInvitation(tx: Tx, tokenHash: string, now: Date): Promise<InvitationRow | null> {
  return first(
    tx
      .update(invitations)
      .set({ acceptedAt: now })
      .where(
        and(
          eq(invitations.tokenHash, tokenHash),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, now),
        ),
      )
      .returning(),
  );
}

export async function setInvitationMembership(tx: Tx, id: string, membershipId: string): Promise<void> {
  await tx.update(invitations).set({ acceptedMembershipId: membershipId }).where(eq(invitations.id, id));
}

export function listOpenInvitations(db: Db, businessId: string, now: Date): Promise<InvitationRow[]> {
  return db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.businessId, businessId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, now),
      ),
    )
    .orderBy(desc(invitations.id));
}

export function revokeInvitation(tx: Tx, businessId: string, id: string, now: Date): Promise<InvitationRow | null> {
  return first(
    tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(invitations.businessId, businessId),
          eq(invitations.id, id),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
        ),
      )
      .returning(),
  );
}

// Password resets

export async function insertPasswordReset(tx: Tx, row: typeof passwordResets.$inferInsert): Promise<void> {
  await tx.insert(passwordResets).values(row);
}

export function consumePasswordReset(tx: Tx, tokenHash: string, now: Date) {
  return first(
    tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .returning(),
  );
}

/** A new password voids every other reset of the person. */
export async function voidPasswordResetsOf(tx: Tx, userId: string, now: Date): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

export async function countPasswordResetsSince(db: Db, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, userId), gte(passwordResets.createdAt, since)));
  return row?.n ?? 0;
}

// Two-factor

export function findTwoFactor(db: Db, userId: string) {
  return first(db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId)).limit(1));
}

export function lockTwoFactor(tx: Tx, userId: string) {
  return first(tx.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId)).for("update"));
}

export async function putTwoFactorSecret(tx: Tx, userId: string, secretEncrypted: string, now: Date): Promise<void> {
  await tx
    .insert(twoFactorSecrets)
    .values({ userId, secretEncrypted, createdAt: now })
    .onConflictDoUpdate({
      target: twoFactorSecrets.userId,
      set: { secretEncrypted, createdAt: now, confirmedAt: null, lastUsedStep: null },
    });
}

/** Records the accepted step; only a later step than the last accepted one passes (replay refusal). */
export async function acceptTwoFactorStep(tx: Tx, userId: string, step: number, confirmAt?: Date): Promise<boolean> {
  const rows = await tx
    .update(twoFactorSecrets)
    .set({ lastUsedStep: step, ...(confirmAt === undefined ? {} : { confirmedAt: confirmAt }) })
    .where(
      and(
        eq(twoFactorSecrets.userId, userId),
        sql`(${twoFactorSecrets.lastUsedStep} is null or ${twoFactorSecrets.lastUsedStep} < ${step})`,
      ),
    )
    .returning({ userId: twoFactorSecrets.userId });
  return rows.length > 0;
}

export async function deleteTwoFactor(tx: Tx, userId: string): Promise<void> {
  await tx.delete(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

export async function replaceRecoveryCodes(tx: Tx, userId: string, rows: (typeof recoveryCodes.$inferInsert)[]) {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (rows.length > 0) await tx.insert(recoveryCodes).values(rows);
}

export async function useRecoveryCode(tx: Tx, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** Which of these people have a confirmed second factor. */
export async function usersWithTwoFactor(db: Db, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: twoFactorSecrets.userId })
    .from(twoFactorSecrets)
    .where(and(inArray(twoFactorSecrets.userId, [...userIds]), sql`${twoFactorSecrets.confirmedAt} is not null`));
  return new Set(rows.map((row) => row.userId));
}

// Security settings

export async function findRequireTwoFactor(db: Db, businessId: string): Promise<boolean> {
  const row = await first(
    db
      .select({ requireTwoFactor: businessSecuritySettings.requireTwoFactor })
      .from(businessSecuritySettings)
      .where(eq(businessSecuritySettings.businessId, businessId)),
  );
  return row?.requireTwoFactor ?? false;
}

/** Which of these Businesses require two-factor authentication of every member. */
export async function businessesRequiringTwoFactor(db: Db, businessIds: readonly string[]): Promise<Set<string>> {
  if (businessIds.length === 0) return new Set();
  const rows = await db
    .select({ businessId: businessSecuritySettings.businessId })
    .from(businessSecuritySettings)
    .where(
      and(inArray(businessSecuritySettings.businessId, [...businessIds]), eq(businessSecuritySettings.requireTwoFactor, true)),
    );
  return new Set(rows.map((row) => row.businessId));
}

export async function putRequireTwoFactor(tx: Tx, businessId: string, requireTwoFactor: boolean, now: Date) {
  await tx
    .insert(businessSecuritySettings)
    .values({ businessId, requireTwoFactor, updatedAt: now })
    .onConflictDoUpdate({ target: businessSecuritySettings.businessId, set: { requireTwoFactor, updatedAt: now } });
}

// Audit log

export async function insertAuditRecord(tx: Tx, row: typeof auditRecords.$inferInsert): Promise<void> {
  await tx.insert(auditRecords).values(row);
}

export interface AuditFilter {
  readonly businessId: string;
  readonly beforeId: string | null;
  readonly action?: string | undefined;
  readonly actorUserId?: string | undefined;
  readonly since?: Date | undefined;
  readonly until?: Date | undefined;
  readonly limit: number;
}

/** Newest first, by id (UUIDv7: time-ordered). */
export function listAuditRecords(db: Db, filter: AuditFilter): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditRecords)
    .where(
      and(
        eq(auditRecords.businessId, filter.businessId),
        filter.beforeId === null ? undefined : lt(auditRecords.id, filter.beforeId),
        filter.action === undefined ? undefined : eq(auditRecords.action, filter.action),
        filter.actorUserId === undefined ? undefined : eq(auditRecords.actorUserId, filter.actorUserId),
        filter.since === undefined ? undefined : gte(auditRecords.occurredAt, filter.since),
        filter.until === undefined ? undefined : lte(auditRecords.occurredAt, filter.until),
      ),
    )
    .orderBy(desc(auditRecords.id))
    .limit(filter.limit);
}

// Retention (the retention sweep, people.retention.ts). Each deletes up to `limit` rows and answers how many;
// rows another transaction holds are skipped (SKIP LOCKED), so two sweeps at once take different rows.

const newerSession = alias(sessions, "newer_session");

/**
 * Sessions that ended before `before`, except the one the member list's "last sign-in" may read: a person's
 * newest ended session that completed sign-in (not `two_factor_pending`). A session is deleted only when a newer
 * such session of the same person exists, and ended sessions never change again, so the newest stays whoever
 * deletes what and the condition cannot go stale; live sessions are never deleted, and one of them that is later
 * restricted to enrolment (`two_factor_pending`) falls back on that kept session, as it would have before.
 * So `lastSignIns` answers the same after a sweep as it would have without it.
 */
export async function deleteEndedSessionsBefore(tx: Tx, before: Date, limit: number): Promise<number> {
  const supersededOrPending = or(
    eq(sessions.twoFactorPending, true),
    sql`exists (select 1 from ${sessions} as ${newerSession} where ${newerSession.userId} = ${sessions.userId}
      and ${newerSession.twoFactorPending} = false and ${newerSession.endedAt} is not null
      and (${newerSession.createdAt}, ${newerSession.id}) > (${sessions.createdAt}, ${sessions.id}))`,
  );
  return deleteBatch(tx, sessions, sessions.id, and(lt(sessions.endedAt, before), supersededOrPending), limit);
}

/** Invitations that expired before `before` (accepted, revoked or never used: all are spent by then). */
export async function deleteInvitationsExpiredBefore(tx: Tx, before: Date, limit: number): Promise<number> {
  return deleteBatch(tx, invitations, invitations.id, lt(invitations.expiresAt, before), limit);
}

/** Password resets that expired before `before` (used or not). */
export async function deletePasswordResetsExpiredBefore(tx: Tx, before: Date, limit: number): Promise<number> {
  return deleteBatch(tx, passwordResets, passwordResets.id, lt(passwordResets.expiresAt, before), limit);
}

/** Failed sign-ins that occurred before `before` (out of every throttling window). */
export async function deleteSignInFailuresBefore(tx: Tx, before: Date, limit: number): Promise<number> {
  return deleteBatch(tx, signInFailures, signInFailures.id, lt(signInFailures.occurredAt, before), limit);
}
