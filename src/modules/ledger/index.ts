// The ledger: accounts, immutable double-entry transfers and their entries, balances at a past time. It has no
// routes of its own (the funding module serves a funding account's transfers and balances); other modules use
// its recording and reads through ledger.shared.ts in their own transactions.
import { defineModule } from "../../platform/modules/module-definition.js";

export type { TransferRow, TransferWithEntries } from "./ledger.shared.js";

/** The ledger module: no routes, no jobs; its tables are written only through ledger.shared.ts. */
export function defineLedger() {
  return defineModule({ name: "ledger", offers: {} });
}
