// Drizzle queries on the reconciliation module's tables; every read is scoped to the caller's Business and
// environment (the line and statement ids of a job carry their tenant with them).
import { and, desc, eq, inArray, lt, max, ne, type SQL, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db, Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { bankStatements, type LineStatus, statementLines, statementMatches } from "./reconciliation.schema.js";

export type StatementRow = typeof bankStatements.$inferSelect;
export type NewStatementRow = typeof bankStatements.$inferInsert;
export type LineRow = typeof statementLines.$inferSelect;
export type NewLineRow = typeof statementLines.$inferInsert;
export type MatchRow = typeof statementMatches.$inferSelect;
export type NewMatchRow = typeof statementMatches.$inferInsert;

const CHUNK = 500;

/** The statement, unless one with its identity exists (then null: the caller reads that one). */
export async function insertStatementIfNew(tx: Tx, row: NewStatementRow): Promise<StatementRow | null> {
  const [inserted] = await tx.insert(bankStatements).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

export async function findStatementByIdentity(
  db: Db,
  tenant: Tenant,
  identity: { fundingAccountId: string; format: string; messageId: string; statementId: string },
): Promise<StatementRow | null> {
  const [row] = await db
    .select()
    .from(bankStatements)
    .where(
      and(
        ownedBy(bankStatements, tenant),
        eq(bankStatements.fundingAccountId, identity.fundingAccountId),
        eq(bankStatements.format, identity.format),
        eq(bankStatements.messageId, identity.messageId),
        eq(bankStatements.statementId, identity.statementId),
      ),
    );
  return row ?? null;
}

export async function findStatement(db: Db, tenant: Tenant, id: string): Promise<StatementRow | null> {
  const [row] = await db
    .select()
    .from(bankStatements)
    .where(and(ownedBy(bankStatements, tenant), eq(bankStatements.id, id)));
  return row ?? null;
}

export async function lockStatement(tx: Tx, tenant: Tenant, id: string): Promise<StatementRow | null> {
  const [row] = await tx
    .select()
    .from(bankStatements)
    .where(and(ownedBy(bankStatements, tenant), eq(bankStatements.id, id)))
    .for("update");
  return row ?? null;
}

export async function updateStatement(tx: Tx, id: string, patch: Partial<NewStatementRow>): Promise<StatementRow> {
  const [row] = await tx.update(bankStatements).set(patch).where(eq(bankStatements.id, id)).returning();
  if (row === undefined) throw new Error("statement vanished");
  return row;
}

export async function listStatements(
  db: Db,
  tenant: Tenant,
  filters: { fundingAccountId?: string | undefined },
  afterId: string | null,
  limit: number,
): Promise<StatementRow[]> {
  const conditions: SQL[] = [ownedBy(bankStatements, tenant)];
  if (filters.fundingAccountId !== undefined) conditions.push(eq(bankStatements.fundingAccountId, filters.fundingAccountId));
  if (afterId !== null) conditions.push(lt(bankStatements.id, afterId));
  return db
    .select()
    .from(bankStatements)
    .where(and(...conditions))
    .orderBy(desc(bankStatements.id))
    .limit(limit);
}

/** The highest sequence number of the account's other statements of a format (a gap is measured from it). */
export async function highestSequence(
  db: Db,
  fundingAccountId: string,
  format: string,
  exceptId: string,
): Promise<number | null> {
  const [row] = await db
    .select({ highest: max(bankStatements.sequenceNumber) })
    .from(bankStatements)
    .where(
      and(
        eq(bankStatements.fundingAccountId, fundingAccountId),
        eq(bankStatements.format, format),
        ne(bankStatements.id, exceptId),
      ),
    );
  return row?.highest ?? null;
}

/** Whether an opening balance was accepted on the account from any statement. */
export async function openingAccepted(db: Db, fundingAccountId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bankStatements.id })
    .from(bankStatements)
    .where(and(eq(bankStatements.fundingAccountId, fundingAccountId), sql`${bankStatements.openingTransferId} is not null`))
    .limit(1);
  return row !== undefined;
}

export type LineCounts = Record<LineStatus, number>;

export async function countLinesByStatus(db: Db, statementIds: readonly string[]): Promise<Map<string, LineCounts>> {
  const out = new Map<string, LineCounts>();
  for (const id of statementIds) out.set(id, { matched: 0, needs_review: 0, unmatched: 0, ignored: 0, pending: 0 });
  if (statementIds.length === 0) return out;
  const rows = await db
    .select({ statementId: statementLines.statementId, status: statementLines.status, count: sql<string>`count(*)` })
    .from(statementLines)
    .where(inArray(statementLines.statementId, [...statementIds]))
    .groupBy(statementLines.statementId, statementLines.status);
  for (const row of rows) {
    const counts = out.get(row.statementId);
    if (counts !== undefined) counts[row.status] = Number(row.count);
  }
  return out;
}

/** New lines only (ON CONFLICT DO NOTHING on the account's line key): a line already known returns nothing. */
export async function insertLinesIfNew(tx: Tx, rows: readonly NewLineRow[]): Promise<LineRow[]> {
  const inserted: LineRow[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    if (chunk.length === 0) continue;
    inserted.push(...(await tx.insert(statementLines).values(chunk).onConflictDoNothing().returning()));
  }
  return inserted;
}

/** Lines of the account with these keys (those known before this statement). */
export async function findLinesByKeys(
  db: Db,
  tenant: Tenant,
  fundingAccountId: string,
  keys: readonly string[],
): Promise<LineRow[]> {
  const out: LineRow[] = [];
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = keys.slice(i, i + CHUNK);
    if (chunk.length === 0) continue;
    out.push(
      ...(await db
        .select()
        .from(statementLines)
        .where(
          and(
            ownedBy(statementLines, tenant),
            eq(statementLines.fundingAccountId, fundingAccountId),
            inArray(statementLines.lineKey, chunk),
          ),
        )),
    );
  }
  return out;
}

/** A pending entry now booked: conditional on its still being pending (of two statements booking it, one does). */
export async function bookPendingLine(tx: Tx, id: string, patch: Partial<NewLineRow>): Promise<LineRow | null> {
  const [row] = await tx
    .update(statementLines)
    .set({ ...patch, entryStatus: "booked" })
    .where(and(eq(statementLines.id, id), eq(statementLines.entryStatus, "pending")))
    .returning();
  return row ?? null;
}

export async function updateLine(tx: Tx, id: string, patch: Partial<NewLineRow>): Promise<LineRow> {
  const [row] = await tx.update(statementLines).set(patch).where(eq(statementLines.id, id)).returning();
  if (row === undefined) throw new Error("statement line vanished");
  return row;
}

export async function findLine(db: Db, tenant: Tenant, id: string): Promise<LineRow | null> {
  const [row] = await db
    .select()
    .from(statementLines)
    .where(and(ownedBy(statementLines, tenant), eq(statementLines.id, id)));
  return row ?? null;
}

export async function lockLine(tx: Tx, tenant: Tenant, id: string): Promise<LineRow | null> {
  const [row] = await tx
    .select()
    .from(statementLines)
    .where(and(ownedBy(statementLines, tenant), eq(statementLines.id, id)))
    .for("update");
  return row ?? null;
}

export async function listLines(
  db: Db,
  tenant: Tenant,
  filters: { status?: LineStatus | undefined; fundingAccountId?: string | undefined; statementId?: string | undefined },
  afterId: string | null,
  limit: number,
): Promise<LineRow[]> {
  const conditions: SQL[] = [ownedBy(statementLines, tenant)];
  if (filters.status !== undefined) conditions.push(eq(statementLines.status, filters.status));
  if (filters.fundingAccountId !== undefined) conditions.push(eq(statementLines.fundingAccountId, filters.fundingAccountId));
  if (filters.statementId !== undefined) conditions.push(eq(statementLines.statementId, filters.statementId));
  if (afterId !== null) conditions.push(lt(statementLines.id, afterId));
  return db
    .select()
    .from(statementLines)
    .where(and(...conditions))
    .orderBy(desc(statementLines.id))
    .limit(limit);
}

/** The matches, unless a payout (or top-up) is matched already: then none is kept and null answers it. */
export async function insertMatchesAllOrNothing(tx: Tx, rows: readonly NewMatchRow[]): Promise<MatchRow[] | null> {
  if (rows.length === 0) return [];
  const inserted: MatchRow[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    inserted.push(
      ...(await tx
        .insert(statementMatches)
        .values(rows.slice(i, i + CHUNK))
        .onConflictDoNothing()
        .returning()),
    );
  }
  if (inserted.length === rows.length) return inserted;
  if (inserted.length > 0)
    await tx.delete(statementMatches).where(
      inArray(
        statementMatches.id,
        inserted.map((m) => m.id),
      ),
    );
  return null;
}

export async function matchesOfLines(db: Db, lineIds: readonly string[]): Promise<Map<string, MatchRow[]>> {
  const out = new Map<string, MatchRow[]>();
  if (lineIds.length === 0) return out;
  const rows = await db
    .select()
    .from(statementMatches)
    .where(inArray(statementMatches.lineId, [...lineIds]))
    .orderBy(statementMatches.id);
  for (const row of rows) out.set(row.lineId, [...(out.get(row.lineId) ?? []), row]);
  return out;
}

export async function deleteMatchesOfLine(tx: Tx, lineId: string): Promise<MatchRow[]> {
  return tx.delete(statementMatches).where(eq(statementMatches.lineId, lineId)).returning();
}

/** Payouts of these ids already matched by a debit line (amount_date leaves them out). */
export async function payoutsMatched(db: Db, payoutIds: readonly string[], kind: "debit" | "return"): Promise<Set<string>> {
  if (payoutIds.length === 0) return new Set();
  const rows = await db
    .select({ payoutId: statementMatches.payoutId })
    .from(statementMatches)
    .where(and(inArray(statementMatches.payoutId, [...payoutIds]), eq(statementMatches.kind, kind)));
  return new Set(rows.flatMap((r) => (r.payoutId === null ? [] : [r.payoutId])));
}
