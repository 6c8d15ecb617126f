// Applies one state-machine move to a stored payout: the conditional update and its event, in the caller's
// transaction. Used by decisions, cancellation, the approval policy and the rail-outcome jobs alike, so every
// transition records the same event `data`.
import type { Tenant } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Tx } from "../../platform/db/client.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import { currencyExponent } from "../../platform/reference/iso-codes.js";
import type { FundingPostings, FundingSource } from "../funding/index.js";
import { PAYOUT_FUNDS_EXPIRY_JOB } from "./payouts.jobs.js";
import { type PayoutPatch, type PayoutRow, setPayoutFunding, updatePayoutIfUnchanged } from "./payouts.repo.js";
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
export type PayoutFundingRules = Pick<FundingPostings, "holdForPayout" | "postForPayout" | "voidForPayout" | "reverseForPayout">;

export interface LifecycleDeps {
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly jobStore: Pick<JobStore, "enqueue">;
  /** The posting rules (the funding module), run in the transaction of the move. */
  readonly funding: PayoutFundingRules;
  /** Where an approved payout's money comes from (its bank rail, the simulator, sandbox); null: not tracked. */
  readonly fundingSourceOf: (tx: Tx, payout: PayoutRow) => Promise<FundingSource | null>;
}

const ENDED_WITHOUT_MONEY: ReadonlySet<PayoutStatus> = new Set(["failed", "canceled", "rejected"]);

export function createLifecycle(deps: LifecycleDeps) {
  const { clock, events, jobStore, funding } = deps;

  /**
   * The posting rule of a move (issue 27), after the payout's conditional update, in the same transaction (the
   * payout row is locked; the funding row is taken last): approval holds or makes it wait, `disbursed` posts the
   * hold, `failed`/`canceled`/`rejected` void it (or take it off the queue), `returned` reverses it.
   */
  async function applyFunding(tx: Tx, payout: PayoutRow, from: PayoutStatus, trigger: PayoutTrigger): Promise<PayoutRow> {
    const to = payout.status;
    if (trigger.type === "approve") {
      const source = await deps.fundingSourceOf(tx, payout);
      if (source === null) return payout;
      const { fundingAccount, status } = await funding.holdForPayout(tx, payout, source);
      const now = clock.now();
      const waiting = status === "awaiting_funds";
      const updated = await setPayoutFunding(tx, payout.id, {
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
    let next: PayoutFundingStatus = payout.fundingStatus;
    if (to === "disbursed" && from !== "disbursed" && from !== "compliance_hold") next = await funding.postForPayout(tx, payout);
    else if (ENDED_WITHOUT_MONEY.has(to) && from !== to) next = await funding.voidForPayout(tx, payout);
    else if (to === "returned" && from !== "returned")
      next = await funding.reverseForPayout(
        tx,
        payout,
        trigger.type === "returned" && trigger.returnedAmountMinor !== undefined
          ? trigger.returnedAmountMinor
          : payout.amountMinor,
      );
    if (next === payout.fundingStatus) return payout;
    return setPayoutFunding(tx, payout.id, { fundingStatus: next, awaitingFundsSince: null });
  }

  /**
   * Moves the payout if the state machine allows it: one conditional update (on every value the decision
   * read, see updatePayoutIfUnchanged) and its event, in `tx`. Callers pass a row they locked in `tx`. `extraPatch` adds columns (rail_ref on submission...); `extraData` adds event fields.
   */
  async function apply(
    tx: Tx,
    payout: PayoutRow,
    trigger: PayoutTrigger,
    options: { extraPatch?: PayoutPatch; extraData?: Readonly<Record<string, unknown>> } = {},
  ): Promise<ApplyOutcome> {
    const result: TransitionResult = transition(stateViewOf(payout), trigger);
    if (result.kind !== "move") return { kind: result.kind, payout, reason: result.reason };
    const now = clock.now();
    const updated = await updatePayoutIfUnchanged(tx, payout, {
      ...patchOf(trigger, now),
      ...options.extraPatch,
      status: result.to,
      heldFromStatus: result.heldFromStatus,
      updatedAt: now,
    });
    if (updated === null) return { kind: "lost", payout };
    const funded = await applyFunding(tx, updated, result.from, trigger);
    if (result.event !== null) {
      await events.record(tx, {
        tenant: tenantOfPayout(updated),
        type: result.event,
        subjectId: updated.id,
        data: eventData(updated, result.event, options.extraData),
        // Spec: payout.delivered occurs at the arrival of the money, possibly before payout.disbursed.
        ...(trigger.type === "delivered" ? { occurredAt: trigger.deliveredAt } : {}),
        // payout.disbursed occurs when the money left: the bank's booking date when the rail reports one.
        ...(trigger.type === "disbursed" && trigger.disbursedAt !== undefined ? { occurredAt: trigger.disbursedAt } : {}),
      });
    }
    return { kind: "moved", payout: funded, from: result.from, event: result.event };
  }

  return { apply };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;
