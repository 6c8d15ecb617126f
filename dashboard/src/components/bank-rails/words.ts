// The bank files' statuses, alerts and the banks' codes in words (never the API's enum values alone).
import type { BankFile, BankInboundFile } from "../../hooks/api/bank-rails/types";

export const RAIL_NAMES: Readonly<Record<string, string>> = { sepa: "SEPA", ach: "ACH" };

export const OUTBOUND_STATUS: Readonly<Record<BankFile["status"], { label: string; color: string }>> = {
  built: { label: "Waiting to be sent", color: "gray.7" },
  uploaded: { label: "Sent, awaiting the bank's answer", color: "blue.8" },
  accepted: { label: "Accepted by the bank", color: "teal.9" },
  partially_accepted: { label: "Partly accepted", color: "yellow.5" },
  rejected: { label: "Rejected by the bank", color: "red.8" },
  refused: { label: "Not written", color: "red.8" },
};

const ALERTS: Readonly<Record<string, string>> = {
  no_status_report: "No status report from the bank within the time set on the rail.",
  rejected: "The bank rejected the file or some of its payouts.",
  unmatched_entries:
    "A file from the bank named entries of this file but their facts differ; nothing was moved (see the received files).",
  return_code_not_for_credit: "An ACH return used a code meant for debits; applied because every other fact agreed.",
  notification_of_change: "The bank sent a notification of change for an account in this file.",
  file_id_modifiers_exhausted: "Too many ACH files today (36): the payouts wait for the next cut-off.",
};
export const alertWords = (alert: string) => ALERTS[alert] ?? alert;

export const INBOUND_KIND: Readonly<Record<BankInboundFile["kind"], string>> = {
  "pain.002": "Status report (pain.002)",
  "camt.054": "Booking notification (camt.054)",
  nacha_returns: "ACH return file",
  unknown: "Unreadable file",
};

export const INBOUND_STATUS: Readonly<Record<BankInboundFile["status"], { label: string; color: string }>> = {
  applied: { label: "Applied", color: "teal.9" },
  partially_applied: { label: "Partly applied: some items moved nothing", color: "yellow.5" },
  refused: { label: "Refused: nothing applied", color: "red.8" },
  duplicate: { label: "Duplicate: nothing applied again", color: "gray.7" },
};

const OUTCOMES: Readonly<Record<string, string>> = {
  acknowledged: "acknowledged by the bank",
  failed: "failed",
  disbursed: "paid out",
  returned: "returned by the receiving bank",
  notification_of_change: "notification of change recorded on its bank account",
  none: "no change",
};
export const outcomeWords = (outcome: string) => OUTCOMES[outcome] ?? outcome;

const BANK_CODES: Readonly<Record<string, string>> = {
  ACCP: "accepted",
  ACSC: "settled",
  ACSP: "accepted, in process",
  ACTC: "technically accepted",
  ACWC: "accepted with change",
  PDNG: "pending",
  PART: "partly accepted",
  RJCT: "rejected",
  BOOK: "booked",
  R01: "insufficient funds",
  R02: "account closed",
  R03: "no account, or the account could not be found",
  R04: "invalid account number",
  R05: "unauthorised debit to a consumer account",
  R06: "returned at the originating bank's request",
  R07: "authorisation revoked",
  R08: "payment stopped",
  R10: "not authorised by the customer",
  R16: "account frozen",
  R20: "account cannot take this entry",
  R23: "refused by the receiver",
  R29: "not authorised by the corporate customer",
  C01: "account number corrected",
  C02: "routing number corrected",
  C03: "routing and account number corrected",
  C05: "account type corrected",
  C07: "routing number, account number and type corrected",
};

/** "rejected (RJCT)"; an unknown code keeps the code. */
export function bankCodeWords(code: string | null): string {
  if (code === null) return "no answer yet";
  const words = BANK_CODES[code];
  return words === undefined ? `code ${code}` : `${words} (${code})`;
}
