// What the ledger offers other modules (the funding module): its accounts, the recording of one immutable
// transfer with its entries, and the reads of transfers and past balances. Every function runs in the caller's
// handle or transaction; the caller (funding) holds the funding account's row lock while it records a transfer,
// and writes the balances after it on that row in the same transaction.
import { and, asc, desc, eq, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db, Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import type { IdGenerator } from "../../platform/ids.js";
import {
  type LedgerAccountKind,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransfers,
  type TransferCauseType,
  type TransferStep,
} from "./ledger.schema.js";

export type { LedgerAccountKind, TransferCauseType, TransferStep } from "./ledger.schema.js";
export { LEDGER_ACCOUNT_KINDS, TRANSFER_CAUSE_TYPES, TRANSFER_STEPS } from "./ledger.schema.js";

export type TransferRow = typeof ledgerTransfers.$inferSelect;
export type EntryRow = typeof ledgerEntries.$inferSelect;

export interface TransferLeg {
  readonly account: LedgerAccountKind;
  /** Signed minor units: for the funding account, positive is money in (posted) or a hold released (pending). */
  readonly amountMinor: number;
  readonly pending: boolean;
}

export interface TransferWithEntries extends TransferRow {
  readonly entries: readonly { readonly account: LedgerAccountKind; readonly amountMinor: number; readonly pending: boolean }[];
}

const INTERNAL_KINDS: readonly LedgerAccountKind[] = ["payees_in_transit", "fees", "suspense", "outside_world"];

/**
 * Creates the ledger account of a funding account and the internal accounts of its Business, environment and
 * currency, those that do not exist yet (ON CONFLICT DO NOTHING: two creations racing both succeed).
 */
export async function openLedgerAccounts(
  tx: Tx,
  ids: IdGenerator,
  tenant: Tenant,
  input: { readonly fundingAccountId: string; readonly currency: string; readonly createdAt: Date },
): Promise<void> {
  const base = {
    businessId: tenant.businessId,
    environment: tenant.environment,
    currency: input.currency,
    createdAt: input.createdAt,
  };
  await tx
    .insert(ledgerAccounts)
    .values({ ...base, id: ids.newId(), kind: "funding", fundingAccountId: input.fundingAccountId })
    .onConflictDoNothing();
  await tx
    .insert(ledgerAccounts)
    .values(INTERNAL_KINDS.map((kind) => ({ ...base, id: ids.newId(), kind, fundingAccountId: null })))
    .onConflictDoNothing();
}

/** The transfer recorded under this idempotency key in the tenant, if any. */
export async function findTransferByKey(db: Db, tenant: Tenant, idempotencyKey: string): Promise<TransferRow | null> {
  const [row] = await db
    .select()
    .from(ledgerTransfers)
    .where(and(ownedBy(ledgerTransfers, tenant), eq(ledgerTransfers.idempotencyKey, idempotencyKey)));
  return row ?? null;
}

/** The transfer recorded under this idempotency key, with its entries, if any. */
export async function findTransferWithEntriesByKey(
  db: Db,
  tenant: Tenant,
  idempotencyKey: string,
): Promise<TransferWithEntries | null> {
  const row = await findTransferByKey(db, tenant, idempotencyKey);
  if (row === null) return null;
  const [withTheirEntries] = await withEntries(db, [row]);
  return withTheirEntries ?? null;
}

/** Entries sum to zero (per currency: a transfer has one currency); amounts are non-zero safe integers. */
export function assertBalanced(legs: readonly TransferLeg[]): void {
  if (legs.length < 2) throw new Error("a transfer needs at least two entries");
  let sum = 0;
  for (const leg of legs) {
    if (!Number.isSafeInteger(leg.amountMinor) || leg.amountMinor === 0)
      throw new Error("an entry's amount must be a non-zero integer");
    sum += leg.amountMinor;
  }
  if (sum !== 0) throw new Error(`a transfer's entries must sum to zero (sum ${sum})`);
}

/**
 * Records one immutable transfer and its entries. The caller holds the funding account's row lock and passes the
 * balances it wrote on that row (`postedAfterMinor`, `pendingAfterMinor`). Throws on unbalanced entries; a second
 * transfer with the same idempotency key fails on the unique index (the caller looks the key up first).
 */
export async function recordTransfer(
  tx: Tx,
  ids: IdGenerator,
  tenant: Tenant,
  input: {
    readonly fundingAccountId: string;
    readonly currency: string;
    readonly step: TransferStep;
    readonly cause: { readonly type: TransferCauseType; readonly id: string };
    readonly idempotencyKey: string;
    readonly legs: readonly TransferLeg[];
    readonly postedAfterMinor: number;
    readonly pendingAfterMinor: number;
    readonly createdAt: Date;
  },
): Promise<TransferWithEntries> {
  assertBalanced(input.legs);
  const accounts = await tx
    .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind, fundingAccountId: ledgerAccounts.fundingAccountId })
    .from(ledgerAccounts)
    .where(
      and(
        ownedBy(ledgerAccounts, tenant),
        eq(ledgerAccounts.currency, input.currency),
        sql`(${ledgerAccounts.fundingAccountId} = ${input.fundingAccountId} or ${ledgerAccounts.fundingAccountId} is null)`,
      ),
    );
  const idOf = new Map(accounts.map((a) => [a.kind, a.id]));
  const [transfer] = await tx
    .insert(ledgerTransfers)
    .values({
      id: ids.newId(),
      businessId: tenant.businessId,
      environment: tenant.environment,
      fundingAccountId: input.fundingAccountId,
      currency: input.currency,
      step: input.step,
      causeType: input.cause.type,
      causeId: input.cause.id,
      idempotencyKey: input.idempotencyKey,
      postedAfterMinor: input.postedAfterMinor,
      pendingAfterMinor: input.pendingAfterMinor,
      createdAt: input.createdAt,
    })
    .returning();
  if (transfer === undefined) throw new Error("transfer not inserted");
  await tx.insert(ledgerEntries).values(
    input.legs.map((leg) => {
      const accountId = idOf.get(leg.account);
      if (accountId === undefined) throw new Error(`no ledger account ${leg.account} for ${input.currency}`);
      return {
        id: ids.newId(),
        transferId: transfer.id,
        ledgerAccountId: accountId,
        amountMinor: leg.amountMinor,
        pending: leg.pending,
      };
    }),
  );
  return {
    ...transfer,
    entries: input.legs.map((leg) => ({ account: leg.account, amountMinor: leg.amountMinor, pending: leg.pending })),
  };
}

async function withEntries(db: Db, rows: readonly TransferRow[]): Promise<TransferWithEntries[]> {
  if (rows.length === 0) return [];
  const entries = await db
    .select({
      transferId: ledgerEntries.transferId,
      account: ledgerAccounts.kind,
      amountMinor: ledgerEntries.amountMinor,
      pending: ledgerEntries.pending,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.ledgerAccountId))
    .where(
      inArray(
        ledgerEntries.transferId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(ledgerEntries.id));
  return rows.map((row) => ({
    ...row,
    entries: entries
      .filter((e) => e.transferId === row.id)
      .map((e) => ({ account: e.account, amountMinor: e.amountMinor, pending: e.pending })),
  }));
}

/** A page of a funding account's transfers, newest first (id order: UUIDv7), `limit + 1` rows for toPage. */
export async function listTransfersOf(
  db: Db,
  tenant: Tenant,
  fundingAccountId: string,
  page: { readonly after: string | null; readonly limit: number },
): Promise<TransferWithEntries[]> {
  const rows = await db
    .select()
    .from(ledgerTransfers)
    .where(
      and(
        ownedBy(ledgerTransfers, tenant),
        eq(ledgerTransfers.fundingAccountId, fundingAccountId),
        page.after === null ? undefined : lt(ledgerTransfers.id, page.after),
      ),
    )
    .orderBy(desc(ledgerTransfers.id))
    .limit(page.limit + 1);
  return withEntries(db, rows);
}

/** Every transfer caused by one thing (a payout's hold, post, void...), oldest first, with entries. */
export async function listTransfersCausedBy(
  db: Db,
  tenant: Tenant,
  cause: { readonly type: TransferCauseType; readonly id: string },
): Promise<TransferWithEntries[]> {
  const rows = await db
    .select()
    .from(ledgerTransfers)
    .where(
      and(ownedBy(ledgerTransfers, tenant), eq(ledgerTransfers.causeType, cause.type), eq(ledgerTransfers.causeId, cause.id)),
    )
    .orderBy(asc(ledgerTransfers.seq));
  return withEntries(db, rows);
}

/**
 * The funding account's balances at `at`: the after-values of its last transfer at or before `at` (one row of
 * the account-time index); null when it had no transfer yet (balances zero).
 */
export async function balancesAt(
  db: Db,
  fundingAccountId: string,
  at: Date,
): Promise<{ readonly postedMinor: number; readonly pendingMinor: number } | null> {
  const [row] = await db
    .select({ postedMinor: ledgerTransfers.postedAfterMinor, pendingMinor: ledgerTransfers.pendingAfterMinor })
    .from(ledgerTransfers)
    .where(and(eq(ledgerTransfers.fundingAccountId, fundingAccountId), lte(ledgerTransfers.createdAt, at)))
    .orderBy(desc(ledgerTransfers.createdAt), desc(ledgerTransfers.seq))
    .limit(1);
  return row ?? null;
}

/**
 * The fold of the funding account's entries (what its balances must equal): posted = the sum of its posted
 * entries, pending (held) = minus the sum of its pending entries. Optionally only transfers at or before `at`.
 */
export async function foldOfFundingAccount(
  db: Db,
  fundingAccountId: string,
  at?: Date,
): Promise<{ readonly postedMinor: number; readonly pendingMinor: number }> {
  const [row] = await db
    .select({
      posted: sql<string>`coalesce(sum(case when ${ledgerEntries.pending} then 0 else ${ledgerEntries.amountMinor} end), 0)`,
      pending: sql<string>`coalesce(-sum(case when ${ledgerEntries.pending} then ${ledgerEntries.amountMinor} else 0 end), 0)`,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.ledgerAccountId))
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
    .where(
      and(
        eq(ledgerAccounts.fundingAccountId, fundingAccountId),
        at === undefined ? undefined : lte(ledgerTransfers.createdAt, at),
      ),
    );
  return { postedMinor: Number(row?.posted ?? 0), pendingMinor: Number(row?.pending ?? 0) };
}

/** Transfers whose entries do not sum to zero (an invariant check: always empty). */
export async function unbalancedTransferIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: ledgerEntries.transferId })
    .from(ledgerEntries)
    .groupBy(ledgerEntries.transferId)
    .having(sql`sum(${ledgerEntries.amountMinor}) <> 0`);
  return rows.map((r) => r.id);
}

/** Internal (non-funding) ledger accounts' own folds, e.g. payees in transit, for a tenant and currency. */
export async function internalAccountBalance(
  db: Db,
  tenant: Tenant,
  currency: string,
  kind: Exclude<LedgerAccountKind, "funding">,
): Promise<{ readonly postedMinor: number; readonly pendingMinor: number }> {
  const [row] = await db
    .select({
      posted: sql<string>`coalesce(sum(case when ${ledgerEntries.pending} then 0 else ${ledgerEntries.amountMinor} end), 0)`,
      pending: sql<string>`coalesce(sum(case when ${ledgerEntries.pending} then ${ledgerEntries.amountMinor} else 0 end), 0)`,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.ledgerAccountId))
    .where(
      and(
        ownedBy(ledgerAccounts, tenant),
        eq(ledgerAccounts.currency, currency),
        eq(ledgerAccounts.kind, kind),
        isNull(ledgerAccounts.fundingAccountId),
      ),
    );
  return { postedMinor: Number(row?.posted ?? 0), pendingMinor: Number(row?.pending ?? 0) };
}
