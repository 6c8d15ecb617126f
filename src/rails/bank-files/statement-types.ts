// The shapes of a bank statement (and the reader's one error) as the readers give it (camt.053 end-of-day, camt.052 intraday, BAI2), the
// contract between the readers (statements.ts) and the reconciliation module. Pure data: amounts in integer
// minor units of the line's currency (ISO 4217 exponent), dates as `YYYY-MM-DD`, nothing read from the
// network or the clock.

/** A statement file that cannot be read; the message says in words what is wrong and where, safe to show a user. */
export class StatementParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StatementParseError";
  }
}

export type StatementFormat = "camt.053" | "camt.052" | "bai2";

export type StatementMessageVersion = "camt.053.001.02" | "camt.053.001.08" | "camt.052.001.02" | "camt.052.001.08" | "bai2";

/** A statement (or an intraday report) of one account: its balances and its entries. */
export interface BankStatement {
  format: StatementFormat;
  messageVersion: StatementMessageVersion;
  /** GrpHdr/MsgId; BAI2: sender + file id + creation date. */
  messageId: string;
  /** Stmt/Id or Rpt/Id; BAI2: file id + group + account. */
  statementId: string;
  /** ElctrncSeqNb (else LglSeqNb); BAI2: the file id number when numeric. */
  sequenceNumber: number | null;
  /** camt: Acct/Id/IBAN or Acct/Id/Othr/Id, Acct/Ccy; BAI2: the account number, the account's or group's currency. */
  account: { iban: string | null; number: string | null; currency: string };
  /** ISO date-time (CreDtTm; BAI2: the group's as-of date and time, else the file's creation). */
  createdAt: string;
  /** YYYY-MM-DD (FrToDt / BAI2 as-of date). */
  periodFrom: string | null;
  periodTo: string | null;
  /** Signed (CRDT positive, DBIT negative); camt: OPBD, else PRCD; BAI2: 010. */
  openingBookedMinor: number | null;
  /** camt: CLBD; BAI2: 015. */
  closingBookedMinor: number | null;
  /** YYYY-MM-DD of the closing balance. */
  closingDate: string | null;
  lines: StatementLine[];
}

/** One entry (camt Ntry; BAI2 16 record). */
export interface StatementLine {
  /** AcctSvcrRef; BAI2: the 16 record's bank reference. */
  bankReference: string | null;
  /** camt Sts BOOK/PDNG (v08: Sts/Cd); BAI2: always booked. */
  status: "booked" | "pending";
  /** YYYY-MM-DD. */
  bookingDate: string | null;
  valueDate: string | null;
  direction: "debit" | "credit";
  /** Positive, in minor units of `currency`. */
  amountMinor: number;
  currency: string;
  /** RvslInd: the entry undoes an earlier one (its direction is already the reversing one). */
  reversal: boolean;
  /** camt Domn/Cd + Fmly/Cd + SubFmlyCd joined by "/", or Prtry/Cd; BAI2: the type code. */
  bankTransactionCode: string | null;
  /** NtryDtls/Btch/PmtInfId. */
  paymentInformationId: string | null;
  /** NtryDtls/Btch/NbOfTxs. */
  batchCount: number | null;
  /** NtryDtls/Btch/TtlAmt. */
  batchTotalMinor: number | null;
  /** BAI2: the customer reference; camt: Refs/Prtry/Ref (ACH trace) of the entry's only transaction. */
  achTrace: string | null;
  /** Joined RmtInf/Ustrd (and AddtlNtryInf); BAI2: the 16 record's text with its 88 continuations. */
  remittance: string | null;
  /** One per TxDtls (may be empty). */
  details: StatementLineDetail[];
}

export interface StatementLineDetail {
  /** Refs/EndToEndId ("NOTPROVIDED" read as null); null on a return, whose reference is returnInfo's. */
  endToEndId: string | null;
  instructionId: string | null;
  paymentInformationId: string | null;
  amountMinor: number | null;
  /** RtrInf present: the original EndToEndId (Refs/EndToEndId), reason, instructed amount, charges (Chrgs, else InstdAmt minus the amount). */
  returnInfo: {
    originalEndToEndId: string | null;
    reasonCode: string | null;
    originalAmountMinor: number | null;
    feeMinor: number | null;
  } | null;
  remittance: string | null;
}
