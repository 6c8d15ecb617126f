// The reconciliation module's error codes. Thrown by their definition (`new AppError(RECONCILIATION_ERRORS.CODE)`).
import { defineErrorCodes } from "../../platform/errors.js";

export const RECONCILIATION_ERRORS = defineErrorCodes({
  STATEMENT_UNREADABLE: {
    status: 422,
    message: "The file is not a bank statement the service reads (camt.053, camt.052 or BAI2).",
    description:
      "The body must be the statement file's bytes: ISO 20022 camt.053 (`.001.02` or `.001.08`), camt.052, or BAI2, as UTF-8 text. The message says what could not be read (a missing balance, an amount that is not a number, a record out of place). Nothing of the file was kept.",
  },
  STATEMENT_ACCOUNT_UNKNOWN: {
    status: 422,
    message: "The statement names an account that is none of this Business's funding accounts.",
    description:
      "A statement belongs to the funding account of a bank rail by its account: the SEPA rail's debtor IBAN, or the ACH rail's `originator.account_number` (BAI2). Configure the rail (or its account number) in this environment, or upload the statement of the right account. Nothing of the file was kept.",
  },
  STATEMENT_LINE_NOT_OPEN: {
    status: 409,
    message: "The line is not in a state that allows this act.",
    description:
      "Match and ignore take a line that is `needs_review` or `unmatched`; unmatch takes a `matched` line; a pending entry (not booked yet) cannot be matched. Read the line to see its status.",
  },
  STATEMENT_MATCH_REFUSED: {
    status: 422,
    message: "The match does not fit the line.",
    description:
      "The payouts (or the top-up) named must be of this Business and environment, in the line's currency, not matched to another line already, and add up to the line's amount within the tolerance (RECONCILIATION_TOLERANCE_MINOR; a difference posts to fees). A debit line takes payouts whose money left (approved and sent, disbursed, settled); a credit line takes a top-up, or one returned payout. The message says which fact disagrees.",
  },
  OPENING_BALANCE_ALREADY_SET: {
    status: 409,
    message: "The funding account's starting balance was already set from a statement.",
    description:
      "A funding account's opening balance is accepted once, from one statement. A later difference is a mismatch to explain (`POST /v1/bank-statements/{id}/resolve-mismatch`) or lines to match.",
  },
  BALANCE_NOT_MISMATCHED: {
    status: 409,
    message: "The statement's balance check shows no mismatch to resolve.",
    description: "Only a statement whose `balance_check.status` is `mismatch` can be resolved.",
  },
});
