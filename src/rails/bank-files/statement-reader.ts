// The statement readers' front door for the composition (issue 28): whether an inbound file is a bank statement
// (camt.053, camt.052, BAI2), and the reader. STAND-IN until the readers of src/rails/bank-files/statements.ts
// (branch h/statements) are merged: it recognises statements and refuses to read them, in words.

/** camt.053 (BkToCstmrStmt), camt.052 (BkToCstmrAcctRpt), or BAI2 (a file header record `01,`). */
export function isBankStatement(text: string): boolean {
  const head = text.slice(0, 4096);
  return /BkToCstmrStmt|BkToCstmrAcctRpt/.test(head) || /^\uFEFF?\s*01,/.test(head);
}

export function readStatementsOrRefuse(_content: string): never {
  throw new Error("statement readers are not installed in this build");
}
