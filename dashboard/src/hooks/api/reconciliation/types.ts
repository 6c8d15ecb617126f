// Bank statements and their lines as the Reconciliation page uses them, from the generated OpenAPI types.
import type { Schemas } from "../../../api/client";

export type BankStatement = Schemas["BankStatement"];
export type StatementLine = Schemas["StatementLine"];
export type LineStatus = StatementLine["status"];
export type BalanceCheck = BankStatement["balance_check"];
export type Candidate = StatementLine["candidates"][number];

export interface LineFilters {
  readonly status: LineStatus | null;
  readonly fundingAccountId: string | null;
  readonly statementId: string | null;
}

/** What a line is matched to by hand: payouts (one, or several for a batch booked as one line) or a top-up. */
export type MatchTarget = { readonly payoutIds: readonly string[] } | { readonly topUpId: string };
