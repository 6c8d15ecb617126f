// What the payout-limits module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { GuardWeakening, RecordActorAudit } from "../../platform/auth/audit.js";

export interface PayoutLimitsPorts {
  /** From the people module: every change of the limits. */
  readonly recordAudit: RecordActorAudit;
  /** From the control-changes module: a raise or removal waits for a second admin when maker-checker is on. */
  readonly guardWeakening: GuardWeakening;
}
