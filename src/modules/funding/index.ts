// Funding accounts: where a Business's payouts take their money from, their balances (kept on the row, the fold of
// their ledger transfers), their settings (enforcement), the posting rules the payouts lifecycle calls, the
// release of payouts waiting for funds, and the credits other modules post (top-ups, statement lines).
import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { fundingRouteRoles } from "./funding.access.js";
import { FUNDING_ERRORS } from "./funding.errors.js";
import { FUNDING_RELEASE_JOB } from "./funding.jobs.js";
import type { FundingPorts } from "./funding.ports.js";
import { createFundingPostings } from "./funding.postings.js";
import { createReleaseHandler } from "./funding.release.js";
import { registerFundingRoutes } from "./funding.routes.js";
import { FundingAccountSchema, TransferSchema } from "./funding.schemas.js";
import { createFundingService, FUNDING_ACCOUNT_CONTROL } from "./funding.service.js";
import { findFundingAccount, findRailFundingAccount } from "./funding.shared.js";

export { FUNDING_ERRORS } from "./funding.errors.js";
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
export { presentFundingAccount, presentTransfer } from "./funding.service.js";
export type { FindFundingAccount, FindRailFundingAccount, FundingAccountRow } from "./funding.shared.js";

/** Funding accounts and the posting rules on the ledger. */
export function defineFunding(platform: PlatformServices, ports: FundingPorts) {
  const { db, clock, ids, events, jobStore } = platform;
  const postings = createFundingPostings({ clock, ids, events, jobStore });
  const service = createFundingService({
    db,
    clock,
    ids,
    postings,
    recordAudit: ports.recordAudit,
    guardWeakening: ports.guardWeakening,
  });
  return defineModule({
    name: "funding",
    routeRoles: fundingRouteRoles,
    errorCodes: FUNDING_ERRORS,
    registerRoutes: (app) => registerFundingRoutes(app, service),
    sharedSchemas: [FundingAccountSchema, TransferSchema],
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
      /** For reconciliation: the funding account of a bank rail in a currency (a statement's account). */
      findRailFundingAccount,
      /** For reconciliation: statement movements (unknown debits to suspense, fees, opening balances). */
      postStatementMovement: postings.postStatementMovement,
      /** For reconciliation: a statement's movements of one funding account posted in one statement. */
      postStatementMovements: postings.postStatementMovements,
      /** For bank-rails: the funding account of a configured rail's debtor account. */
      openRailFundingAccount: postings.openRailFundingAccount,
      /** For control-changes: applies an approved weakening of a funding account's settings. */
      controlChange: { kind: FUNDING_ACCOUNT_CONTROL, apply: service.applyApprovedChange },
    },
  });
}
