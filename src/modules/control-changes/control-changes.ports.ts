// What the control-changes module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import type {
  ControlChangeApplier,
  ControlWeakening,
  RecordActorAudit,
  ReportWeakenedControl,
} from "../../platform/auth/audit.js";
import type { Db, Tx } from "../../platform/db/client.js";

export interface ControlChangesPorts {
  /** From the payouts module: whether maker-checker is on in the environment (its approval policy). */
  readonly makerCheckerOn: (db: Db, tenant: Tenant) => Promise<boolean>;
  /**
   * From each control's owner: applies an approved change (payout limits, the approval policy, a funding account,
   * the destination policy). Keyed by the proposal's `kind`; a kind without an applier is refused at
   * proposal.
   */
  readonly appliers: Readonly<Record<string, ControlChangeApplier>>;
  /** From the people module: the approved weakening is recorded (`control_weakened`) and e-mailed to every admin. */
  readonly reportWeakenedControl: ReportWeakenedControl;
  /** From the people module: a proposal is refused to keys, recorded and e-mailed to every admin. */
  readonly notifyControlChangeProposed: (
    tx: Tx,
    actor: Actor,
    proposal: ControlWeakening & { readonly changeId: string },
  ) => Promise<void>;
  /** From the people module: approvals and discards. */
  readonly recordAudit: RecordActorAudit;
}
