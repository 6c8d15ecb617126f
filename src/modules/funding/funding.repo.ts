// The funding module's queries on its one table. Balance changes are single conditional updates on the row
// (the serialisation point of its balance); callers hold the payout row first, the funding row last.
import { and, desc, eq, getTableColumns, lt, type SQL, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db, Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { type FundingAccountRow, fundingAccounts } from "./funding.schema.js";

export type NewFundingAccountRow = typeof fundingAccounts.$inferInsert;
export type FundingAccountPatch = Partial<
  Pick<
    FundingAccountRow,
    | "name"
    | "enforcement"
    | "overdraftLimitMinor"
    | "lowBalanceThresholdMinor"
    | "awaitingFundsExpiryHours"
    | "accountIdentifierMasked"
  >
>;

/**
 * The account of a source, inserted unless it exists: a plain read first (on a hot account the insert's conflict
 * check would wait for every transaction holding the row), then ON CONFLICT DO NOTHING for two first payouts racing.
 */
export async function insertFundingAccountIfAbsent(
  tx: Tx,
  row: NewFundingAccountRow,
): Promise<{ row: FundingAccountRow; created: boolean }> {
  const found = await findBySource(tx, row);
  if (found !== undefined) return { row: found, created: false };
  const [inserted] = await tx.insert(fundingAccounts).values(row).onConflictDoNothing().returning();
  if (inserted !== undefined) return { row: inserted, created: true };
  const existing = await findBySource(tx, row);
  if (existing === undefined) throw new Error("funding account neither inserted nor found");
  return { row: existing, created: false };
}

async function findBySource(tx: Tx, row: NewFundingAccountRow): Promise<FundingAccountRow | undefined> {
  const [existing] = await tx
    .select()
    .from(fundingAccounts)
    .where(
      and(
        eq(fundingAccounts.businessId, row.businessId),
        eq(fundingAccounts.environment, row.environment),
        eq(fundingAccounts.currency, row.currency),
        eq(fundingAccounts.kind, row.kind),
        eq(fundingAccounts.accountKey, row.accountKey),
      ),
    );
  return existing;
}

export async function findFundingAccountRow(db: Db, tenant: Tenant, id: string): Promise<FundingAccountRow | null> {
  const [row] = await db
    .select()
    .from(fundingAccounts)
    .where(and(eq(fundingAccounts.id, id), ownedBy(fundingAccounts, tenant)));
  return row ?? null;
}

export async function findRailFundingAccountRow(
  db: Db,
  tenant: Tenant,
  rail: "sepa" | "ach",
  currency: string,
): Promise<FundingAccountRow | null> {
  const [row] = await db
    .select()
    .from(fundingAccounts)
    .where(
      and(
        ownedBy(fundingAccounts, tenant),
        eq(fundingAccounts.kind, "bank_rail"),
        eq(fundingAccounts.rail, rail),
        eq(fundingAccounts.currency, currency),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function lockFundingAccountRow(tx: Tx, tenant: Tenant, id: string): Promise<FundingAccountRow | null> {
  const [row] = await tx
    .select()
    .from(fundingAccounts)
    .where(and(eq(fundingAccounts.id, id), ownedBy(fundingAccounts, tenant)))
    .for("update");
  return row ?? null;
}

/** Unscoped lock by id (the release job, which carries only the id). */
export async function lockFundingAccountById(tx: Tx, id: string): Promise<FundingAccountRow | null> {
  const [row] = await tx.select().from(fundingAccounts).where(eq(fundingAccounts.id, id)).for("update");
  return row ?? null;
}

export async function listFundingAccountRows(
  db: Db,
  tenant: Tenant,
  page: { readonly after: string | null; readonly limit: number; readonly currency?: string },
): Promise<FundingAccountRow[]> {
  return db
    .select()
    .from(fundingAccounts)
    .where(
      and(
        ownedBy(fundingAccounts, tenant),
        page.after === null ? undefined : lt(fundingAccounts.id, page.after),
        page.currency === undefined ? undefined : eq(fundingAccounts.currency, page.currency),
      ),
    )
    .orderBy(desc(fundingAccounts.id))
    .limit(page.limit + 1);
}

/**
 * One balance change on the row, as one statement: `posted` and `pending` move by the deltas, the transfer time
 * never goes backwards, and (when `whereCovered`) the update applies only if the row's available balance still
 * covers `amount` where enforced (re-checked by PostgreSQL on the committed row). Null: not covered.
 */
export async function moveBalances(
  tx: Tx,
  id: string,
  change: {
    readonly postedDelta: number;
    readonly pendingDelta: number;
    readonly awaitingCountDelta?: number;
    readonly awaitingMinorDelta?: number;
    readonly now: Date;
    readonly coverAmount?: number;
  },
): Promise<FundingAccountRow | null> {
  const conditions: SQL[] = [eq(fundingAccounts.id, id)];
  if (change.coverAmount !== undefined) {
    conditions.push(
      sql`(${fundingAccounts.enforcement} = 'track_only' or ${fundingAccounts.postedMinor} - ${fundingAccounts.pendingMinor} - ${change.coverAmount} >= -${fundingAccounts.overdraftLimitMinor})`,
    );
  }
  const touchesLedger = change.postedDelta !== 0 || change.pendingDelta !== 0;
  const [row] = await tx
    .update(fundingAccounts)
    .set({
      postedMinor: sql`${fundingAccounts.postedMinor} + ${change.postedDelta}`,
      pendingMinor: sql`${fundingAccounts.pendingMinor} + ${change.pendingDelta}`,
      awaitingCount: sql`${fundingAccounts.awaitingCount} + ${change.awaitingCountDelta ?? 0}`,
      awaitingMinor: sql`${fundingAccounts.awaitingMinor} + ${change.awaitingMinorDelta ?? 0}`,
      ...(touchesLedger
        ? {
            lastTransferAt: sql`greatest(coalesce(${fundingAccounts.lastTransferAt}, ${change.now.toISOString()}::timestamptz), ${change.now.toISOString()}::timestamptz)`,
          }
        : {}),
      updatedAt: change.now,
    })
    .where(and(...conditions))
    .returning();
  return row ?? null;
}

/** A balance change that records a transfer (see balanceUpdateSql). */
export interface PostingBalanceChange {
  readonly tenant: Tenant;
  readonly id: string;
  readonly postedDelta: number;
  readonly pendingDelta: number;
  readonly awaitingCountDelta?: number;
  readonly awaitingMinorDelta?: number;
  readonly now: Date;
  /** Applies only if available still covers this amount where enforced (re-checked on the committed row). */
  readonly coverAmount?: number;
}

/** The name of the posting statement built around balanceUpdateSql (its text never varies: every input is a parameter). */
export const POSTING_STATEMENT_NAME = "funding_post_transfer_v1";

/**
 * The balance update of a posting, for the ledger's one-statement posting (ledger.shared.ts postTransfer): the same
 * change as moveBalances, as SQL whose text never varies (every input a parameter), scoped to the tenant, with the
 * ledger's `guard` (no transfer under the key yet) in its WHERE, RETURNING the whole row.
 */
export function balanceUpdateSql(change: PostingBalanceChange): (guard: SQL) => SQL {
  const now = change.now.toISOString();
  const cover = change.coverAmount ?? null;
  return (guard) => sql`update funding_accounts set
      posted_minor = posted_minor + ${change.postedDelta}::bigint,
      pending_minor = pending_minor + ${change.pendingDelta}::bigint,
      awaiting_count = awaiting_count + ${change.awaitingCountDelta ?? 0}::integer,
      awaiting_minor = awaiting_minor + ${change.awaitingMinorDelta ?? 0}::bigint,
      last_transfer_at = greatest(coalesce(last_transfer_at, ${now}::timestamptz), ${now}::timestamptz),
      updated_at = ${now}::timestamptz
    where id = ${change.id}::uuid and business_id = ${change.tenant.businessId}::uuid
      and environment = ${change.tenant.environment}::environment
      and (${cover}::bigint is null or enforcement = 'track_only'
           or posted_minor - pending_minor - ${cover}::bigint >= -overdraft_limit_minor)
      and ${guard}
    returning funding_accounts.*`;
}

/** The name of the bulk posting statement built around balanceTotalsUpdateSql (ledger.shared.ts postTransfers). */
export const BULK_POSTING_STATEMENT_NAME = "funding_post_transfers_v2";

/**
 * The one balance update of a bulk posting (ledger.shared.ts postTransfers): the ledger's totals of the transfers
 * it records added to the balances, scoped to the tenant, with its `guard` (some transfer is new) in the WHERE,
 * RETURNING the whole row. No cover check (statement movements are never refused for funds).
 */
export function balanceTotalsUpdateSql(target: {
  readonly tenant: Tenant;
  readonly id: string;
  readonly now: Date;
}): (guard: SQL, totals: { readonly posted: SQL; readonly pending: SQL }) => SQL {
  const now = target.now.toISOString();
  return (guard, totals) => sql`update funding_accounts set
      posted_minor = posted_minor + ${totals.posted},
      pending_minor = pending_minor + ${totals.pending},
      last_transfer_at = greatest(coalesce(last_transfer_at, ${now}::timestamptz), ${now}::timestamptz),
      updated_at = ${now}::timestamptz
    where id = ${target.id}::uuid and business_id = ${target.tenant.businessId}::uuid
      and environment = ${target.tenant.environment}::environment
      and ${guard}
    returning funding_accounts.*`;
}

const FUNDING_COLUMNS = Object.entries(getTableColumns(fundingAccounts));

/** A funding_accounts row read by raw SQL (column names, driver values) as the query builder would return it. */
export function fundingRowFromRaw(raw: Record<string, unknown>): FundingAccountRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of FUNDING_COLUMNS) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as FundingAccountRow;
}

export async function updateFundingSettings(
  tx: Tx,
  id: string,
  patch: FundingAccountPatch,
  now: Date,
): Promise<FundingAccountRow> {
  const [row] = await tx
    .update(fundingAccounts)
    .set({ ...patch, updatedAt: now })
    .where(eq(fundingAccounts.id, id))
    .returning();
  if (row === undefined) throw new Error("funding account vanished under its lock");
  return row;
}
