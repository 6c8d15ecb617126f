// The payout lifecycle as a pure function: given a payout's state and a trigger, the move to make (and the
// event it records), an idempotent no-op, or a refusal. The service applies a move as one conditional
// update (`WHERE id = $1 AND status = $from`) in the transaction that records the event.
//
// The spec's table, plus the moves it leaves open (docs/decisions.md, "Payout lifecycle"):
//   pending_approval --approve--> approved                 (no event; disbursement is dispatched)
//   pending_approval --reject--> rejected                  payout.rejected
//   pending_approval --cancel (Business, production)--> canceled           payout.canceled
//   approved --cancel (Business, production, before the rail was called)--> canceled   payout.canceled
//   approved --submitted--> approved                       payout.disbursement_submitted (records rail_ref)
//   approved --acknowledged--> approved                    payout.acknowledged
//   approved|disbursed --estimated_arrival--> same         payout.estimated_arrival_at (only when it changes)
//   approved --disbursed--> disbursed                      payout.disbursed
//   approved --failed (rail refusal or failure)--> failed  payout.failed
//   approved --canceled (rail, production)--> canceled     payout.canceled
//   approved|disbursed --compliance_hold--> compliance_hold (no event type exists; visible on reads)
//   compliance_hold --cleared--> the state held before     (no event)
//   compliance_hold (held from approved) --failed|canceled--> failed|canceled
//   compliance_hold (held from disbursed) --returned--> returned
//   disbursed --settle (return window closed)--> settled   payout.settled (production)
//   disbursed|settled --returned--> returned               payout.returned (production; late when settled)
//   approved|disbursed|settled --delivered--> same state   payout.delivered (production; a different
//        delivered_at is a correction and records a new event; the same one is a no-op)
// In sandbox (spec, What the service does 5) delivered, settled, canceled and returned never happen.
import type { Environment } from "../../platform/auth/api-key-format.js";

export const PAYOUT_STATUSES = [
  "pending_approval",
  "approved",
  "rejected",
  "disbursed",
  "settled",
  "returned",
  "failed",
  "canceled",
  "compliance_hold",
] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** The payout field `funding_status`: what the ledger holds for it (docs/decisions.md, "Ledger"). */
export const PAYOUT_FUNDING_STATUSES = ["not_tracked", "reserved", "awaiting_funds", "posted", "released", "reversed"] as const;
export type PayoutFundingStatus = (typeof PAYOUT_FUNDING_STATUSES)[number];

export type PayoutEventType =
  | "payout.disbursement_submitted"
  | "payout.acknowledged"
  | "payout.estimated_arrival_at"
  | "payout.disbursed"
  | "payout.delivered"
  | "payout.settled"
  | "payout.canceled"
  | "payout.rejected"
  | "payout.failed"
  | "payout.returned"
  | "payout.awaiting_funds"
  | "payout.funds_reserved"
  | "payout.reconciled";

/** What the state machine needs to know about a payout. */
export interface PayoutStateView {
  readonly status: PayoutStatus;
  readonly heldFromStatus: PayoutStatus | null;
  readonly environment: Environment;
  /** The rail has been (or is being) called: the Business can no longer cancel. */
  readonly disbursementStarted: boolean;
  readonly deliveredAt: Date | null;
  readonly estimatedArrivalAt: Date | null;
}

export type PayoutTrigger =
  | { readonly type: "approve" }
  | { readonly type: "reject" }
  | { readonly type: "cancel_by_business" }
  | { readonly type: "submitted" }
  | { readonly type: "acknowledged" }
  | { readonly type: "estimated_arrival"; readonly estimatedArrivalAt: Date }
  | { readonly type: "disbursed"; readonly disbursedAt?: Date }
  | { readonly type: "delivered"; readonly deliveredAt: Date }
  | { readonly type: "failed"; readonly reason: string }
  | { readonly type: "canceled"; readonly reason: string }
  | { readonly type: "compliance_hold"; readonly reason: string }
  | { readonly type: "compliance_hold_cleared" }
  | { readonly type: "settle" }
  /** `returnedAmountMinor`: what came back when a statement says so (less than the amount: the rest is a bank fee). */
  | { readonly type: "returned"; readonly reason: string; readonly returnedAmountMinor?: number };

export type PayoutTriggerType = PayoutTrigger["type"];

export type TransitionResult =
  | {
      readonly kind: "move";
      readonly from: PayoutStatus;
      readonly to: PayoutStatus;
      /** The value of held_from_status after the move. */
      readonly heldFromStatus: PayoutStatus | null;
      readonly event: PayoutEventType | null;
    }
  /** Already done (a repeat): nothing to change, nothing to record. */
  | { readonly kind: "noop"; readonly reason: string }
  /** Not allowed from this state. */
  | { readonly kind: "refused"; readonly reason: string };

/** Triggers that exist only in production (spec, What the service does 5). */
const PRODUCTION_ONLY: ReadonlySet<PayoutTriggerType> = new Set([
  "delivered",
  "settle",
  "returned",
  "canceled",
  "cancel_by_business",
]);

function move(
  from: PayoutStatus,
  to: PayoutStatus,
  event: PayoutEventType | null,
  heldFromStatus: PayoutStatus | null = null,
): TransitionResult {
  return { kind: "move", from, to, heldFromStatus, event };
}

const refused = (state: PayoutStateView, trigger: PayoutTriggerType): TransitionResult => ({
  kind: "refused",
  reason: `${trigger} is not allowed from ${state.status}`,
});

export function transition(state: PayoutStateView, trigger: PayoutTrigger): TransitionResult {
  const { status } = state;
  if (state.environment === "sandbox" && PRODUCTION_ONLY.has(trigger.type)) {
    return { kind: "refused", reason: `${trigger.type} does not happen in sandbox` };
  }
  switch (trigger.type) {
    case "approve":
      if (status === "pending_approval") return move(status, "approved", null);
      return refused(state, trigger.type);
    case "reject":
      if (status === "pending_approval") return move(status, "rejected", "payout.rejected");
      return refused(state, trigger.type);
    case "cancel_by_business":
      if (status === "canceled") return { kind: "noop", reason: "already canceled" };
      if (status === "pending_approval") return move(status, "canceled", "payout.canceled");
      if (status === "approved" && !state.disbursementStarted) return move(status, "canceled", "payout.canceled");
      if (status === "approved") return { kind: "refused", reason: "the payout was already sent to the rail" };
      return refused(state, trigger.type);
    case "submitted":
    case "acknowledged":
      if (status === "approved") return move(status, status, eventOf(trigger.type));
      if (status === "compliance_hold" && state.heldFromStatus === "approved")
        return move(status, status, eventOf(trigger.type), state.heldFromStatus);
      return { kind: "noop", reason: `${trigger.type} no longer applies in ${status}` };
    case "estimated_arrival": {
      if (status !== "approved" && status !== "disbursed" && status !== "compliance_hold") return refused(state, trigger.type);
      if (state.estimatedArrivalAt?.getTime() === trigger.estimatedArrivalAt.getTime())
        return { kind: "noop", reason: "same estimated arrival" };
      return move(status, status, "payout.estimated_arrival_at", state.heldFromStatus);
    }
    case "disbursed":
      if (status === "approved") return move(status, "disbursed", "payout.disbursed");
      if (status === "disbursed" || status === "settled") return { kind: "noop", reason: "already disbursed" };
      return refused(state, trigger.type);
    case "delivered": {
      if (status !== "approved" && status !== "disbursed" && status !== "settled") return refused(state, trigger.type);
      if (state.deliveredAt?.getTime() === trigger.deliveredAt.getTime()) return { kind: "noop", reason: "same delivered_at" };
      // The status is unchanged: a delivered payout stays delivered; a different delivered_at is a correction.
      return move(status, status, "payout.delivered");
    }
    case "failed":
      if (status === "failed") return { kind: "noop", reason: "already failed" };
      if (status === "approved") return move(status, "failed", "payout.failed");
      if (status === "compliance_hold" && state.heldFromStatus === "approved") return move(status, "failed", "payout.failed");
      return refused(state, trigger.type);
    case "canceled":
      if (status === "canceled") return { kind: "noop", reason: "already canceled" };
      if (status === "approved") return move(status, "canceled", "payout.canceled");
      if (status === "compliance_hold" && state.heldFromStatus === "approved") return move(status, "canceled", "payout.canceled");
      return refused(state, trigger.type);
    case "compliance_hold":
      if (status === "compliance_hold") return { kind: "noop", reason: "already on hold" };
      if (status === "approved" || status === "disbursed") return move(status, "compliance_hold", null, status);
      return refused(state, trigger.type);
    case "compliance_hold_cleared":
      if (status === "compliance_hold" && state.heldFromStatus !== null) return move(status, state.heldFromStatus, null);
      return { kind: "noop", reason: `not on hold (${status})` };
    case "settle":
      if (status === "settled") return { kind: "noop", reason: "already settled" };
      if (status === "disbursed") return move(status, "settled", "payout.settled");
      return refused(state, trigger.type);
    case "returned":
      if (status === "returned") return { kind: "noop", reason: "already returned" };
      if (status === "disbursed" || status === "settled") return move(status, "returned", "payout.returned");
      if (status === "compliance_hold" && state.heldFromStatus === "disbursed")
        return move(status, "returned", "payout.returned");
      return refused(state, trigger.type);
  }
}

function eventOf(type: "submitted" | "acknowledged"): PayoutEventType {
  return type === "submitted" ? "payout.disbursement_submitted" : "payout.acknowledged";
}

/**
 * `amount` of event data: minor units as a decimal string in major units by the currency's exponent
 * (1234 EUR -> "12.34", 500 JPY -> "500", 1234 BHD -> "1.234"). Exact: integer arithmetic on strings.
 */
export function formatMajorAmount(amountMinor: number, exponent: number): string {
  const digits = String(Math.abs(amountMinor));
  const sign = amountMinor < 0 ? "-" : "";
  if (exponent === 0) return `${sign}${digits}`;
  const padded = digits.padStart(exponent + 1, "0");
  return `${sign}${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}
