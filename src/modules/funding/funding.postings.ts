// The posting rules: every movement of money on a funding account as one ledger transfer, written with the row's
// new balances in the caller's transaction (the payout's move and its event, a top-up's approval, a sandbox
// credit). Idempotent on the key derived from the cause (`payout:<id>:<step>`, `top_up:<id>:credit`): a key already
// recorded returns its transfer and changes nothing. Lock order: the caller holds the payout (or top-up) row; the
// funding row is taken last, by the one conditional update of its balances.
import type { Tenant } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Tx } from "../../platform/db/client.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import {
  findLedgerAccountIds,
  findTransferWithEntriesByKey,
  type LedgerAccountIds,
  openLedgerAccounts,
  postTransfer,
  postTransfers,
  type TransferCauseType,
  type TransferLeg,
  type TransferStep,
  type TransferWithEntries,
} from "../ledger/ledger.shared.js";
import { FUNDING_RELEASE_JOB } from "./funding.jobs.js";
import {
  BULK_POSTING_STATEMENT_NAME,
  balanceTotalsUpdateSql,
  balanceUpdateSql,
  findFundingAccountRow,
  fundingRowFromRaw,
  insertFundingAccountIfAbsent,
  moveBalances,
  POSTING_STATEMENT_NAME,
  type PostingBalanceChange,
  updateFundingSettings,
} from "./funding.repo.js";
import type { FundingAccountKind, FundingAccountRow } from "./funding.schema.js";

export type { TransferWithEntries as TransferRow } from "../ledger/ledger.shared.js";
export type { FundingAccountRow } from "./funding.schema.js";

/** What a payout's funding status can be (the payout field `funding_status`). */
export type FundingStatus = "not_tracked" | "reserved" | "awaiting_funds" | "posted" | "released" | "reversed";

/** Where the money of a funding account comes from. */
export type FundingSource =
  | { readonly kind: "bank_rail"; readonly rail: "sepa" | "ach"; readonly accountIdentifierMasked?: string | null }
  | { readonly kind: "simulator" | "sandbox" };

/** A payout, as the posting rules see it. */
export interface PayoutForFunding {
  readonly id: string;
  readonly businessId: string;
  readonly environment: "sandbox" | "production";
  readonly amountMinor: number;
  readonly currency: string;
  readonly fundingAccountId: string | null;
  readonly fundingStatus: FundingStatus;
}

export interface CreditInput {
  readonly fundingAccountId: string;
  /** > 0, minor units. */
  readonly amountMinor: number;
  readonly cause: { readonly type: Exclude<TransferCauseType, "payout">; readonly id: string };
  /** e.g. `top_up:<id>:credit`. */
  readonly idempotencyKey: string;
}

/** Posts outside_world -> funding in the caller's transaction; schedules the release of waiting payouts. */
export type CreditFundingAccount = (tx: Tx, tenant: Tenant, input: CreditInput) => Promise<TransferWithEntries>;

export interface FundingPostingsDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly events: EventRecorder;
  readonly jobStore: Pick<JobStore, "enqueue">;
}

const SOURCE_NAMES: Record<FundingAccountKind, string> = {
  bank_rail: "bank account",
  simulator: "Simulator account",
  sandbox: "Sandbox account",
};

export function availableOf(row: Pick<FundingAccountRow, "postedMinor" | "pendingMinor">): number {
  return row.postedMinor - row.pendingMinor;
}

const tenantOfRow = (row: { businessId: string; environment: "sandbox" | "production" }): Tenant => ({
  businessId: row.businessId,
  environment: row.environment,
});

export function createFundingPostings(deps: FundingPostingsDeps) {
  const { clock, ids, events, jobStore } = deps;

  // Ids that never change once committed, kept for the life of the process so that a posting runs no look-up
  // before its one statement: a source's funding account id, and a funding account's ledger account ids. Only ids
  // read by a transaction that did not create them are kept (a transaction that created them may still roll back).
  const fundingAccountIdOfSource = new Map<string, string>();
  const ledgerIdsOfAccount = new Map<string, LedgerAccountIds>();

  async function ledgerIdsOf(
    tx: Tx,
    tenant: Tenant,
    fundingAccountId: string,
    currency: string,
    options: { readonly createdInThisTransaction?: boolean } = {},
  ): Promise<LedgerAccountIds> {
    const cached = ledgerIdsOfAccount.get(fundingAccountId);
    if (cached !== undefined) return cached;
    const found = await findLedgerAccountIds(tx, tenant, fundingAccountId, currency);
    if (options.createdInThisTransaction !== true) ledgerIdsOfAccount.set(fundingAccountId, found);
    return found;
  }

  const sourceKey = (tenant: Tenant, currency: string, source: FundingSource) =>
    `${tenant.businessId}:${tenant.environment}:${currency}:${source.kind}:${source.kind === "bank_rail" ? source.rail : ""}`;

  /**
   * The funding account of a source and currency, created with its ledger accounts the first time (ON CONFLICT DO
   * NOTHING: concurrent first payouts of a currency all get the one account). Does not lock it.
   */
  async function ensureFundingAccount(
    tx: Tx,
    tenant: Tenant,
    currency: string,
    source: FundingSource,
  ): Promise<FundingAccountRow> {
    return (await ensureFundingAccountRow(tx, tenant, currency, source)).row;
  }

  /** The id of a source's funding account (from the cache when it is known), and whether this transaction created it. */
  async function fundingAccountIdOf(
    tx: Tx,
    tenant: Tenant,
    currency: string,
    source: FundingSource,
  ): Promise<{ readonly id: string; readonly created: boolean }> {
    const cached = fundingAccountIdOfSource.get(sourceKey(tenant, currency, source));
    if (cached !== undefined) return { id: cached, created: false };
    const { row, created } = await ensureFundingAccountRow(tx, tenant, currency, source);
    return { id: row.id, created };
  }

  async function ensureFundingAccountRow(
    tx: Tx,
    tenant: Tenant,
    currency: string,
    source: FundingSource,
  ): Promise<{ readonly row: FundingAccountRow; readonly created: boolean }> {
    const now = clock.now();
    const kind = source.kind;
    const rail = source.kind === "bank_rail" ? source.rail : null;
    const { row, created } = await insertFundingAccountIfAbsent(tx, {
      id: ids.newId(),
      businessId: tenant.businessId,
      environment: tenant.environment,
      currency,
      name: rail === null ? `${SOURCE_NAMES[kind]} ${currency}` : `${rail.toUpperCase()} ${SOURCE_NAMES[kind]} ${currency}`,
      kind,
      rail,
      accountKey: rail ?? "",
      accountIdentifierMasked: source.kind === "bank_rail" ? (source.accountIdentifierMasked ?? null) : null,
      createdAt: now,
      updatedAt: now,
    });
    if (created) await openLedgerAccounts(tx, ids, tenant, { fundingAccountId: row.id, currency, createdAt: now });
    else fundingAccountIdOfSource.set(sourceKey(tenant, currency, source), row.id);
    return { row, created };
  }

  /** For bank-rails: a configured rail's funding account, created the first time, its masked identifier kept current. */
  async function openRailFundingAccount(
    tx: Tx,
    tenant: Tenant,
    account: { readonly rail: "sepa" | "ach"; readonly currency: string; readonly accountIdentifierMasked: string },
  ): Promise<FundingAccountRow> {
    const row = await ensureFundingAccount(tx, tenant, account.currency, {
      kind: "bank_rail",
      rail: account.rail,
      accountIdentifierMasked: account.accountIdentifierMasked,
    });
    if (row.accountIdentifierMasked === account.accountIdentifierMasked) return row;
    return updateFundingSettings(tx, row.id, { accountIdentifierMasked: account.accountIdentifierMasked }, clock.now());
  }

  async function scheduleRelease(tx: Tx, account: FundingAccountRow, why: string): Promise<void> {
    if (account.awaitingCount === 0) return;
    await jobStore.enqueue(
      tx,
      FUNDING_RELEASE_JOB,
      { fundingAccountId: account.id },
      { dedupeKey: `funding-release:${account.id}:${why}:${ids.newId()}` },
    );
  }

  /** `funding_account.low_balance` when a posting took available from at or above the threshold to below it. */
  async function reportLowBalance(tx: Tx, before: number, after: FundingAccountRow): Promise<void> {
    const threshold = after.lowBalanceThresholdMinor;
    const available = availableOf(after);
    if (threshold === null || available >= threshold || before < threshold) return;
    await events.record(tx, {
      tenant: tenantOfRow(after),
      type: "funding_account.low_balance",
      subjectId: after.id,
      data: {
        funding_account_id: after.id,
        currency: after.currency,
        posted_minor: after.postedMinor,
        pending_minor: after.pendingMinor,
        available_minor: available,
        low_balance_threshold_minor: threshold,
      },
    });
  }

  /**
   * One posting, one statement: the balance change on the funding row, the transfer with the balances after it and
   * its entries (ledger.shared.ts postTransfer); nothing when the key is recorded already (`duplicate`) or the
   * change is not covered where enforced (`refused`).
   */
  async function post(
    tx: Tx,
    change: PostingBalanceChange & { readonly currency: string; readonly createdInThisTransaction?: boolean },
    step: TransferStep,
    cause: { type: TransferCauseType; id: string },
    idempotencyKey: string,
    legs: readonly TransferLeg[],
  ) {
    const accountIds = await ledgerIdsOf(tx, change.tenant, change.id, change.currency, change);
    return postTransfer(tx, ids, change.tenant, {
      statementName: POSTING_STATEMENT_NAME,
      balanceUpdate: balanceUpdateSql(change),
      mapRow: fundingRowFromRaw,
      accountIds,
      step,
      cause,
      idempotencyKey,
      legs,
    });
  }

  const creditFundingAccount: CreditFundingAccount = async (tx, tenant, input) => {
    if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0)
      throw new Error("a credit must be a positive integer");
    const account = await findFundingAccountRow(tx, tenant, input.fundingAccountId);
    if (account === null) throw new Error("no such funding account");
    const posted = await post(
      tx,
      { tenant, id: account.id, currency: account.currency, postedDelta: input.amountMinor, pendingDelta: 0, now: clock.now() },
      "credit",
      input.cause,
      input.idempotencyKey,
      [
        { account: "outside_world", amountMinor: -input.amountMinor, pending: false },
        { account: "funding", amountMinor: input.amountMinor, pending: false },
      ],
    );
    if (posted.kind === "refused") throw new Error("funding account vanished");
    if (posted.kind === "duplicate") {
      const existing = await findTransferWithEntriesByKey(tx, tenant, input.idempotencyKey);
      if (existing === null) throw new Error("a duplicate transfer vanished");
      return existing;
    }
    await scheduleRelease(tx, posted.row, `credit:${posted.transfer.id}`);
    return posted.transfer;
  };

  /**
   * For reconciliation (issue 28): one posted movement of a funding account against an internal account, caused
   * by a statement line or statement (an unknown debit to suspense, a bank fee, its release, an opening balance).
   * `amountMinor` is signed for the funding account (positive: money in). Idempotent on the key.
   */
  const postStatementMovement = async (
    tx: Tx,
    tenant: Tenant,
    input: {
      readonly fundingAccountId: string;
      readonly amountMinor: number;
      readonly counterpart: "suspense" | "fees" | "outside_world";
      readonly step: TransferStep;
      readonly cause: { readonly type: Exclude<TransferCauseType, "payout">; readonly id: string };
      readonly idempotencyKey: string;
    },
  ): Promise<TransferWithEntries> => {
    if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor === 0)
      throw new Error("a movement must be a non-zero integer");
    const account = await findFundingAccountRow(tx, tenant, input.fundingAccountId);
    if (account === null) throw new Error("no such funding account");
    const posted = await post(
      tx,
      { tenant, id: account.id, currency: account.currency, postedDelta: input.amountMinor, pendingDelta: 0, now: clock.now() },
      input.step,
      input.cause,
      input.idempotencyKey,
      [
        { account: input.counterpart, amountMinor: -input.amountMinor, pending: false },
        { account: "funding", amountMinor: input.amountMinor, pending: false },
      ],
    );
    if (posted.kind === "refused") throw new Error("funding account vanished");
    if (posted.kind === "duplicate") {
      const existing = await findTransferWithEntriesByKey(tx, tenant, input.idempotencyKey);
      if (existing === null) throw new Error("a duplicate transfer vanished");
      return existing;
    }
    if (input.amountMinor > 0) await scheduleRelease(tx, posted.row, `statement:${posted.transfer.id}`);
    else await reportLowBalance(tx, availableOf(posted.row) - input.amountMinor, posted.row);
    return posted.transfer;
  };

  /**
   * For reconciliation (issue 28): several statement movements of ONE funding account (postStatementMovement's,
   * for a statement's unmatched lines and fees), posted in one statement (ledger.shared.ts postTransfers): the
   * funding row updated once, each transfer with the balances after it in the order given. Each key is
   * idempotent as in postStatementMovement (a key recorded before, or earlier in the list, returns its transfer);
   * the release of waiting payouts is scheduled for each credit and the low-balance check made for each debit, in
   * order, on the balances after it, as one by one. Returns the transfers in the order given.
   */
  const postStatementMovements = async (
    tx: Tx,
    tenant: Tenant,
    fundingAccountId: string,
    movements: ReadonlyArray<{
      readonly amountMinor: number;
      readonly counterpart: "suspense" | "fees" | "outside_world";
      readonly step: TransferStep;
      readonly cause: { readonly type: Exclude<TransferCauseType, "payout">; readonly id: string };
      readonly idempotencyKey: string;
      /** The bank's booking day of the movement, when known (ledger_transfers.booked_on). */
      readonly bookedOn?: string | null;
    }>,
  ): Promise<TransferWithEntries[]> => {
    if (movements.length === 0) return [];
    for (const m of movements)
      if (!Number.isSafeInteger(m.amountMinor) || m.amountMinor === 0) throw new Error("a movement must be a non-zero integer");
    const account = await findFundingAccountRow(tx, tenant, fundingAccountId);
    if (account === null) throw new Error("no such funding account");
    const accountIds = await ledgerIdsOf(tx, tenant, account.id, account.currency);
    const posted = await postTransfers(tx, ids, tenant, {
      statementName: BULK_POSTING_STATEMENT_NAME,
      balanceUpdate: balanceTotalsUpdateSql({ tenant, id: account.id, now: clock.now() }),
      mapRow: fundingRowFromRaw,
      accountIds,
      transfers: movements.map((m) => ({
        step: m.step,
        cause: m.cause,
        idempotencyKey: m.idempotencyKey,
        bookedOn: m.bookedOn ?? null,
        postedDelta: m.amountMinor,
        pendingDelta: 0,
        legs: [
          { account: m.counterpart, amountMinor: -m.amountMinor, pending: false },
          { account: "funding", amountMinor: m.amountMinor, pending: false },
        ],
      })),
    });
    if (posted.kind === "refused") throw new Error("funding account vanished");
    const transfers: TransferWithEntries[] = [];
    const ofKey = new Map<string, TransferWithEntries>();
    for (const [i, result] of posted.results.entries()) {
      const movement = movements[i];
      if (movement === undefined) continue;
      if (result.kind === "duplicate") {
        const existing =
          ofKey.get(movement.idempotencyKey) ?? (await findTransferWithEntriesByKey(tx, tenant, movement.idempotencyKey));
        if (existing === null) throw new Error("a duplicate transfer vanished");
        transfers.push(existing);
        continue;
      }
      const { transfer } = result;
      ofKey.set(movement.idempotencyKey, transfer);
      transfers.push(transfer);
      if (posted.row === null) throw new Error("a recorded transfer without its funding row");
      // The row as this transfer left it (movements change only the posted balance; awaiting stays as it is).
      const after = { ...posted.row, postedMinor: transfer.postedAfterMinor, pendingMinor: transfer.pendingAfterMinor };
      if (movement.amountMinor > 0)
        await scheduleRelease(tx, after, `${movement.step === "credit" ? "credit" : "statement"}:${transfer.id}`);
      else await reportLowBalance(tx, availableOf(after) - movement.amountMinor, after);
    }
    return transfers;
  };

  const key = (payoutId: string, step: TransferStep) => `payout:${payoutId}:${step}`;
  const payoutCause = (payout: PayoutForFunding) => ({ type: "payout" as const, id: payout.id });

  const holdLegs = (amountMinor: number): TransferLeg[] => [
    { account: "funding", amountMinor: -amountMinor, pending: true },
    { account: "payees_in_transit", amountMinor, pending: true },
  ];

  /**
   * Approval: a hold (pending debit of funding, pending credit of payees in transit) when available covers it or
   * the account only tracks; otherwise (enforce) the payout waits: no hold, counted on the account. Once the
   * account's ids are known (after its first posting in this process) the hold is one statement.
   */
  async function holdForPayout(
    tx: Tx,
    payout: PayoutForFunding,
    source: FundingSource,
    options: {
      /** The caller's writes that need the account's id, run before the statement that locks the funding row. */
      readonly beforeLock?: (fundingAccountId: string) => Promise<void>;
    } = {},
  ): Promise<{ fundingAccount: FundingAccountRow; status: "reserved" | "awaiting_funds" }> {
    const tenant = tenantOfRow(payout);
    const { id, created } = await fundingAccountIdOf(tx, tenant, payout.currency, source);
    await options.beforeLock?.(id);
    const now = clock.now();
    const held = await post(
      tx,
      {
        tenant,
        id,
        currency: payout.currency,
        createdInThisTransaction: created,
        postedDelta: 0,
        pendingDelta: payout.amountMinor,
        now,
        coverAmount: payout.amountMinor,
      },
      "hold",
      payoutCause(payout),
      key(payout.id, "hold"),
      holdLegs(payout.amountMinor),
    );
    if (held.kind === "duplicate") {
      const account = await findFundingAccountRow(tx, tenant, id);
      if (account === null) throw new Error("funding account vanished");
      return { fundingAccount: account, status: "reserved" };
    }
    if (held.kind === "refused") {
      const waiting = await moveBalances(tx, id, {
        postedDelta: 0,
        pendingDelta: 0,
        awaitingCountDelta: 1,
        awaitingMinorDelta: payout.amountMinor,
        now,
      });
      if (waiting === null) throw new Error("funding account vanished");
      return { fundingAccount: waiting, status: "awaiting_funds" };
    }
    await reportLowBalance(tx, availableOf(held.row) + payout.amountMinor, held.row);
    return { fundingAccount: held.row, status: "reserved" };
  }

  /**
   * The release job's hold of one waiting payout (the caller holds the funding row and the payout's): reserved
   * when it fits, else it keeps waiting (skipped; the next ones are tried).
   */
  async function reserveWaiting(
    tx: Tx,
    account: FundingAccountRow,
    payout: Omit<PayoutForFunding, "fundingAccountId" | "fundingStatus">,
  ) {
    const held = await post(
      tx,
      {
        tenant: tenantOfRow(account),
        id: account.id,
        currency: account.currency,
        postedDelta: 0,
        pendingDelta: payout.amountMinor,
        awaitingCountDelta: -1,
        awaitingMinorDelta: -payout.amountMinor,
        now: clock.now(),
        coverAmount: payout.amountMinor,
      },
      "hold",
      { type: "payout", id: payout.id },
      key(payout.id, "hold"),
      holdLegs(payout.amountMinor),
    );
    if (held.kind !== "recorded") return null;
    await reportLowBalance(tx, availableOf(held.row) + payout.amountMinor, held.row);
    return held.row;
  }

  /** A payout's posting on its funding account (post, void, reverse): one statement, unconditional. */
  async function postOfPayout(
    tx: Tx,
    payout: PayoutForFunding & { readonly fundingAccountId: string },
    step: TransferStep,
    deltas: { readonly postedDelta: number; readonly pendingDelta: number },
    legs: readonly TransferLeg[],
  ) {
    const posted = await post(
      tx,
      { tenant: tenantOfRow(payout), id: payout.fundingAccountId, currency: payout.currency, ...deltas, now: clock.now() },
      step,
      payoutCause(payout),
      key(payout.id, step),
      legs,
    );
    if (posted.kind === "refused") throw new Error("funding account vanished");
    return posted;
  }

  /** `disbursed`: the hold becomes a posted debit (funding) and a posted credit (payees in transit). */
  async function postForPayout(tx: Tx, payout: PayoutForFunding): Promise<FundingStatus> {
    const { fundingAccountId } = payout;
    if (payout.fundingStatus !== "reserved" || fundingAccountId === null) return payout.fundingStatus;
    const amount = payout.amountMinor;
    await postOfPayout(tx, { ...payout, fundingAccountId }, "post", { postedDelta: -amount, pendingDelta: -amount }, [
      { account: "funding", amountMinor: amount, pending: true },
      { account: "funding", amountMinor: -amount, pending: false },
      { account: "payees_in_transit", amountMinor: -amount, pending: true },
      { account: "payees_in_transit", amountMinor: amount, pending: false },
    ]);
    return "posted";
  }

  /**
   * `failed`, `canceled`, `rejected`: the hold is voided (available again, waiting payouts get a chance); a
   * payout that was waiting leaves the queue.
   */
  async function voidForPayout(tx: Tx, payout: PayoutForFunding): Promise<FundingStatus> {
    const { fundingAccountId } = payout;
    if (fundingAccountId === null) return payout.fundingStatus;
    if (payout.fundingStatus === "awaiting_funds") {
      const after = await moveBalances(tx, fundingAccountId, {
        postedDelta: 0,
        pendingDelta: 0,
        awaitingCountDelta: -1,
        awaitingMinorDelta: -payout.amountMinor,
        now: clock.now(),
      });
      if (after === null) throw new Error("funding account vanished");
      return "released";
    }
    if (payout.fundingStatus !== "reserved") return payout.fundingStatus;
    const amount = payout.amountMinor;
    const voided = await postOfPayout(tx, { ...payout, fundingAccountId }, "void", { postedDelta: 0, pendingDelta: -amount }, [
      { account: "funding", amountMinor: amount, pending: true },
      { account: "payees_in_transit", amountMinor: -amount, pending: true },
    ]);
    if (voided.kind === "recorded") await scheduleRelease(tx, voided.row, `void:${voided.transfer.id}`);
    return "released";
  }

  /**
   * A return's legs: payees in transit gives back the payout's amount; what came back (at most the amount) credits
   * the funding account, the rest (a bank's charge) goes to fees.
   */
  function reversal(payout: PayoutForFunding, returnedAmountMinor: number): { returned: number; legs: TransferLeg[] } {
    const returned = Math.min(Math.max(returnedAmountMinor, 0), payout.amountMinor);
    const shortfall = payout.amountMinor - returned;
    const legs: TransferLeg[] = [{ account: "payees_in_transit", amountMinor: -payout.amountMinor, pending: false }];
    if (returned > 0) legs.push({ account: "funding", amountMinor: returned, pending: false });
    if (shortfall > 0) legs.push({ account: "fees", amountMinor: shortfall, pending: false });
    return { returned, legs };
  }

  /**
   * `returned` (also after `settled`): a reversing credit of the amount that came back; what did not come back
   * (a bank's charge) moves from payees in transit to fees.
   */
  async function reverseForPayout(
    tx: Tx,
    payout: PayoutForFunding,
    returnedAmountMinor = payout.amountMinor,
  ): Promise<FundingStatus> {
    const { fundingAccountId } = payout;
    if (payout.fundingStatus !== "posted" || fundingAccountId === null) return payout.fundingStatus;
    const { returned, legs } = reversal(payout, returnedAmountMinor);
    const reversed = await postOfPayout(
      tx,
      { ...payout, fundingAccountId },
      "reverse",
      { postedDelta: returned, pendingDelta: 0 },
      legs,
    );
    if (reversed.kind === "recorded") await scheduleRelease(tx, reversed.row, `reverse:${reversed.transfer.id}`);
    return "reversed";
  }

  /**
   * `returned` for several payouts at once (a statement's return lines): reverseForPayout's rule for each, posted
   * per funding account in one statement (ledger.shared.ts postTransfers: the funding row updated once, each
   * transfer with the balances after it in the order given), the release of waiting payouts scheduled once per
   * account after its last credit. Answers each payout's funding status after it, in the order given.
   */
  async function reverseForPayouts(
    tx: Tx,
    items: ReadonlyArray<{
      readonly payout: PayoutForFunding;
      readonly returnedAmountMinor: number;
      /** The bank's booking day of the return, when a statement says it (ledger_transfers.booked_on). */
      readonly bookedOn?: string | null;
    }>,
  ): Promise<FundingStatus[]> {
    const statuses: FundingStatus[] = items.map((item) => item.payout.fundingStatus);
    const ofAccount = new Map<string, number[]>();
    items.forEach(({ payout }, index) => {
      if (payout.fundingStatus !== "posted" || payout.fundingAccountId === null) return;
      const list = ofAccount.get(payout.fundingAccountId) ?? [];
      list.push(index);
      ofAccount.set(payout.fundingAccountId, list);
    });
    for (const [fundingAccountId, indexes] of ofAccount) {
      const first = items[indexes[0] as number]?.payout;
      if (first === undefined) continue;
      const tenant = tenantOfRow(first);
      const accountIds = await ledgerIdsOf(tx, tenant, fundingAccountId, first.currency);
      const transfers = indexes.map((index) => {
        const { payout, returnedAmountMinor, bookedOn } = items[index] as (typeof items)[number];
        const { returned, legs } = reversal(payout, returnedAmountMinor);
        return {
          step: "reverse" as const,
          cause: payoutCause(payout),
          idempotencyKey: key(payout.id, "reverse"),
          bookedOn: bookedOn ?? null,
          postedDelta: returned,
          pendingDelta: 0,
          legs,
        };
      });
      const posted = await postTransfers(tx, ids, tenant, {
        statementName: BULK_POSTING_STATEMENT_NAME,
        balanceUpdate: balanceTotalsUpdateSql({ tenant, id: fundingAccountId, now: clock.now() }),
        mapRow: fundingRowFromRaw,
        accountIds,
        transfers,
      });
      if (posted.kind === "refused") throw new Error("funding account vanished");
      for (const index of indexes) statuses[index] = "reversed";
      const last = [...posted.results].reverse().find((r) => r.kind === "recorded");
      if (posted.row !== null && last?.kind === "recorded") await scheduleRelease(tx, posted.row, `reverse:${last.transfer.id}`);
    }
    return statuses;
  }

  return {
    ensureFundingAccount,
    openRailFundingAccount,
    creditFundingAccount,
    postStatementMovement,
    postStatementMovements,
    holdForPayout,
    reserveWaiting,
    postForPayout,
    voidForPayout,
    reverseForPayout,
    reverseForPayouts,
    scheduleRelease,
  };
}

export type FundingPostings = ReturnType<typeof createFundingPostings>;
