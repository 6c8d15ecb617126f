// The statement a reader gives (src/rails/bank-files/statements.ts: camt.053, camt.052, BAI2).
export type {
  BankStatement,
  StatementFormat,
  StatementLine,
  StatementLineDetail,
} from "../../rails/bank-files/statements.js";
