// Funding accounts: where a Business's payouts take their money from, their balances (kept on the row, the fold of
// their ledger transfers), their settings (enforcement), the posting rules the payouts lifecycle calls, the
// release of payouts waiting for funds, and the credits other modules post (top-ups, statement lines).
import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { FUNDING_RELEASE_JOB } from "./funding.jobs.js";
import type { FundingPorts } from "./funding.ports.js";
import { createFundingPostings } from "./funding.postings.js";
import { createReleaseHandler } from "./funding.release.js";
import { findFundingAccount } from "./funding.shared.js";

export { FUNDING_RELEASE_JOB } from "./funding.jobs.js";
export type { FundingPorts, WaitingPayout, WaitingPayoutQueue } from "./funding.ports.js";
export type {
  CreditFundingAccount,
  CreditInput,
  FundingPostings,
  FundingSource,
  FundingStatus,
  PayoutForFunding,
  TransferRow,
} from "./funding.postings.js";
export type { FindFundingAccount, FundingAccountRow } from "./funding.shared.js";

/** Funding accounts and the posting rules on the ledger. */
export function defineFunding(platform: PlatformServices, ports: FundingPorts) {
  const { db, clock, ids, events, jobStore } = platform;
  const postings = createFundingPostings({ clock, ids, events, jobStore });
  return defineModule({
    name: "funding",
    jobs: {
      definitions: [FUNDING_RELEASE_JOB],
      handlers: createReleaseHandler({ db, clock, jobStore, postings, waitingPayouts: ports.waitingPayouts }),
    },
    offers: {
      /** For top-ups (and later statement lines): a credit posted in the caller's transaction. */
      creditFundingAccount: postings.creditFundingAccount,
      /** For top-ups: the tenant's funding account. */
      findFundingAccount,
      /** For the payouts lifecycle: the posting rules, in the transaction of the payout's move. */
      payoutPostings: postings,
      /** For bank-rails: the funding account of a configured rail's debtor account. */
      ensureFundingAccount: postings.ensureFundingAccount,
    },
  });
}
