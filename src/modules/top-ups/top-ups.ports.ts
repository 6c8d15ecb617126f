// What the top-ups module needs from other modules, named and required (test/startup/module-ports.test.ts).
// The two funding ports are the funding module's offers (docs/decisions.md "Ledger": the issue 27 contract),
// stated here by the shape this module uses.
import type { Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Db, Tx } from "../../platform/db/client.js";

export interface CreditFundingAccountInput {
  readonly fundingAccountId: string;
  /** > 0 */
  readonly amountMinor: number;
  readonly cause: { readonly type: "top_up"; readonly id: string };
  /** `top_up:<id>:credit`: a second call with it posts nothing and answers the first transfer. */
  readonly idempotencyKey: string;
}

/** Posts outside_world -> funding in the caller's transaction (locks the funding row; schedules waiting payouts' release). */
export type CreditFundingAccount = (tx: Tx, tenant: Tenant, input: CreditFundingAccountInput) => Promise<{ readonly id: string }>;

/** The tenant's funding account, or null. */
export type FindFundingAccount = (
  db: Db,
  tenant: Tenant,
  id: string,
) => Promise<{ readonly id: string; readonly currency: string } | null>;

export interface TopUpsPorts {
  /** From the people module: recording and deciding a top-up are audited in their transaction. */
  readonly recordAudit: RecordActorAudit;
  /** From the funding module: the approval's credit. */
  readonly creditFundingAccount: CreditFundingAccount;
  /** From the funding module: the account a top-up is recorded for (its currency). */
  readonly findFundingAccount: FindFundingAccount;
}
