// Drizzle queries on the reconciliation module's tables; every read is scoped to the caller's Business and
// environment (the line and statement ids of a job carry their tenant with them).
import { and, desc, eq, inArray, lt, max, ne, or, type SQL, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import { anyOf, textArrayLiteral } from "../../platform/db/arrays.js";
import { type Db, queryRows, type Tx } from "../../platform/db/client.js";
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
    .where(anyOf(statementLines.statementId, statementIds))
    .groupBy(statementLines.statementId, statementLines.status);
  for (const row of rows) {
    const counts = out.get(row.statementId);
    if (counts !== undefined) counts[row.status] = Number(row.count);
  }
  return out;
}

/**
 * A line as stored: the row inserted, with the table's defaults (what `returning *` would read back). Its JSON
 * columns are kept as given, not copied: they are plain data from the statement readers (their types have no
 * optional or non-JSON field), so reading them back would give the same values.
 */
export function storedLine(row: NewLineRow & { readonly createdAt: Date }): LineRow {
  return {
    id: row.id,
    businessId: row.businessId,
    environment: row.environment,
    fundingAccountId: row.fundingAccountId,
    statementId: row.statementId,
    lineKey: row.lineKey,
    status: row.status,
    entryStatus: row.entryStatus,
    bookingDate: row.bookingDate ?? null,
    valueDate: row.valueDate ?? null,
    direction: row.direction,
    amountMinor: row.amountMinor,
    currency: row.currency,
    reversal: row.reversal ?? false,
    bankReference: row.bankReference ?? null,
    bankTransactionCode: row.bankTransactionCode ?? null,
    references: row.references,
    batchCount: row.batchCount ?? null,
    batchTotalMinor: row.batchTotalMinor ?? null,
    remittance: row.remittance ?? null,
    details: row.details,
    matchRule: row.matchRule ?? null,
    matchTopUpId: row.matchTopUpId ?? null,
    matchDifferenceMinor: row.matchDifferenceMinor ?? null,
    matchedBy: row.matchedBy ?? null,
    matchedAt: row.matchedAt ?? null,
    candidates: row.candidates ?? [],
    reviewReason: row.reviewReason ?? null,
    ignoredReason: row.ignoredReason ?? null,
    transferId: row.transferId ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * New lines only (ON CONFLICT DO NOTHING on the account's line key): a line already known returns nothing. One
 * INSERT per 500 lines, the values as one JSON parameter (the query builder spent more time building a wide
 * multi-row INSERT than the database spent running it); answers the ids inserted.
 */
export async function insertLinesIfNew(
  tx: Tx,
  rows: ReadonlyArray<NewLineRow & { readonly createdAt: Date }>,
): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    if (chunk.length === 0) continue;
    const values = chunk.map((r) => {
      const line = storedLine(r);
      return {
        id: line.id,
        business_id: line.businessId,
        environment: line.environment,
        funding_account_id: line.fundingAccountId,
        statement_id: line.statementId,
        line_key: line.lineKey,
        status: line.status,
        entry_status: line.entryStatus,
        booking_date: line.bookingDate,
        value_date: line.valueDate,
        direction: line.direction,
        amount_minor: line.amountMinor,
        currency: line.currency,
        reversal: line.reversal,
        bank_reference: line.bankReference,
        bank_transaction_code: line.bankTransactionCode,
        references: line.references,
        batch_count: line.batchCount,
        batch_total_minor: line.batchTotalMinor,
        remittance: line.remittance,
        details: line.details,
        candidates: line.candidates,
        match_rule: line.matchRule,
        match_top_up_id: line.matchTopUpId,
        match_difference_minor: line.matchDifferenceMinor,
        matched_by: line.matchedBy,
        matched_at: line.matchedAt?.toISOString() ?? null,
        review_reason: line.reviewReason,
        transfer_id: line.transferId,
        created_at: line.createdAt.toISOString(),
        updated_at: line.updatedAt.toISOString(),
      };
    });
    const ids = await queryRows<{ id: string }>(
      tx,
      sql`insert into statement_lines (id, business_id, environment, funding_account_id, statement_id, line_key, status,
          entry_status, booking_date, value_date, direction, amount_minor, currency, reversal, bank_reference,
          bank_transaction_code, "references", batch_count, batch_total_minor, remittance, details, candidates, match_rule,
          match_top_up_id, match_difference_minor, matched_by, matched_at, review_reason, transfer_id, created_at, updated_at)
        select v.id, v.business_id, v.environment::environment, v.funding_account_id, v.statement_id, v.line_key, v.status,
          v.entry_status, v.booking_date, v.value_date, v.direction, v.amount_minor, v.currency, v.reversal, v.bank_reference,
          v.bank_transaction_code, v."references", v.batch_count, v.batch_total_minor, v.remittance, v.details,
          coalesce(v.candidates, '[]'::jsonb), v.match_rule, v.match_top_up_id, v.match_difference_minor, v.matched_by,
          v.matched_at, v.review_reason, v.transfer_id, v.created_at, v.updated_at
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id uuid, business_id uuid, environment text,
          funding_account_id uuid, statement_id uuid, line_key text, status text, entry_status text, booking_date date,
          value_date date, direction text, amount_minor bigint, currency text, reversal boolean, bank_reference text,
          bank_transaction_code text, "references" jsonb, batch_count integer, batch_total_minor bigint, remittance text,
          details jsonb, candidates jsonb, match_rule text, match_top_up_id uuid, match_difference_minor bigint,
          matched_by jsonb, matched_at timestamptz, review_reason text, transfer_id uuid, created_at timestamptz,
          updated_at timestamptz)
        on conflict do nothing
        returning id::text as id`,
    );
    for (const { id } of ids) inserted.add(id);
  }
  return inserted;
}

/**
 * Of these keys, those the account knows already, with the entry status of the line known (one statement, the keys
 * as one array parameter).
 */
export async function knownLineKeys(
  db: Db,
  tenant: Tenant,
  fundingAccountId: string,
  keys: readonly string[],
): Promise<Map<string, LineRow["entryStatus"]>> {
  if (keys.length === 0) return new Map();
  // Each key looked up in the account's key index (statement_lines_account_key) on its own, a lateral probe the
  // planner cannot fold into a join, with nothing another index could serve: as `line_key = any(...)` beside the
  // tenant's columns, a table grown since its statistics was read through the tenant's status index, every line of
  // the tenant per statement (measured: 2 ms per statement at 5,000 lines, growing with each; 0.2 ms this way).
  // The tenant is checked on the rows found (the probe's OFFSET keeps that filter out of it).
  const rows = await queryRows<{ line_key: string; entry_status: LineRow["entryStatus"] }>(
    db,
    sql`select found.line_key, found.entry_status
        from unnest(${textArrayLiteral(keys)}::text[]) as wanted(line_key)
        cross join lateral (
          select l.line_key, l.entry_status, l.business_id, l.environment from statement_lines l
          where l.funding_account_id = ${fundingAccountId} and l.line_key = wanted.line_key
          offset 0
        ) found
        where found.business_id = ${tenant.businessId} and found.environment = ${tenant.environment}`,
  );
  return new Map(rows.map((r) => [r.line_key, r.entry_status]));
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
            anyOf(statementLines.lineKey, chunk, "text"),
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
    .where(anyOf(statementMatches.lineId, lineIds))
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
  if (payoutIds.length > 0) conditions.push(anyOf(statementMatches.payoutId, payoutIds));
  if (topUpIds.length > 0) conditions.push(anyOf(statementMatches.topUpId, topUpIds));
  if (conditions.length === 0) return new Set();
  const found = await db
    .select({ kind: statementMatches.kind, payoutId: statementMatches.payoutId, topUpId: statementMatches.topUpId })
    .from(statementMatches)
    .where(or(...conditions));
  return new Set(found.map((m) => (m.payoutId === null ? `top_up:${m.topUpId}` : `${m.kind}:${m.payoutId}`)));
}

/**
 * The matches not taken meanwhile (ON CONFLICT DO NOTHING on the unique indexes): the ids inserted answer. One
 * INSERT per 500, the values as one JSON parameter.
 */
export async function insertMatchesIfFree(
  tx: Tx,
  rows: ReadonlyArray<NewMatchRow & { readonly createdAt: Date }>,
): Promise<string[]> {
  const inserted: string[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = rows.slice(i, i + CHUNK).map((r, n) => ({
      n,
      id: r.id,
      business_id: r.businessId,
      environment: r.environment,
      line_id: r.lineId,
      kind: r.kind,
      rule: r.rule,
      payout_id: r.payoutId ?? null,
      top_up_id: r.topUpId ?? null,
      amount_minor: r.amountMinor,
      created_at: r.createdAt.toISOString(),
    }));
    if (values.length === 0) continue;
    const ids = await queryRows<{ id: string }>(
      tx,
      sql`insert into statement_matches (id, business_id, environment, line_id, kind, rule, payout_id, top_up_id, amount_minor, created_at)
        select v.id, v.business_id, v.environment::environment, v.line_id, v.kind, v.rule, v.payout_id, v.top_up_id,
          v.amount_minor, v.created_at
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id uuid, business_id uuid, environment text,
          line_id uuid, kind text, rule text, payout_id uuid, top_up_id uuid, amount_minor bigint, created_at timestamptz, n int)
        order by v.n
        on conflict do nothing
        returning id::text as id`,
    );
    inserted.push(...ids.map((r) => r.id));
  }
  return inserted;
}

/**
 * Marks every plan this connection cached as stale (`DISCARD PLANS`, allowed in a transaction): each is made again
 * at its next use, for the tables as they are then. Prepared statements stay prepared.
 */
export async function discardCachedPlans(tx: Tx): Promise<void> {
  await tx.execute(sql`discard plans`);
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
    .where(and(anyOf(statementMatches.payoutId, payoutIds), eq(statementMatches.kind, kind)));
  return new Set(rows.flatMap((r) => (r.payoutId === null ? [] : [r.payoutId])));
}
