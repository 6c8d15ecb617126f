// Bank statements and their lines as the Reconciliation page uses them, read off the OpenAPI paths (whatever the
// generated schemas are named): a statement, a line, a line's status, a line's match.
import "../../../api/reconciliation-contract";
import type { paths } from "../../../api/generated/openapi";

export type BankStatement = paths["/v1/bank-statements/{id}"]["get"]["responses"][200]["content"]["application/json"];
export type StatementLine = paths["/v1/statement-lines/{id}"]["get"]["responses"][200]["content"]["application/json"];
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
