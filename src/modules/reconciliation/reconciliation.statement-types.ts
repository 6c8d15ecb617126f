// The statement a reader gives (docs/contracts, issue 28): the shape of src/rails/bank-files/statements.ts, which
// reads camt.053, camt.052 and BAI2. Stated here by the shape this module uses.
export type StatementFormat = "camt.053" | "camt.052" | "bai2";

export interface BankStatement {
  readonly format: StatementFormat;
  readonly messageVersion: string;
  readonly messageId: string;
  readonly statementId: string;
  readonly sequenceNumber: number | null;
  readonly account: { readonly iban: string | null; readonly number: string | null; readonly currency: string };
  readonly createdAt: string;
  readonly periodFrom: string | null;
  readonly periodTo: string | null;
  readonly openingBookedMinor: number | null;
  readonly closingBookedMinor: number | null;
  readonly closingDate: string | null;
  readonly lines: readonly StatementLine[];
}

export interface StatementLine {
  readonly bankReference: string | null;
  readonly status: "booked" | "pending";
  readonly bookingDate: string | null;
  readonly valueDate: string | null;
  readonly direction: "debit" | "credit";
  readonly amountMinor: number;
  readonly currency: string;
  readonly reversal: boolean;
  readonly bankTransactionCode: string | null;
  readonly paymentInformationId: string | null;
  readonly batchCount: number | null;
  readonly batchTotalMinor: number | null;
  readonly achTrace: string | null;
  readonly remittance: string | null;
  readonly details: readonly StatementLineDetail[];
}

export interface StatementLineDetail {
  readonly endToEndId: string | null;
  readonly instructionId: string | null;
  readonly paymentInformationId: string | null;
  readonly amountMinor: number | null;
  readonly returnInfo: {
    readonly originalEndToEndId: string | null;
    readonly reasonCode: string | null;
    readonly originalAmountMinor: number | null;
    readonly feeMinor: number | null;
  } | null;
  readonly remittance: string | null;
}
