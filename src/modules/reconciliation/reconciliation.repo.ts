// Drizzle queries on the reconciliation module's tables; every read is scoped to the caller's Business and
// environment (the line and statement ids of a job carry their tenant with them).
import { and, desc, eq, inArray, lt, max, ne, or, type SQL, sql } from "drizzle-orm";
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

/** The latest closing date of the account's other statements with a closing balance. */
export async function latestClosingDate(db: Db, fundingAccountId: string, exceptId: string): Promise<string | null> {
  const [row] = await db
    .select({ latest: max(bankStatements.closingDate) })
    .from(bankStatements)
    .where(
      and(
        eq(bankStatements.fundingAccountId, fundingAccountId),
        ne(bankStatements.id, exceptId),
        sql`${bankStatements.closingBookedMinor} is not null`,
      ),
    );
  return row?.latest ?? null;
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

/**
 * The claims of these match rows already taken (`debit:<payout>`, `return:<payout>`, `top_up:<top-up>`, as the
 * unique indexes of matches see them), for a statement's lines in one query.
 */
export async function matchClaimsTaken(db: Db, rows: readonly NewMatchRow[]): Promise<Set<string>> {
  const payoutIds = [...new Set(rows.flatMap((r) => (r.payoutId == null ? [] : [r.payoutId])))];
  const topUpIds = [...new Set(rows.flatMap((r) => (r.topUpId == null ? [] : [r.topUpId])))];
  const conditions: SQL[] = [];
  if (payoutIds.length > 0) conditions.push(inArray(statementMatches.payoutId, payoutIds));
  if (topUpIds.length > 0) conditions.push(inArray(statementMatches.topUpId, topUpIds));
  if (conditions.length === 0) return new Set();
  const found = await db
    .select({ kind: statementMatches.kind, payoutId: statementMatches.payoutId, topUpId: statementMatches.topUpId })
    .from(statementMatches)
    .where(or(...conditions));
  return new Set(found.map((m) => (m.payoutId === null ? `top_up:${m.topUpId}` : `${m.kind}:${m.payoutId}`)));
}

/** The matches not taken meanwhile (ON CONFLICT DO NOTHING on the unique indexes): those inserted answer. */
export async function insertMatchesIfFree(tx: Tx, rows: readonly NewMatchRow[]): Promise<MatchRow[]> {
  const inserted: MatchRow[] = [];
  for (let i = 0; i < rows.length; i += CHUNK)
    inserted.push(
      ...(await tx
        .insert(statementMatches)
        .values(rows.slice(i, i + CHUNK))
        .onConflictDoNothing()
        .returning()),
    );
  return inserted;
}

export async function deleteMatches(tx: Tx, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.delete(statementMatches).where(inArray(statementMatches.id, [...ids]));
}

/** What matching sets on a line (every field, so one statement writes all the lines of a statement). */
export interface LinePatch {
  readonly id: string;
  readonly status: LineStatus;
  readonly matchRule: LineRow["matchRule"];
  readonly matchTopUpId: string | null;
  readonly matchDifferenceMinor: number | null;
  readonly matchedBy: LineRow["matchedBy"];
  readonly matchedAt: Date | null;
  readonly candidates: LineRow["candidates"];
  readonly reviewReason: string | null;
  readonly transferId: string | null;
  readonly updatedAt: Date;
}

/** The lines a statement's matching decided, in one UPDATE per 500 lines (the values as one JSON parameter). */
export async function updateLinesAfterMatching(tx: Tx, patches: readonly LinePatch[]): Promise<void> {
  for (let i = 0; i < patches.length; i += CHUNK) {
    const chunk = patches.slice(i, i + CHUNK).map((p) => ({
      id: p.id,
      status: p.status,
      match_rule: p.matchRule,
      match_top_up_id: p.matchTopUpId,
      match_difference_minor: p.matchDifferenceMinor,
      matched_by: p.matchedBy,
      matched_at: p.matchedAt?.toISOString() ?? null,
      candidates: p.candidates,
      review_reason: p.reviewReason,
      transfer_id: p.transferId,
      updated_at: p.updatedAt.toISOString(),
    }));
    if (chunk.length === 0) continue;
    await tx.execute(sql`
      update statement_lines l set status = v.status, match_rule = v.match_rule, match_top_up_id = v.match_top_up_id,
        match_difference_minor = v.match_difference_minor, matched_by = v.matched_by, matched_at = v.matched_at,
        candidates = coalesce(v.candidates, '[]'::jsonb), review_reason = v.review_reason, transfer_id = v.transfer_id,
        updated_at = v.updated_at
      from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as v(id uuid, status text, match_rule text,
        match_top_up_id uuid, match_difference_minor bigint, matched_by jsonb, matched_at timestamptz, candidates jsonb,
        review_reason text, transfer_id uuid, updated_at timestamptz)
      where l.id = v.id`);
  }
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
