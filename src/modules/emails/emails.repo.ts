// Queries of the `emails` log: every e-mail the service issued, the captured sandbox mailbox, and the
// per-Business window of sent mail the daily limit counts, and the retention of captured mail.
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import { type Db, queryRows, type Tx } from "../../platform/db/client.js";
import { deleteBatch } from "../../platform/db/delete-batch.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { emails } from "./emails.schema.js";

export type EmailRow = typeof emails.$inferSelect;
export type NewEmailRow = typeof emails.$inferInsert;
export type EmailKind = EmailRow["kind"];

/** Inserts the row, or returns null when a row with its idempotency key exists (the message was issued before). */
export async function insertEmail(tx: Tx, row: NewEmailRow): Promise<EmailRow | null> {
  const [inserted] = await tx.insert(emails).values(row).onConflictDoNothing({ target: emails.idempotencyKey }).returning();
  return inserted ?? null;
}

export async function findEmailByIdempotencyKey(tx: Tx, idempotencyKey: string): Promise<EmailRow | null> {
  const [row] = await tx.select().from(emails).where(eq(emails.idempotencyKey, idempotencyKey)).limit(1);
  return row ?? null;
}

/**
 * Serialises the daily-limit decision of one Business until the transaction ends, so two requests at once
 * cannot both take the last slot. Transaction-scoped: released at commit or rollback.
 */
export async function lockMailWindow(tx: Tx, businessId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`emails:daily-limit:${businessId}`}, 0))`);
}

/**
 * The send time of the `limit`-th latest sent e-mail of the Business due after `windowStart` (scheduled ones
 * included), or null when fewer than `limit` are. A new e-mail may go out once that one is 24 hours old.
 */
export async function nthLatestSendAt(tx: Tx, businessId: string, windowStart: Date, limit: number): Promise<Date | null> {
  const rows = await queryRows<{ send_at: string | Date }>(
    tx,
    sql`select send_at from emails
        where business_id = ${businessId} and disposition = 'sent' and send_at > ${windowStart.toISOString()}
        order by send_at desc
        offset ${limit - 1} limit 1`,
  );
  const value = rows[0]?.send_at;
  return value === undefined ? null : new Date(value);
}

/** Captured mail of one Business in one environment, newest first, optionally to one recipient. */
export async function listCapturedEmails(
  db: Db,
  tenant: Tenant,
  options: { afterId: string | null; recipientFingerprint: string | null; limit: number },
): Promise<EmailRow[]> {
  return db
    .select()
    .from(emails)
    .where(
      and(
        ownedBy(emails, tenant),
        eq(emails.disposition, "captured"),
        options.recipientFingerprint === null ? undefined : eq(emails.recipientFingerprint, options.recipientFingerprint),
        options.afterId === null ? undefined : lt(emails.id, options.afterId),
      ),
    )
    .orderBy(desc(emails.id))
    .limit(options.limit);
}

export async function findCapturedEmail(db: Db, tenant: Tenant, id: string): Promise<EmailRow | null> {
  const [row] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.id, id), ownedBy(emails, tenant), eq(emails.disposition, "captured")))
    .limit(1);
  return row ?? null;
}

/**
 * Deletes up to `limit` captured e-mails created before `before`, and answers how many. Rows another
 * transaction holds are skipped (SKIP LOCKED), so two sweeps at once take different rows.
 */
export async function deleteCapturedEmailsBefore(tx: Tx, before: Date, limit: number): Promise<number> {
  return deleteBatch(tx, emails, emails.id, and(eq(emails.disposition, "captured"), lt(emails.createdAt, before)), limit);
}
