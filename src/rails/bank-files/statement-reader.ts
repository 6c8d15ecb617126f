// The statement readers' front door for the composition (issue 28): whether an inbound file is a bank statement
// (camt.053, camt.052, BAI2) rather than a status report, a booking notification or a NACHA file, and the reader.
import { readBankStatements } from "./statements.js";

/** camt.053 (BkToCstmrStmt), camt.052 (BkToCstmrAcctRpt), or BAI2 (a file header record `01,`). */
export function isBankStatement(text: string): boolean {
  const head = text.slice(0, 4096);
  return /BkToCstmrStmt|BkToCstmrAcctRpt/.test(head) || /^\uFEFF?\s*01,/.test(head);
}

export const readStatementsOrRefuse = readBankStatements;
