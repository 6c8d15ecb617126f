// What the funding module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { GuardWeakening, RecordActorAudit } from "../../platform/auth/audit.js";
import type { Tx } from "../../platform/db/client.js";

/** A payout waiting for funds, as the release needs it. */
export interface WaitingPayout {
  readonly id: string;
  readonly businessId: string;
  readonly environment: "sandbox" | "production";
  readonly amountMinor: number;
  readonly currency: string;
}

/**
 * From the payouts module (their table): the payouts waiting for funds on a funding account, locked in approval
 * order `FOR UPDATE SKIP LOCKED` (the caller holds the funding row: a payout locked elsewhere is skipped, never
 * waited for), and the record that one was reserved (its funding status, `payout.funds_reserved`, and the
 * dispatch of its disbursement), in the caller's transaction.
 */
export interface WaitingPayoutQueue {
  lockWaiting(tx: Tx, fundingAccountId: string, limit: number): Promise<readonly WaitingPayout[]>;
  markReserved(tx: Tx, payoutId: string): Promise<void>;
}

export interface FundingPorts {
  readonly waitingPayouts: WaitingPayoutQueue;
  /** From the people module: settings changes, sandbox credits. */
  readonly recordAudit: RecordActorAudit;
  /**
   * From the control-changes module: enforcement turned off or the overdraft raised waits for a second admin when
   * maker-checker is on; otherwise it is refused to keys and e-mailed to admins, and applied.
   */
  readonly guardWeakening: GuardWeakening;
}
