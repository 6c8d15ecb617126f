// Bank statements and their lines, a page at a time, newest first; the previous page stays shown while the next
// is read.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import type { BankStatement, LineFilters } from "./types";

export function useBankStatements(cursor: string | null, pageSize = 20) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.reconciliation.statements(environment, pageSize, cursor),
    queryFn: () =>
      call(api.GET("/v1/bank-statements", { params: { query: { limit: pageSize, ...(cursor === null ? {} : { cursor }) } } })),
    placeholderData: keepPreviousData,
  });
}

export function useStatementLines(filters: LineFilters, cursor: string | null, pageSize = 25) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.reconciliation.lines(environment, { ...filters, pageSize }, cursor),
    queryFn: () =>
      call(
        api.GET("/v1/statement-lines", {
          params: {
            query: {
              limit: pageSize,
              ...(filters.status === null ? {} : { status: filters.status }),
              ...(filters.fundingAccountId === null ? {} : { funding_account_id: filters.fundingAccountId }),
              ...(filters.statementId === null ? {} : { statement_id: filters.statementId }),
              ...(cursor === null ? {} : { cursor }),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** How many of the newest statements the mismatch list looks through (the API has no filter by balance check). */
export const MISMATCH_SCAN = 500;

/**
 * The statements whose balance check differs, among the newest MISMATCH_SCAN: read page after page (100 each);
 * `more` says older statements were not looked at.
 */
export function useMismatchedStatements() {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.reconciliation.mismatches(environment),
    queryFn: async () => {
      const found: BankStatement[] = [];
      let cursor: string | null = null;
      let read = 0;
      do {
        const page: { bank_statements: BankStatement[]; next_cursor: string | null } = await call(
          api.GET("/v1/bank-statements", { params: { query: { limit: 100, ...(cursor === null ? {} : { cursor }) } } }),
        );
        read += page.bank_statements.length;
        found.push(...page.bank_statements.filter((s) => s.balance_check.status === "mismatch"));
        cursor = page.next_cursor;
      } while (cursor !== null && read < MISMATCH_SCAN);
      return { statements: found, more: cursor !== null };
    },
  });
}
