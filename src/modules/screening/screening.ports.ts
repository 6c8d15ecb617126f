// What the screening module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Db, Tx } from "../../platform/db/client.js";

export interface ScreeningPorts {
  /**
   * The destination policy's `screening` (`on`/`off`) for the tenant. The destinations module owns the policy
   * (`findDestinationPolicy` in destinations.shared.ts, issue 29 contract); until it is merged the composition
   * passes a stand-in answering on.
   */
  readonly screeningEnabled: (db: Db, tenant: Tenant) => Promise<boolean>;
  /** From the payouts module: a cleared hit dispatches the Beneficiary's approved payouts held by it. */
  readonly releaseScreeningHold: (tx: Tx, tenant: Tenant, beneficiaryId: string) => Promise<number>;
  /** From the people module: decisions on hits are audited in their transaction. */
  readonly recordAudit: RecordActorAudit;
}
