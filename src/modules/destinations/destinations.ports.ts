// What the destinations module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { Tenant } from "../../platform/auth/actor.js";
import type { GuardWeakening, RecordActorAudit } from "../../platform/auth/audit.js";
import type { BeneficiaryService } from "../beneficiaries/index.js";
import type { DestinationServiceDeps } from "./destinations.service.js";

export interface DestinationsPorts {
  /** From the beneficiaries module: a Beneficiary as presented, and the one path that changes its declared destination. */
  readonly beneficiaries: Pick<BeneficiaryService, "present" | "changeDeclaredDestination">;
  /** From the enrollment module: enrolls the Beneficiary after a destination registration committed. */
  readonly enrollAfterCommit: (tenant: Tenant, beneficiaryId: string) => Promise<void>;
  /** From the bank-rails module: what the bank rail's file could not carry of an account, before it is written. */
  readonly checkBankRailAccount: DestinationServiceDeps["checkBankRailAccount"];
  /** From the payouts module: a destination a pending payout heads to cannot be deleted. */
  readonly pendingPayoutHeadsTo: DestinationServiceDeps["pendingPayoutHeadsTo"];
  /** From the people module: every account added or removed is recorded with its actor. */
  readonly recordAudit: RecordActorAudit;
  /**
   * From the control-changes module: a relaxed destination policy waits for a second admin when maker-checker is
   * on; otherwise it is refused to keys, audited and e-mailed to every admin, and applied.
   */
  readonly guardWeakening: GuardWeakening;
  /**
   * From the screening module: the policy's `screening` went from off to on in this transaction; the Business's
   * Beneficiaries, never screened while it was off, are screened by a durable job enqueued here.
   */
  readonly screenAfterEnabled: DestinationServiceDeps["screenAfterEnabled"];
}
