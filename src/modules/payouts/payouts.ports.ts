// What the payouts module needs from other modules, named and required: the composition root (src/composition.ts)
// passes each one; a test passes an explicit fake. None may be optional (test/startup/module-ports.test.ts).
import type { GuardWeakening, RecordActorAudit } from "../../platform/auth/audit.js";
import type { PayoutWriterDeps, RailRouteCheck } from "./payouts.creation.js";
import type { BankRailQueue } from "./payouts.disbursement.js";
import type { PayoutFundingRules, PayoutLimitRules } from "./payouts.lifecycle.js";

export interface PayoutsPorts {
  /** From the funding module: the ledger postings of each move, in the move's transaction. */
  readonly funding: PayoutFundingRules;
  /** From the bank-rails module: refuses a production payout no configured bank rail can carry, at creation. */
  readonly checkRailRoutes: RailRouteCheck;
  /** From the bank-rails module: whether a production payout waits for a bank file, and its queueing there. */
  readonly bankRails: BankRailQueue;
  /** From the destinations module: the destination policy's `name_check` mode (`findDestinationPolicy`, src/composition.ts). */
  readonly nameCheckMode: PayoutWriterDeps["nameCheckMode"];
  /** From the people module: creations, cancellations, Decisions and policy changes, in their transaction. */
  readonly recordAudit: RecordActorAudit;
  /** From the payout-limits module: per-payout maxima at creation, the day's usage at approval and on void. */
  readonly limits: PayoutLimitRules;
  /** From the control-changes module: a weakened approval policy waits for a second admin when maker-checker is on. */
  readonly guardWeakening: GuardWeakening;
}
