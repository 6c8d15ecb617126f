// What the ledger offers other modules (the funding module): its accounts, the recording of one immutable
// transfer with its entries, and the reads of transfers and past balances. Every function runs in the caller's
// handle or transaction; the caller (funding) holds the funding account's row lock while it records a transfer,
// and writes the balances after it on that row in the same transaction.
import { and, asc, desc, eq, inArray, isNull, lt, lte, type SQL, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import { type Db, namedQueryRows, queryRows, type Tx } from "../../platform/db/client.js";
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

/** The ids of a funding account's ledger account and of the internal accounts of its Business, environment and currency. */
export type LedgerAccountIds = Readonly<Record<LedgerAccountKind, string>>;

/**
 * The ledger accounts a funding account's transfers use, looked up in `tx`. Ledger accounts are never updated or
 * deleted, so ids read from committed rows can be kept for the life of the process (see createLedgerPostings).
 */
export async function findLedgerAccountIds(
  tx: Tx,
  tenant: Tenant,
  fundingAccountId: string,
  currency: string,
): Promise<LedgerAccountIds> {
  const accounts = await tx
    .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind })
    .from(ledgerAccounts)
    .where(
      and(
        ownedBy(ledgerAccounts, tenant),
        eq(ledgerAccounts.currency, currency),
        sql`(${ledgerAccounts.fundingAccountId} = ${fundingAccountId} or ${ledgerAccounts.fundingAccountId} is null)`,
      ),
    );
  const idOf = new Map(accounts.map((a) => [a.kind, a.id]));
  const ids: Partial<Record<LedgerAccountKind, string>> = {};
  for (const kind of LEDGER_ACCOUNT_KINDS_IN_ORDER) {
    const id = idOf.get(kind);
    if (id === undefined) throw new Error(`no ledger account ${kind} for ${currency}`);
    ids[kind] = id;
  }
  return ids as LedgerAccountIds;
}

const LEDGER_ACCOUNT_KINDS_IN_ORDER: readonly LedgerAccountKind[] = [
  "funding",
  "payees_in_transit",
  "fees",
  "suspense",
  "outside_world",
];

/** What one posting statement did. */
export type PostingOutcome<Row> =
  /** The transfer and its entries are written; `row` is the funding account's row as the balance update left it. */
  | { readonly kind: "recorded"; readonly row: Row; readonly transfer: TransferWithEntries }
  /** A transfer with this idempotency key exists already: nothing was changed. */
  | { readonly kind: "duplicate" }
  /** The balance update matched no row (not covered where enforced, or no such account): nothing was changed. */
  | { readonly kind: "refused" };

/**
 * One posting as ONE statement (one round trip): the funding account's balance update (the caller's UPDATE, the
 * funding module owns that table), the transfer with the balances after it, and its entries, in data-modifying CTEs;
 * the update applies only when no transfer has this idempotency key yet (`guard`, which the caller's UPDATE must put
 * in its WHERE). The funding row is locked by that statement and for the rest of the caller's transaction only: no
 * look-up runs between the lock and the writes. `accountIds` come from findLedgerAccountIds (or a cache of it).
 * `balanceUpdate` must always render the same SQL text for one `statementName` (a named prepared statement on
 * PostgreSQL), with RETURNING the row's columns. Entries must sum to zero (checked here, and by the
 * ledger_entries_balanced trigger over the entries each statement inserts).
 */
export async function postTransfer<Row>(
  tx: Tx,
  ids: IdGenerator,
  tenant: Tenant,
  input: {
    readonly statementName: string;
    readonly balanceUpdate: (guard: SQL) => SQL;
    readonly mapRow: (raw: Record<string, unknown>) => Row;
    readonly accountIds: LedgerAccountIds;
    readonly step: TransferStep;
    readonly cause: { readonly type: TransferCauseType; readonly id: string };
    readonly idempotencyKey: string;
    readonly legs: readonly TransferLeg[];
  },
): Promise<PostingOutcome<Row>> {
  assertBalanced(input.legs);
  const transferId = ids.newId();
  const entries = input.legs.map((leg) => ({
    id: ids.newId(),
    account: input.accountIds[leg.account],
    amount: leg.amountMinor,
    pending: leg.pending,
  }));
  const guard = sql`not exists (select 1 from existing)`;
  const [raw] = await namedQueryRows<Record<string, unknown>>(
    tx,
    input.statementName,
    sql`with existing as (
          select 1 from ledger_transfers
          where business_id = ${tenant.businessId}::uuid and environment = ${tenant.environment}::environment
            and idempotency_key = ${input.idempotencyKey}::text
        ),
        moved as (${input.balanceUpdate(guard)}),
        transfer as (
          insert into ledger_transfers (id, business_id, environment, funding_account_id, currency, step, cause_type,
            cause_id, idempotency_key, posted_after_minor, pending_after_minor, created_at)
          select ${transferId}::uuid, m.business_id, m.environment, m.id, m.currency, ${input.step}::text,
            ${input.cause.type}::text, ${input.cause.id}::text, ${input.idempotencyKey}::text, m.posted_minor,
            m.pending_minor, m.last_transfer_at
          from moved m
          returning seq, created_at
        ),
        entries as (
          insert into ledger_entries (id, transfer_id, ledger_account_id, amount_minor, pending)
          select e.id, ${transferId}::uuid, e.account, e.amount, e.pending
          from transfer cross join jsonb_to_recordset(${JSON.stringify(entries)}::jsonb)
            as e(id uuid, account uuid, amount bigint, pending boolean)
          returning 1
        )
        select exists (select 1 from existing) as ledger_duplicate, t.seq as ledger_transfer_seq,
          t.created_at as ledger_transfer_created_at, m.*
        from (select 1) as one left join moved m on true left join transfer t on true`,
  );
  if (raw === undefined) throw new Error("posting statement returned no row");
  if (raw.ledger_duplicate === true) return { kind: "duplicate" };
  if (raw.ledger_transfer_seq === null || raw.ledger_transfer_seq === undefined) return { kind: "refused" };
  const row = input.mapRow(raw);
  const postedAfterMinor = Number(raw.posted_minor);
  const pendingAfterMinor = Number(raw.pending_minor);
  const createdAt = raw.ledger_transfer_created_at;
  return {
    kind: "recorded",
    row,
    transfer: {
      id: transferId,
      businessId: tenant.businessId,
      environment: tenant.environment,
      seq: Number(raw.ledger_transfer_seq),
      fundingAccountId: String(raw.id),
      currency: String(raw.currency),
      step: input.step,
      causeType: input.cause.type,
      causeId: input.cause.id,
      idempotencyKey: input.idempotencyKey,
      bookedOn: null,
      postedAfterMinor,
      pendingAfterMinor,
      createdAt: createdAt instanceof Date ? createdAt : new Date(String(createdAt)),
      entries: input.legs.map((leg) => ({ account: leg.account, amountMinor: leg.amountMinor, pending: leg.pending })),
    },
  };
}

/** One transfer of a bulk posting (see postTransfers): what it changes the funding row's balances by, and its legs. */
export interface BulkTransfer {
  readonly step: TransferStep;
  readonly cause: { readonly type: TransferCauseType; readonly id: string };
  readonly idempotencyKey: string;
  readonly legs: readonly TransferLeg[];
  readonly postedDelta: number;
  readonly pendingDelta: number;
  /** The bank's booking day of the money (YYYY-MM-DD), when the posting knows it (ledger_transfers.booked_on). */
  readonly bookedOn?: string | null;
}

/** What a bulk posting did to each transfer, in the order given. */
export type BulkPostingOutcome<Row> =
  | {
      readonly kind: "posted";
      /** The funding row as the one balance update left it; null when every key was recorded already. */
      readonly row: Row | null;
      /** Per transfer given: recorded now, or its key was recorded before (this call's earlier transfer, or before it). */
      readonly results: ReadonlyArray<
        { readonly kind: "recorded"; readonly transfer: TransferWithEntries } | { readonly kind: "duplicate" }
      >;
    }
  /** The balance update matched no row (no such account): nothing was changed. */
  | { readonly kind: "refused" };

/**
 * Several postings of ONE funding account as ONE statement (postTransfer's, for many): the keys recorded already
 * are looked up, the rest (the first of each key given) insert their transfers in the order given, each with the
 * balances after it (the row's balances before the update plus the running sum of the deltas, in that order), and
 * their entries; the funding row is updated once by the deltas' total (`balanceUpdate(guard, totals)`, which must
 * put `guard` in its WHERE and add the totals). A key recorded before posts nothing (`duplicate`), so does a key
 * repeated within the call after its first. No cover check: for movements that are never refused for funds.
 * Entries must sum to zero per transfer (checked here, and by the ledger_entries_balanced trigger).
 */
export async function postTransfers<Row>(
  tx: Tx,
  ids: IdGenerator,
  tenant: Tenant,
  input: {
    readonly statementName: string;
    readonly balanceUpdate: (guard: SQL, totals: { readonly posted: SQL; readonly pending: SQL }) => SQL;
    readonly mapRow: (raw: Record<string, unknown>) => Row;
    readonly accountIds: LedgerAccountIds;
    readonly transfers: readonly BulkTransfer[];
  },
): Promise<BulkPostingOutcome<Row>> {
  if (input.transfers.length === 0) return { kind: "posted", row: null, results: [] };
  for (const t of input.transfers) {
    assertBalanced(t.legs);
    if (!Number.isSafeInteger(t.postedDelta) || !Number.isSafeInteger(t.pendingDelta))
      throw new Error("a transfer's balance change must be an integer");
  }
  // Only the first transfer of a key is sent: a later one in the same call is a duplicate of it.
  const firstOfKey = new Map<string, number>();
  input.transfers.forEach((t, i) => {
    if (!firstOfKey.has(t.idempotencyKey)) firstOfKey.set(t.idempotencyKey, i);
  });
  const sent = [...firstOfKey.values()].map((index, ord) => ({ index, ord, id: ids.newId() }));
  const transfers = sent.map(({ index, ord, id }) => {
    const t = input.transfers[index] as BulkTransfer;
    return {
      ord,
      id,
      step: t.step,
      cause_type: t.cause.type,
      cause_id: t.cause.id,
      idempotency_key: t.idempotencyKey,
      posted_delta: t.postedDelta,
      pending_delta: t.pendingDelta,
      booked_on: t.bookedOn ?? null,
    };
  });
  const entries = sent.flatMap(({ index, id }) =>
    (input.transfers[index] as BulkTransfer).legs.map((leg) => ({
      id: ids.newId(),
      transfer_id: id,
      account: input.accountIds[leg.account],
      amount: leg.amountMinor,
      pending: leg.pending,
    })),
  );
  const guard = sql`exists (select 1 from fresh)`;
  const totals = {
    posted: sql`(select coalesce(sum(posted_delta), 0) from fresh)::bigint`,
    pending: sql`(select coalesce(sum(pending_delta), 0) from fresh)::bigint`,
  };
  const rows = await namedQueryRows<Record<string, unknown>>(
    tx,
    input.statementName,
    sql`with input as (
          select * from jsonb_to_recordset(${JSON.stringify(transfers)}::jsonb)
            as t(ord integer, id uuid, step text, cause_type text, cause_id text, idempotency_key text,
                 posted_delta bigint, pending_delta bigint, booked_on date)
        ),
        existing as (
          select idempotency_key from ledger_transfers
          where business_id = ${tenant.businessId}::uuid and environment = ${tenant.environment}::environment
            and idempotency_key in (select idempotency_key from input)
        ),
        fresh as (
          select i.*,
            sum(i.posted_delta) over (order by i.ord rows between unbounded preceding and current row) as posted_run,
            sum(i.pending_delta) over (order by i.ord rows between unbounded preceding and current row) as pending_run,
            sum(i.posted_delta) over () as posted_total,
            sum(i.pending_delta) over () as pending_total
          from input i
          where not exists (select 1 from existing e where e.idempotency_key = i.idempotency_key)
        ),
        moved as (${input.balanceUpdate(guard, totals)}),
        transfer as (
          insert into ledger_transfers (id, business_id, environment, funding_account_id, currency, step, cause_type,
            cause_id, idempotency_key, posted_after_minor, pending_after_minor, booked_on, created_at)
          select f.id, m.business_id, m.environment, m.id, m.currency, f.step, f.cause_type, f.cause_id,
            f.idempotency_key, m.posted_minor - f.posted_total + f.posted_run,
            m.pending_minor - f.pending_total + f.pending_run, f.booked_on, m.last_transfer_at
          from fresh f cross join moved m
          order by f.ord
          returning id, seq, created_at, posted_after_minor, pending_after_minor
        ),
        entries as (
          insert into ledger_entries (id, transfer_id, ledger_account_id, amount_minor, pending)
          select e.id, e.transfer_id, e.account, e.amount, e.pending
          from jsonb_to_recordset(${JSON.stringify(entries)}::jsonb)
            as e(id uuid, transfer_id uuid, account uuid, amount bigint, pending boolean)
          join transfer t on t.id = e.transfer_id
          returning 1
        )
        select i.ord as ledger_ord, (x.idempotency_key is not null) as ledger_duplicate, t.seq as ledger_transfer_seq,
          t.created_at as ledger_transfer_created_at, t.posted_after_minor as ledger_posted_after,
          t.pending_after_minor as ledger_pending_after, m.*
        from input i left join existing x on x.idempotency_key = i.idempotency_key
          left join transfer t on t.id = i.id left join moved m on true
        order by i.ord`,
  );
  const byOrd = new Map(rows.map((raw) => [Number(raw.ledger_ord), raw]));
  const moved = rows.find((raw) => raw.id !== null && raw.id !== undefined);
  const fresh = rows.some((raw) => raw.ledger_duplicate !== true);
  if (fresh && moved === undefined) return { kind: "refused" };
  const resultOfSent = sent.map(({ index, ord, id }) => {
    const raw = byOrd.get(ord);
    if (raw === undefined) throw new Error("bulk posting statement lost a transfer");
    if (raw.ledger_duplicate === true) return { kind: "duplicate" as const };
    if (raw.ledger_transfer_seq === null || raw.ledger_transfer_seq === undefined)
      throw new Error("bulk posting statement did not record a transfer");
    const t = input.transfers[index] as BulkTransfer;
    const createdAt = raw.ledger_transfer_created_at;
    return {
      kind: "recorded" as const,
      transfer: {
        id,
        businessId: tenant.businessId,
        environment: tenant.environment,
        seq: Number(raw.ledger_transfer_seq),
        fundingAccountId: String(raw.id),
        currency: String(raw.currency),
        step: t.step,
        causeType: t.cause.type,
        causeId: t.cause.id,
        idempotencyKey: t.idempotencyKey,
        bookedOn: t.bookedOn ?? null,
        postedAfterMinor: Number(raw.ledger_posted_after),
        pendingAfterMinor: Number(raw.ledger_pending_after),
        createdAt: createdAt instanceof Date ? createdAt : new Date(String(createdAt)),
        entries: t.legs.map((leg) => ({ account: leg.account, amountMinor: leg.amountMinor, pending: leg.pending })),
      } satisfies TransferWithEntries,
    };
  });
  const resultOfIndex = new Map(sent.map(({ index }, k) => [index, resultOfSent[k]]));
  return {
    kind: "posted",
    row: moved === undefined ? null : input.mapRow(moved),
    results: input.transfers.map((_, i) => resultOfIndex.get(i) ?? { kind: "duplicate" as const }),
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
 * The funding account's posted movements recorded after `at`, for its balance on the bank's day `day` (YYYY-MM-DD):
 * the posted total of those the bank booked after that day by their own booking day (`booked_on`, summed here),
 * and, one by one, those whose booking day the posting did not know (the caller finds it from their cause).
 */
export async function postedMovementsAfter(
  db: Db,
  fundingAccountId: string,
  at: Date,
  day: string,
): Promise<{
  readonly bookedAfterDayMinor: number;
  readonly undated: ReadonlyArray<{
    readonly causeType: TransferCauseType;
    readonly causeId: string;
    readonly step: TransferStep;
    readonly postedDeltaMinor: number;
  }>;
}> {
  const rows = await queryRows<{
    cause_type: TransferCauseType | null;
    cause_id: string | null;
    step: TransferStep | null;
    posted: string;
  }>(
    db,
    sql`with movement as (
          select t.id, t.cause_type, t.cause_id, t.step, t.booked_on,
            sum(case when e.pending then 0 else e.amount_minor end) as posted
          from ledger_transfers t
          join ledger_entries e on e.transfer_id = t.id
          join ledger_accounts a on a.id = e.ledger_account_id and a.funding_account_id = ${fundingAccountId}::uuid
          where t.funding_account_id = ${fundingAccountId}::uuid and t.created_at > ${at.toISOString()}::timestamptz
          group by t.id
        )
        select null as cause_type, null as cause_id, null as step, coalesce(sum(posted), 0)::text as posted
        from movement where booked_on > ${day}::date
        union all
        select cause_type, cause_id, step, posted::text from movement where booked_on is null and posted <> 0`,
  );
  let bookedAfterDayMinor = 0;
  const undated: Array<{ causeType: TransferCauseType; causeId: string; step: TransferStep; postedDeltaMinor: number }> = [];
  for (const row of rows) {
    if (row.cause_type === null || row.cause_id === null || row.step === null) bookedAfterDayMinor += Number(row.posted);
    else undated.push({ causeType: row.cause_type, causeId: row.cause_id, step: row.step, postedDeltaMinor: Number(row.posted) });
  }
  return { bookedAfterDayMinor, undated };
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
