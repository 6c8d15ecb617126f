// Deciding payouts: approve or reject, and what became of each payout of a batch.
import type { Payout, PayoutStatus } from "../payouts/types";

export type Outcome = "approve" | "reject";

/** A decided payout's new status, or the refusal's message and code. */
export type DecisionResult =
  | { readonly payoutId: string; readonly ok: true; readonly status: PayoutStatus }
  | { readonly payoutId: string; readonly ok: false; readonly refusal: string };

export interface DecisionInput {
  readonly outcome: Outcome;
  readonly payouts: readonly Payout[];
  /** The note; empty sends none. */
  readonly note: string;
  /** Called after each payout, with the results so far (the dialog's "2 of 5 done…"). */
  readonly onProgress?: (results: readonly DecisionResult[]) => void;
}
