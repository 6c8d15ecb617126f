// Drizzle queries on the screening module's tables. Lists and entries are installation-wide; hits are scoped
// to the caller's Business and environment.
import { and, desc, eq, inArray, lt, ne, type SQL, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import { type Db, queryRows, type Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import {
  type ScreeningHitStatus,
  sanctionsEntries,
  sanctionsLists,
  sanctionsNameKeys,
  screeningHits,
  screeningRuns,
} from "./screening.schema.js";

export type ListRow = typeof sanctionsLists.$inferSelect;
export type EntryRow = typeof sanctionsEntries.$inferSelect;
export type NewEntryRow = typeof sanctionsEntries.$inferInsert;
export type NewKeyRow = typeof sanctionsNameKeys.$inferInsert;
export type HitRow = typeof screeningHits.$inferSelect;
export type NewHitRow = typeof screeningHits.$inferInsert;
export type RunRow = typeof screeningRuns.$inferSelect;

// Lists ----------------------------------------------------------------------------------------------------------

export async function listLists(db: Db): Promise<ListRow[]> {
  return db.select().from(sanctionsLists).orderBy(sanctionsLists.listId);
}

/** The list's row locked: two loads of one list take turns. */
export async function lockList(tx: Tx, listId: string): Promise<ListRow | null> {
  const [row] = await tx.select().from(sanctionsLists).where(eq(sanctionsLists.listId, listId)).for("update");
  return row ?? null;
}

export async function saveList(tx: Tx, row: ListRow): Promise<void> {
  await tx
    .insert(sanctionsLists)
    .values(row)
    .onConflictDoUpdate({
      target: sanctionsLists.listId,
      set: {
        version: row.version,
        entryCount: row.entryCount,
        contentHash: row.contentHash,
        source: row.source,
        loadedAt: row.loadedAt,
      },
    });
}

/** Replaces every entry of the list (its keys go with them: ON DELETE CASCADE), in chunks the drivers accept. */
export async function replaceEntries(
  tx: Tx,
  listId: string,
  entries: readonly NewEntryRow[],
  keys: readonly NewKeyRow[],
): Promise<void> {
  // Keys first by hand: a cascade over tens of thousands of rows is slower than one delete by entry list.
  await tx.execute(
    sql`delete from sanctions_name_keys where entry_id in (select id from sanctions_entries where list_id = ${listId})`,
  );
  await tx.delete(sanctionsEntries).where(eq(sanctionsEntries.listId, listId));
  for (let i = 0; i < entries.length; i += 1000) await tx.insert(sanctionsEntries).values(entries.slice(i, i + 1000));
  for (let i = 0; i < keys.length; i += 5000) await tx.insert(sanctionsNameKeys).values(keys.slice(i, i + 5000));
}

// Candidates -----------------------------------------------------------------------------------------------------

/** The (entry, name) pairs filed under any of `keys`. */
export async function findKeyedNames(db: Db, keys: readonly string[]): Promise<{ entryId: string; nameNo: number }[]> {
  if (keys.length === 0) return [];
  const rows = await queryRows<{ entry_id: string; name_no: number }>(
    db,
    sql`select distinct entry_id, name_no from sanctions_name_keys where key = any(${toTextArray(keys)}::text[])`,
  );
  return rows.map((row) => ({ entryId: row.entry_id, nameNo: Number(row.name_no) }));
}

/** Which of `keys` each (entry, name) pair is filed under: a batch's candidates, shared out to its Beneficiaries. */
export async function findKeyedNamesByKey(
  db: Db,
  keys: readonly string[],
): Promise<{ key: string; entryId: string; nameNo: number }[]> {
  if (keys.length === 0) return [];
  const rows = await queryRows<{ key: string; entry_id: string; name_no: number }>(
    db,
    sql`select key, entry_id, name_no from sanctions_name_keys where key = any(${toTextArray(keys)}::text[])`,
  );
  return rows.map((row) => ({ key: row.key, entryId: row.entry_id, nameNo: Number(row.name_no) }));
}

/** The whole candidate index (the rescreen run keeps it in memory per list version). */
export async function findAllKeyedNames(db: Db): Promise<{ key: string; entryId: string; nameNo: number }[]> {
  const rows = await db.select().from(sanctionsNameKeys);
  return rows.map((row) => ({ key: row.key, entryId: row.entryId, nameNo: row.nameNo }));
}

export async function findAllEntries(db: Db): Promise<EntryRow[]> {
  return db.select().from(sanctionsEntries);
}

export async function findEntries(db: Db, ids: readonly string[]): Promise<EntryRow[]> {
  if (ids.length === 0) return [];
  const out: EntryRow[] = [];
  for (let i = 0; i < ids.length; i += 5000) {
    out.push(
      ...(await db
        .select()
        .from(sanctionsEntries)
        .where(inArray(sanctionsEntries.id, ids.slice(i, i + 5000)))),
    );
  }
  return out;
}

/** The (list, ref) pairs still listed among `pairs`. */
export async function stillListed(db: Db, pairs: readonly { listId: string; ref: string }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await queryRows<{ list_id: string; ref: string }>(
    db,
    sql`select list_id, ref from sanctions_entries
        where (list_id || ':' || ref) = any(${toTextArray(pairs.map((p) => `${p.listId}:${p.ref}`))}::text[])`,
  );
  return new Set(rows.map((row) => `${row.list_id}:${row.ref}`));
}

/** A PostgreSQL array literal: one parameter whatever the number of values (both drivers pass it as text). */
function toTextArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

// Hits -----------------------------------------------------------------------------------------------------------

/** The hits of these Beneficiaries that are not withdrawn, locked: screening and deciding take turns. */
export async function lockLiveHitsOf(tx: Tx, beneficiaryIds: readonly string[]): Promise<HitRow[]> {
  if (beneficiaryIds.length === 0) return [];
  return tx
    .select()
    .from(screeningHits)
    .where(and(inArray(screeningHits.beneficiaryId, [...beneficiaryIds]), ne(screeningHits.status, "withdrawn")))
    .orderBy(screeningHits.id)
    .for("update");
}

export async function insertHits(tx: Tx, rows: readonly NewHitRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await tx.insert(screeningHits).values(rows.slice(i, i + 1000));
}

export async function withdrawHits(tx: Tx, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(screeningHits)
    .set({ status: "withdrawn", updatedAt: at })
    .where(inArray(screeningHits.id, [...ids]));
}

export type HitDecisionPatch = Pick<
  HitRow,
  "status" | "decidedByApiKeyId" | "decidedByMembershipId" | "decidedByUserId" | "decidedAt" | "reason" | "updatedAt"
>;

/** Decides open hits (conditional on `open`: of two racing decisions one wins). */
export async function decideHits(tx: Tx, tenant: Tenant, ids: readonly string[], patch: HitDecisionPatch): Promise<HitRow[]> {
  if (ids.length === 0) return [];
  return tx
    .update(screeningHits)
    .set(patch)
    .where(and(ownedBy(screeningHits, tenant), inArray(screeningHits.id, [...ids]), eq(screeningHits.status, "open")))
    .returning();
}

export async function findHit(db: Db, tenant: Tenant, id: string): Promise<HitRow | null> {
  const [row] = await db
    .select()
    .from(screeningHits)
    .where(and(ownedBy(screeningHits, tenant), eq(screeningHits.id, id)))
    .limit(1);
  return row ?? null;
}

export interface HitFilters {
  readonly status?: ScreeningHitStatus | undefined;
  readonly beneficiaryId?: string | undefined;
}

/** Newest first (ids are UUIDv7), `limit` rows after the cursor's id. */
export async function listHits(
  db: Db,
  tenant: Tenant,
  filters: HitFilters,
  afterId: string | null,
  limit: number,
): Promise<HitRow[]> {
  const conditions: SQL[] = [ownedBy(screeningHits, tenant)];
  if (filters.status !== undefined) conditions.push(eq(screeningHits.status, filters.status));
  if (filters.beneficiaryId !== undefined) conditions.push(eq(screeningHits.beneficiaryId, filters.beneficiaryId));
  if (afterId !== null) conditions.push(lt(screeningHits.id, afterId));
  return db
    .select()
    .from(screeningHits)
    .where(and(...conditions))
    .orderBy(desc(screeningHits.id))
    .limit(limit);
}

// Runs -----------------------------------------------------------------------------------------------------------

export async function insertRun(tx: Tx, row: typeof screeningRuns.$inferInsert): Promise<void> {
  await tx.insert(screeningRuns).values(row);
}

/** Runs still going are superseded by a new one (it screens everyone again anyway). */
export async function supersedeRunningRuns(tx: Tx, at: Date): Promise<void> {
  await tx.update(screeningRuns).set({ status: "superseded", finishedAt: at }).where(eq(screeningRuns.status, "running"));
}

export async function lockRun(tx: Tx, id: string): Promise<RunRow | null> {
  const [row] = await tx.select().from(screeningRuns).where(eq(screeningRuns.id, id)).for("update");
  return row ?? null;
}

export async function updateRun(tx: Tx, id: string, patch: Partial<Omit<RunRow, "id">>): Promise<void> {
  await tx.update(screeningRuns).set(patch).where(eq(screeningRuns.id, id));
}

export async function latestRun(db: Db): Promise<RunRow | null> {
  const [row] = await db.select().from(screeningRuns).orderBy(desc(screeningRuns.id)).limit(1);
  return row ?? null;
}
