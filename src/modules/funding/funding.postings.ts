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
  findTransferByKey,
  findTransferWithEntriesByKey,
  openLedgerAccounts,
  recordTransfer,
  type TransferCauseType,
  type TransferLeg,
  type TransferStep,
  type TransferWithEntries,
} from "../ledger/ledger.shared.js";
import { FUNDING_RELEASE_JOB } from "./funding.jobs.js";
import { insertFundingAccountIfAbsent, lockFundingAccountRow, moveBalances, updateFundingSettings } from "./funding.repo.js";
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
    return row;
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

  /** Writes one transfer whose balance change was just applied to `after` (the row, locked by that update). */
  async function record(
    tx: Tx,
    after: FundingAccountRow,
    step: TransferStep,
    cause: { type: TransferCauseType; id: string },
    idempotencyKey: string,
    legs: readonly TransferLeg[],
  ): Promise<TransferWithEntries> {
    return recordTransfer(tx, ids, tenantOfRow(after), {
      fundingAccountId: after.id,
      currency: after.currency,
      step,
      cause,
      idempotencyKey,
      legs,
      postedAfterMinor: after.postedMinor,
      pendingAfterMinor: after.pendingMinor,
      createdAt: after.lastTransferAt ?? clock.now(),
    });
  }

  const creditFundingAccount: CreditFundingAccount = async (tx, tenant, input) => {
    if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0)
      throw new Error("a credit must be a positive integer");
    const existing = await findTransferWithEntriesByKey(tx, tenant, input.idempotencyKey);
    if (existing !== null) return existing;
    const account = await lockFundingAccountRow(tx, tenant, input.fundingAccountId);
    if (account === null) throw new Error("no such funding account");
    const after = await moveBalances(tx, account.id, { postedDelta: input.amountMinor, pendingDelta: 0, now: clock.now() });
    if (after === null) throw new Error("funding account vanished under its lock");
    const transfer = await record(tx, after, "credit", input.cause, input.idempotencyKey, [
      { account: "outside_world", amountMinor: -input.amountMinor, pending: false },
      { account: "funding", amountMinor: input.amountMinor, pending: false },
    ]);
    await scheduleRelease(tx, after, `credit:${transfer.id}`);
    return transfer;
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
    const existing = await findTransferWithEntriesByKey(tx, tenant, input.idempotencyKey);
    if (existing !== null) return existing;
    const account = await lockFundingAccountRow(tx, tenant, input.fundingAccountId);
    if (account === null) throw new Error("no such funding account");
    const before = availableOf(account);
    const after = await moveBalances(tx, account.id, { postedDelta: input.amountMinor, pendingDelta: 0, now: clock.now() });
    if (after === null) throw new Error("funding account vanished under its lock");
    const transfer = await record(tx, after, input.step, input.cause, input.idempotencyKey, [
      { account: input.counterpart, amountMinor: -input.amountMinor, pending: false },
      { account: "funding", amountMinor: input.amountMinor, pending: false },
    ]);
    if (input.amountMinor > 0) await scheduleRelease(tx, after, `statement:${transfer.id}`);
    else await reportLowBalance(tx, before, after);
    return transfer;
  };

  const key = (payoutId: string, step: TransferStep) => `payout:${payoutId}:${step}`;
  const payoutCause = (payout: PayoutForFunding) => ({ type: "payout" as const, id: payout.id });

  /**
   * Approval: a hold (pending debit of funding, pending credit of payees in transit) when available covers it or
   * the account only tracks; otherwise (enforce) the payout waits: no hold, counted on the account.
   */
  async function holdForPayout(
    tx: Tx,
    payout: PayoutForFunding,
    source: FundingSource,
  ): Promise<{ fundingAccount: FundingAccountRow; status: "reserved" | "awaiting_funds" }> {
    const tenant = tenantOfRow(payout);
    const account = await ensureFundingAccount(tx, tenant, payout.currency, source);
    if ((await findTransferByKey(tx, tenant, key(payout.id, "hold"))) !== null)
      return { fundingAccount: account, status: "reserved" };
    const now = clock.now();
    const held = await moveBalances(tx, account.id, {
      postedDelta: 0,
      pendingDelta: payout.amountMinor,
      now,
      coverAmount: payout.amountMinor,
    });
    if (held === null) {
      const waiting = await moveBalances(tx, account.id, {
        postedDelta: 0,
        pendingDelta: 0,
        awaitingCountDelta: 1,
        awaitingMinorDelta: payout.amountMinor,
        now,
      });
      if (waiting === null) throw new Error("funding account vanished");
      return { fundingAccount: waiting, status: "awaiting_funds" };
    }
    await record(tx, held, "hold", payoutCause(payout), key(payout.id, "hold"), [
      { account: "funding", amountMinor: -payout.amountMinor, pending: true },
      { account: "payees_in_transit", amountMinor: payout.amountMinor, pending: true },
    ]);
    await reportLowBalance(tx, availableOf(held) + payout.amountMinor, held);
    return { fundingAccount: held, status: "reserved" };
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
    const held = await moveBalances(tx, account.id, {
      postedDelta: 0,
      pendingDelta: payout.amountMinor,
      awaitingCountDelta: -1,
      awaitingMinorDelta: -payout.amountMinor,
      now: clock.now(),
      coverAmount: payout.amountMinor,
    });
    if (held === null) return null;
    await record(tx, held, "hold", { type: "payout", id: payout.id }, key(payout.id, "hold"), [
      { account: "funding", amountMinor: -payout.amountMinor, pending: true },
      { account: "payees_in_transit", amountMinor: payout.amountMinor, pending: true },
    ]);
    await reportLowBalance(tx, availableOf(held) + payout.amountMinor, held);
    return held;
  }

  /** `disbursed`: the hold becomes a posted debit (funding) and a posted credit (payees in transit). */
  async function postForPayout(tx: Tx, payout: PayoutForFunding): Promise<FundingStatus> {
    if (payout.fundingStatus !== "reserved" || payout.fundingAccountId === null) return payout.fundingStatus;
    const tenant = tenantOfRow(payout);
    if ((await findTransferByKey(tx, tenant, key(payout.id, "post"))) !== null) return "posted";
    const after = await moveBalances(tx, payout.fundingAccountId, {
      postedDelta: -payout.amountMinor,
      pendingDelta: -payout.amountMinor,
      now: clock.now(),
    });
    if (after === null) throw new Error("funding account vanished");
    await record(tx, after, "post", payoutCause(payout), key(payout.id, "post"), [
      { account: "funding", amountMinor: payout.amountMinor, pending: true },
      { account: "funding", amountMinor: -payout.amountMinor, pending: false },
      { account: "payees_in_transit", amountMinor: -payout.amountMinor, pending: true },
      { account: "payees_in_transit", amountMinor: payout.amountMinor, pending: false },
    ]);
    return "posted";
  }

  /**
   * `failed`, `canceled`, `rejected`: the hold is voided (available again, waiting payouts get a chance); a
   * payout that was waiting leaves the queue.
   */
  async function voidForPayout(tx: Tx, payout: PayoutForFunding): Promise<FundingStatus> {
    if (payout.fundingAccountId === null) return payout.fundingStatus;
    if (payout.fundingStatus === "awaiting_funds") {
      const after = await moveBalances(tx, payout.fundingAccountId, {
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
    const tenant = tenantOfRow(payout);
    if ((await findTransferByKey(tx, tenant, key(payout.id, "void"))) !== null) return "released";
    const after = await moveBalances(tx, payout.fundingAccountId, {
      postedDelta: 0,
      pendingDelta: -payout.amountMinor,
      now: clock.now(),
    });
    if (after === null) throw new Error("funding account vanished");
    const transfer = await record(tx, after, "void", payoutCause(payout), key(payout.id, "void"), [
      { account: "funding", amountMinor: payout.amountMinor, pending: true },
      { account: "payees_in_transit", amountMinor: -payout.amountMinor, pending: true },
    ]);
    await scheduleRelease(tx, after, `void:${transfer.id}`);
    return "released";
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
    if (payout.fundingStatus !== "posted" || payout.fundingAccountId === null) return payout.fundingStatus;
    const tenant = tenantOfRow(payout);
    if ((await findTransferByKey(tx, tenant, key(payout.id, "reverse"))) !== null) return "reversed";
    const returned = Math.min(Math.max(returnedAmountMinor, 0), payout.amountMinor);
    const shortfall = payout.amountMinor - returned;
    const after = await moveBalances(tx, payout.fundingAccountId, { postedDelta: returned, pendingDelta: 0, now: clock.now() });
    if (after === null) throw new Error("funding account vanished");
    const legs: TransferLeg[] = [{ account: "payees_in_transit", amountMinor: -payout.amountMinor, pending: false }];
    if (returned > 0) legs.push({ account: "funding", amountMinor: returned, pending: false });
    if (shortfall > 0) legs.push({ account: "fees", amountMinor: shortfall, pending: false });
    const transfer = await record(tx, after, "reverse", payoutCause(payout), key(payout.id, "reverse"), legs);
    await scheduleRelease(tx, after, `reverse:${transfer.id}`);
    return "reversed";
  }

  return {
    ensureFundingAccount,
    openRailFundingAccount,
    creditFundingAccount,
    postStatementMovement,
    holdForPayout,
    reserveWaiting,
    postForPayout,
    voidForPayout,
    reverseForPayout,
    scheduleRelease,
  };
}

export type FundingPostings = ReturnType<typeof createFundingPostings>;
