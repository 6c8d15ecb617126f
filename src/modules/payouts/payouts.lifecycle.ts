// Applies one state-machine move to a stored payout: the conditional update and its event, in the caller's
// transaction. Used by decisions, cancellation, the approval policy and the rail-outcome jobs alike, so every
// transition records the same event `data`.
import type { Tenant } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Tx } from "../../platform/db/client.js";
import type { EventRecorder, NewEvent } from "../../platform/events/outbox.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import { currencyExponent } from "../../platform/reference/iso-codes.js";
import type { FundingPostings, FundingSource } from "../funding/index.js";
import { enqueueDisbursement, PAYOUT_FUNDS_EXPIRY_JOB } from "./payouts.jobs.js";
import {
  type PayoutPatch,
  type PayoutRow,
  setPayoutFunding,
  updatePayoutIfUnchanged,
  updatePayoutsIfUnchanged,
} from "./payouts.repo.js";
import {
  formatMajorAmount,
  type PayoutEventType,
  type PayoutFundingStatus,
  type PayoutStatus,
  type PayoutTrigger,
  type TransitionResult,
  transition,
} from "./payouts.state.js";

export type ApplyOutcome =
  | { readonly kind: "moved"; readonly payout: PayoutRow; readonly from: PayoutStatus; readonly event: PayoutEventType | null }
  | { readonly kind: "noop" | "refused"; readonly payout: PayoutRow; readonly reason: string }
  /** The conditional update matched nothing: another transaction moved the payout first. */
  | { readonly kind: "lost"; readonly payout: PayoutRow };

/**
 * An approval the currency's daily limit refuses (payout-limits), thrown by `apply` after the move's other writes:
 * the caller's transaction (or the savepoint it opened around `apply`) must roll back, and the payout stays
 * pending. Thrown rather than returned so that no caller can commit an approval the limit refused.
 */
export class DailyLimitExceeded extends Error {
  constructor(readonly refusal: DailyLimitRefusal) {
    super("the daily limit refuses this approval");
    this.name = "DailyLimitExceeded";
  }
}

export function tenantOfPayout(row: PayoutRow): Tenant {
  return { businessId: row.businessId, environment: row.environment };
}

export function stateViewOf(row: PayoutRow) {
  return {
    status: row.status,
    heldFromStatus: row.heldFromStatus,
    environment: row.environment,
    disbursementStarted: row.disbursementStartedAt !== null,
    deliveredAt: row.deliveredAt,
    estimatedArrivalAt: row.estimatedArrivalAt,
  };
}

/** The amount of event data: a decimal string in major units by the currency's ISO 4217 exponent. */
export function majorAmount(row: Pick<PayoutRow, "amountMinor" | "currency">): string {
  return formatMajorAmount(row.amountMinor, currencyExponent(row.currency) ?? 2);
}

/**
 * Event `data` (spec: Payout event data, plus ours, docs/decisions.md): the shown fields on every payout
 * event, and per type: `delivered_at` (delivered), `estimated_arrival_at`, `failure_reason` (failed,
 * returned), `reason` and `canceled_by` (`rail` or `business`; canceled), `reason` (rejected), `disbursed_at`
 * (disbursed), `settled_at` (settled). `rail_ref` is null before the rail took the payout.
 */
export function eventData(row: PayoutRow, type: PayoutEventType, extra: Readonly<Record<string, unknown>> = {}) {
  const data: Record<string, unknown> = {
    payout_id: row.id,
    external_ref: row.externalRef,
    beneficiary_id: row.beneficiaryId,
    amount: majorAmount(row),
    currency: row.currency,
    rail_ref: row.railRef,
    status: row.status,
  };
  if (type === "payout.delivered") data.delivered_at = row.deliveredAt?.toISOString() ?? null;
  if (type === "payout.estimated_arrival_at") data.estimated_arrival_at = row.estimatedArrivalAt?.toISOString() ?? null;
  if (type === "payout.failed" || type === "payout.returned") data.failure_reason = row.failureReason;
  if (type === "payout.disbursed") data.disbursed_at = row.disbursedAt?.toISOString() ?? null;
  if (type === "payout.settled") data.settled_at = row.settledAt?.toISOString() ?? null;
  // Canceled by the rail unless the caller (the Business's cancellation) says otherwise through `extra`.
  if (type === "payout.canceled") Object.assign(data, { reason: row.failureReason, canceled_by: "rail" });
  return { ...data, ...extra };
}

/** Column changes a trigger brings beside the status. */
function patchOf(trigger: PayoutTrigger, now: Date): PayoutPatch {
  switch (trigger.type) {
    case "disbursed":
      // A bank's booking date when the rail gives one (camt.054 BookgDt), not the time the answer was read.
      return { disbursedAt: trigger.disbursedAt ?? now };
    case "delivered":
      return { deliveredAt: trigger.deliveredAt };
    case "estimated_arrival":
      return { estimatedArrivalAt: trigger.estimatedArrivalAt };
    case "settle":
      return { settledAt: now };
    case "returned":
      return { returnedAt: now, failureReason: trigger.reason };
    case "failed":
    case "canceled":
      return { failureReason: trigger.reason };
    default:
      return {};
  }
}

/** The posting rules of the funding module a payout's moves run (a port of the payouts module). */
export type PayoutFundingRules = Pick<
  FundingPostings,
  "holdForPayout" | "postForPayout" | "voidForPayout" | "reverseForPayout" | "reverseForPayouts"
>;

/**
 * The payout limits' rules (the payout-limits module, a port of payouts): the per-payout maxima at creation, the
 * day's usage taken at approval (one conditional update, in the approval's transaction) and given back on void.
 */
export interface PayoutLimitRules {
  perPayoutMaxima(tx: Tx, tenant: Tenant, currencies: readonly string[]): Promise<ReadonlyMap<string, number>>;
  /**
   * Null when taken; else the refusal, and the caller's transaction must roll back (the payout's consumption row is
   * written before the day's shared row is tried, so that the shared row is the last write).
   */
  reserveDaily(
    tx: Tx,
    payout: Pick<PayoutRow, "id" | "businessId" | "environment" | "currency" | "amountMinor">,
  ): Promise<DailyLimitRefusal | null>;
  releaseDaily(tx: Tx, payoutId: string): Promise<void>;
}

export interface DailyLimitRefusal {
  readonly dailyMaxMinor: number;
  readonly usedMinor: number;
  readonly day: string;
}

export interface LifecycleDeps {
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly jobStore: Pick<JobStore, "enqueue" | "withdraw">;
  /** The posting rules (the funding module), run in the transaction of the move. */
  readonly funding: PayoutFundingRules;
  /** Where an approved payout's money comes from (its bank rail, the simulator, sandbox); null: not tracked. */
  readonly fundingSourceOf: (tx: Tx, payout: PayoutRow) => Promise<FundingSource | null>;
  /** The daily limits (payout-limits), run in the transaction of the move. */
  readonly limits: Pick<PayoutLimitRules, "reserveDaily" | "releaseDaily">;
}

const ENDED_WITHOUT_MONEY: ReadonlySet<PayoutStatus> = new Set(["failed", "canceled", "rejected"]);

/**
 * The funding status a move (other than an approval, which decides it on the funding row) will leave, foreseen
 * from the funding module's posting rules (funding.postings.ts: post a reserved hold, void a hold or leave the
 * queue, reverse a posted one) so that it is written with the move itself and the posting stays the transaction's
 * last statement on the funding account's hot row (issue 27). applyFunding writes the rules' real answer where it
 * differs.
 */
export function plannedFundingStatus(payout: PayoutRow, from: PayoutStatus, to: PayoutStatus): PayoutFundingStatus {
  const current = payout.fundingStatus;
  if (payout.fundingAccountId === null || from === to) return current;
  if (to === "disbursed" && from !== "compliance_hold") return current === "reserved" ? "posted" : current;
  if (ENDED_WITHOUT_MONEY.has(to)) return current === "reserved" || current === "awaiting_funds" ? "released" : current;
  if (to === "returned") return current === "posted" ? "reversed" : current;
  return current;
}

type MoveResult = Extract<TransitionResult, { kind: "move" }>;

export function createLifecycle(deps: LifecycleDeps) {
  const { clock, events, jobStore, funding } = deps;

  /**
   * The posting rule of a move (issue 27), after the payout's conditional update, in the same transaction (the
   * payout row is locked; the funding row is taken last): approval holds or makes it wait, `disbursed` posts the
   * hold, `failed`/`canceled`/`rejected` void it (or take it off the queue), `returned` reverses it.
   */
  async function applyFunding(
    tx: Tx,
    payout: PayoutRow,
    fundingStatusBefore: PayoutFundingStatus,
    from: PayoutStatus,
    trigger: PayoutTrigger,
  ): Promise<PayoutRow> {
    const to = payout.status;
    if (trigger.type === "approve") {
      // An approved payout's disbursement is dispatched now, unless it waits for funds (the release that reserves
      // it dispatches it then).
      // The day's usage (payout-limits: one conditional upsert of the day's row, which every approval of the
      // Business's currency that day updates) and the funding account's row are the two rows many transactions
      // share: both are written last, usage then funding (the one lock order), so each stays locked for about
      // its commit only. A refused approval throws, and the caller's rollback undoes the move and its writes.
      const reserveDaily = async () => {
        const refusal = await deps.limits.reserveDaily(tx, payout);
        if (refusal !== null) throw new DailyLimitExceeded(refusal);
      };
      const source = await deps.fundingSourceOf(tx, payout);
      if (source === null) {
        await enqueueDisbursement(jobStore, tx, payout.id);
        await reserveDaily();
        return payout;
      }
      // The payout's funding fields and its disbursement are written before the hold, as if it will be reserved
      // (the usual outcome), so that the hold is the last write before the caller's commit: the funding row stays
      // locked for that statement and the commit only. A payout that must wait takes its disbursement job back
      // (never committed, so no worker saw it) and is written again below.
      let reservedRow = null as PayoutRow | null;
      let disbursementJob = null as string | null;
      const { fundingAccount, status } = await funding.holdForPayout(tx, payout, source, {
        beforeLock: async (fundingAccountId) => {
          reservedRow = await setPayoutFunding(tx, payout.id, {
            fundingStatus: "reserved",
            fundingAccountId,
            awaitingFundsSince: null,
          });
          disbursementJob = await enqueueDisbursement(jobStore, tx, payout.id);
          await reserveDaily();
        },
      });
      const now = clock.now();
      const waiting = status === "awaiting_funds";
      if (waiting && disbursementJob !== null) await jobStore.withdraw(tx, disbursementJob);
      const updated =
        !waiting && reservedRow !== null
          ? reservedRow
          : await setPayoutFunding(tx, payout.id, {
              fundingStatus: status,
              fundingAccountId: fundingAccount.id,
              awaitingFundsSince: waiting ? now : null,
            });
      if (waiting) {
        await events.record(tx, {
          tenant: tenantOfPayout(updated),
          type: "payout.awaiting_funds",
          subjectId: updated.id,
          data: eventData(updated, "payout.awaiting_funds", {
            funding_account_id: fundingAccount.id,
            funding_status: "awaiting_funds",
          }),
        });
        // Sandbox payouts succeed (spec): a waiting one never expires there.
        if (updated.environment === "production") {
          await jobStore.enqueue(
            tx,
            PAYOUT_FUNDS_EXPIRY_JOB,
            { payoutId: updated.id },
            {
              runAt: new Date(now.getTime() + fundingAccount.awaitingFundsExpiryHours * 3_600_000),
              dedupeKey: `payout-funds-expiry:${updated.id}`,
            },
          );
        }
      }
      return updated;
    }
    // `payout` already carries the funding status plannedFundingStatus foresaw (written with the move), so the
    // posting below is the transaction's last statement on the funding row. The funding module's answer decides:
    // where it differs from the plan, the payout is written again (not expected; a plan is not a fact). The rules
    // read the funding status the payout had before the move.
    const asBefore = { ...payout, fundingStatus: fundingStatusBefore };
    let next: PayoutFundingStatus = fundingStatusBefore;
    if (to === "disbursed" && from !== "disbursed" && from !== "compliance_hold")
      next = await funding.postForPayout(tx, asBefore);
    else if (ENDED_WITHOUT_MONEY.has(to) && from !== to) next = await funding.voidForPayout(tx, asBefore);
    else if (to === "returned" && from !== "returned")
      next = await funding.reverseForPayout(
        tx,
        asBefore,
        trigger.type === "returned" && trigger.returnedAmountMinor !== undefined
          ? trigger.returnedAmountMinor
          : payout.amountMinor,
      );
    if (next === payout.fundingStatus) return payout;
    return setPayoutFunding(tx, payout.id, { fundingStatus: next, awaitingFundsSince: null });
  }

  /** The conditional update's patch of a move: the trigger's columns, the funding status it will leave, the status. */
  function movePatch(
    payout: PayoutRow,
    trigger: PayoutTrigger,
    result: MoveResult,
    now: Date,
    extraPatch: PayoutPatch = {},
  ): PayoutPatch {
    const plannedFunding = plannedFundingStatus(payout, result.from, result.to);
    return {
      ...patchOf(trigger, now),
      ...extraPatch,
      ...(plannedFunding === payout.fundingStatus ? {} : { fundingStatus: plannedFunding, awaitingFundsSince: null }),
      status: result.to,
      heldFromStatus: result.heldFromStatus,
      updatedAt: now,
    };
  }

  /** The move's event, of the payout as the move left it. */
  function moveEvent(
    updated: PayoutRow,
    type: PayoutEventType,
    trigger: PayoutTrigger,
    extraData?: Readonly<Record<string, unknown>>,
  ): NewEvent {
    return {
      tenant: tenantOfPayout(updated),
      type,
      subjectId: updated.id,
      data: eventData(updated, type, extraData),
      // Spec: payout.delivered occurs at the arrival of the money, possibly before payout.disbursed.
      ...(trigger.type === "delivered" ? { occurredAt: trigger.deliveredAt } : {}),
      // payout.disbursed occurs when the money left: the bank's booking date when the rail reports one.
      ...(trigger.type === "disbursed" && trigger.disbursedAt !== undefined ? { occurredAt: trigger.disbursedAt } : {}),
    };
  }

  /**
   * The money of a move, after its update and event: a payout voided after its approval (canceled, failed) gives its
   * amount back to the day it was counted in (a returned one does not: the money left that day; rejected never
   * follows an approval), then the posting rule on the funding account, last (its row is locked until the commit).
   */
  async function settleMove(
    tx: Tx,
    before: PayoutRow,
    updated: PayoutRow,
    result: MoveResult,
    trigger: PayoutTrigger,
  ): Promise<ApplyOutcome> {
    if (ENDED_WITHOUT_MONEY.has(result.to) && result.from !== result.to) await deps.limits.releaseDaily(tx, updated.id);
    const funded = await applyFunding(tx, updated, before.fundingStatus, result.from, trigger);
    return { kind: "moved", payout: funded, from: result.from, event: result.event };
  }

  /**
   * Moves the payout if the state machine allows it: one conditional update (on every value the decision
   * read, see updatePayoutIfUnchanged) and its event, in `tx`. Callers pass a row they locked in `tx`. `extraPatch` adds columns (rail_ref on submission...); `extraData` adds event fields.
   */
  async function apply(
    tx: Tx,
    payout: PayoutRow,
    trigger: PayoutTrigger,
    options: {
      extraPatch?: PayoutPatch;
      extraData?: Readonly<Record<string, unknown>>;
      /**
       * The caller's own writes of the move (a Decision, its audit record), run after the payout's update and event
       * and before the posting on the funding account, so that the funding row is locked as late as possible.
       */
      beforeMoney?: (tx: Tx, moved: PayoutRow) => Promise<void>;
    } = {},
  ): Promise<ApplyOutcome> {
    const result: TransitionResult = transition(stateViewOf(payout), trigger);
    if (result.kind !== "move") return { kind: result.kind, payout, reason: result.reason };
    const updated = await updatePayoutIfUnchanged(
      tx,
      payout,
      movePatch(payout, trigger, result, clock.now(), options.extraPatch),
    );
    if (updated === null) return { kind: "lost", payout };
    // The move's event first, the posting on the funding account last (its row is locked until the commit).
    if (result.event !== null) await events.record(tx, moveEvent(updated, result.event, trigger, options.extraData));
    await options.beforeMoney?.(tx, updated);
    return settleMove(tx, payout, updated, result, trigger);
  }

  /**
   * `apply` for many payouts at once (a statement's return lines): the same moves, events and posting rules, in
   * fewer statements: the conditional updates in one statement (updatePayoutsIfUnchanged, the same condition per
   * row), the events in one, the reversals of returned payouts in one per funding account (the funding row locked
   * last, as in `apply`); other postings one by one. Approvals are not taken (their hold decides on the funding
   * row, one by one: use `apply`). Each payout at most once; callers pass rows they locked in `tx`. Answers each
   * item's outcome in the order given.
   */
  async function applyMany(
    tx: Tx,
    items: ReadonlyArray<{
      readonly payout: PayoutRow;
      readonly trigger: PayoutTrigger;
      /** The bank's booking day of the move's money, when a statement says it (recorded on its posting). */
      readonly bookedOn?: string | null;
    }>,
  ): Promise<ApplyOutcome[]> {
    if (new Set(items.map((item) => item.payout.id)).size < items.length) throw new Error("applyMany: a payout given twice");
    if (items.some((item) => item.trigger.type === "approve")) throw new Error("applyMany: approvals go through apply");
    const now = clock.now();
    const outcomes: ApplyOutcome[] = [];
    const moving: Array<{ index: number; read: PayoutRow; patch: PayoutPatch; result: MoveResult }> = [];
    items.forEach(({ payout, trigger }, index) => {
      const result = transition(stateViewOf(payout), trigger);
      if (result.kind !== "move") outcomes[index] = { kind: result.kind, payout, reason: result.reason };
      else moving.push({ index, read: payout, result, patch: movePatch(payout, trigger, result, now) });
    });
    const updated = await updatePayoutsIfUnchanged(tx, moving);
    const moved: Array<{ index: number; before: PayoutRow; row: PayoutRow; result: MoveResult; trigger: PayoutTrigger }> = [];
    for (const move of moving) {
      const row = updated.get(move.read.id);
      const item = items[move.index];
      if (row === undefined || item === undefined) outcomes[move.index] = { kind: "lost", payout: move.read };
      else moved.push({ index: move.index, before: move.read, row, result: move.result, trigger: item.trigger });
    }
    await events.recordMany(
      tx,
      moved.flatMap((m) => (m.result.event === null ? [] : [moveEvent(m.row, m.result.event, m.trigger)])),
    );
    // The postings: the reversals together (returned is never followed by another move here), the rest one by one.
    const isReversal = (m: (typeof moved)[number]) => m.result.to === "returned" && m.result.from !== "returned";
    for (const m of moved) if (!isReversal(m)) outcomes[m.index] = await settleMove(tx, m.before, m.row, m.result, m.trigger);
    const reversals = moved.filter(isReversal);
    if (reversals.length > 0) {
      const statuses = await funding.reverseForPayouts(
        tx,
        reversals.map((m) => ({
          bookedOn: items[m.index]?.bookedOn ?? null,
          payout: { ...m.row, fundingStatus: m.before.fundingStatus },
          returnedAmountMinor:
            m.trigger.type === "returned" && m.trigger.returnedAmountMinor !== undefined
              ? m.trigger.returnedAmountMinor
              : m.row.amountMinor,
        })),
      );
      for (const [k, m] of reversals.entries()) {
        const next = statuses[k] ?? m.before.fundingStatus;
        const payout =
          next === m.row.fundingStatus
            ? m.row
            : await setPayoutFunding(tx, m.row.id, { fundingStatus: next, awaitingFundsSince: null });
        outcomes[m.index] = { kind: "moved", payout, from: m.result.from, event: m.result.event };
      }
    }
    return outcomes;
  }

  return { apply, applyMany };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;
