// The words behind the reason codes banks answer with: ISO 20022 external status/return reason codes (SEPA
// pain.002 and camt.054), NACHA return codes (R) and notification-of-change codes (C). A payout's
// failure_reason is "<code>: <words>", so a finance team reads it without a code book; an unknown code keeps
// the bank's own additional information, or a neutral sentence.

const ISO_REASONS: Readonly<Record<string, string>> = {
  AC01: "The account number is incorrect.",
  AC04: "The account is closed.",
  AC06: "The account is blocked.",
  AC13: "The debtor account type is invalid.",
  AG01: "Transactions of this kind are forbidden on this account.",
  AG02: "The bank operation code is invalid.",
  AM01: "The amount is zero.",
  AM02: "The amount exceeds the allowed maximum.",
  AM04: "Insufficient funds.",
  AM05: "The payment is a duplicate.",
  AM09: "The amount is wrong.",
  BE01: "The beneficiary name does not match the account holder.",
  BE04: "The creditor address is missing or incorrect.",
  BE05: "The initiating party is not recognised.",
  CNOR: "The creditor's bank is not registered for SEPA credit transfers.",
  CURR: "The currency is incorrect.",
  CUST: "The payment was cancelled at the customer's request.",
  DNOR: "The debtor's bank is not registered for SEPA credit transfers.",
  DT01: "The date is invalid.",
  DUPL: "The payment is a duplicate.",
  ED05: "Settlement of the payment failed.",
  FF01: "The file or transaction format is invalid.",
  FOCR: "The payment was returned after a cancellation request.",
  FRAD: "The payment was stopped as fraudulent.",
  MD07: "The account holder is deceased.",
  MS02: "Refused by the creditor for a reason not given.",
  MS03: "Refused by a bank for a reason not given.",
  NARR: "See the bank's narrative.",
  RC01: "The bank identifier (BIC) is incorrect.",
  RR01: "The debtor account or identification is missing.",
  RR02: "The debtor name or address is missing.",
  RR03: "The creditor name or address is missing.",
  RR04: "Refused for regulatory reasons.",
  SL01: "Specific service offered by the debtor's bank.",
  TECH: "A technical problem at a bank.",
  TM01: "The file arrived after the bank's cut-off time.",
};

const ACH_RETURNS: Readonly<Record<string, string>> = {
  R01: "Insufficient funds.",
  R02: "The account is closed.",
  R03: "No account, or the account could not be located.",
  R04: "The account number is invalid.",
  R05: "Unauthorized debit to a consumer account using a corporate SEC code.",
  R06: "Returned at the originating bank's request.",
  R07: "Authorization revoked by the customer.",
  R08: "Payment stopped.",
  R09: "Uncollected funds.",
  R10: "The customer advises the entry was not authorized.",
  R11: "The customer advises the entry was not in accordance with the authorization.",
  R12: "The account was sold to another bank.",
  R13: "The receiving bank's routing number is invalid.",
  R14: "The representative payee is deceased or unable to continue in that capacity.",
  R15: "The beneficiary or account holder is deceased.",
  R16: "The account is frozen.",
  R17: "The file record edit criteria were not met.",
  R20: "The account cannot receive this kind of transaction.",
  R21: "The company identification is invalid.",
  R22: "The individual identification number is invalid.",
  R23: "The receiver refused the credit entry.",
  R24: "Duplicate entry.",
  R26: "A mandatory field is in error.",
  R28: "The routing number check digit is wrong.",
  R29: "The corporate customer advises the entry was not authorized.",
  R31: "Permissible return entry (the originating bank agreed).",
  R34: "The receiving bank does not take part in ACH.",
  R61: "The return was misrouted.",
  R67: "Duplicate return.",
  R69: "The return has field errors.",
  R80: "Cross-border coding error.",
  R85: "The entry was incorrectly coded as outbound international.",
};

const ACH_CHANGES: Readonly<Record<string, string>> = {
  C01: "Incorrect account number.",
  C02: "Incorrect routing number.",
  C03: "Incorrect routing number and account number.",
  C05: "Incorrect transaction code (checking or savings).",
  C06: "Incorrect account number and transaction code.",
  C07: "Incorrect routing number, account number and transaction code.",
  C08: "Incorrect receiving bank identification (IAT).",
  C09: "Incorrect individual identification number.",
  C13: "The addenda format is wrong.",
  C14: "Incorrect SEC code for an outbound international payment.",
};

export function isoReasonText(code: string, additionalInfo: string | null): string {
  const words = ISO_REASONS[code] ?? additionalInfo ?? "The bank gave no explanation.";
  return `${code}: ${words}`;
}

export function achReturnText(code: string): string {
  return `${code}: ${ACH_RETURNS[code] ?? "Returned by the receiving bank."}`;
}

/**
 * Return codes that answer a debit only (Nacha Operating Rules, Appendix Four): funds (R01, R09), a debit's
 * authorization or stop payment (R05, R07, R08, R10, R11, R29), and the check-conversion codes (R51, R52,
 * R53). A credit cannot be returned for them, so a return of one of our credits with such a code is a bank
 * error worth a person's look. Every other code of the table can answer a credit (R23 answers only credits).
 */
const ACH_DEBIT_ONLY_RETURNS: ReadonlySet<string> = new Set([
  "R01",
  "R05",
  "R07",
  "R08",
  "R09",
  "R10",
  "R11",
  "R29",
  "R51",
  "R52",
  "R53",
]);

/** Whether an ACH return code can answer a credit entry (every one we send is a credit). */
export function achReturnCodeFitsCredit(code: string): boolean {
  return !ACH_DEBIT_ONLY_RETURNS.has(code);
}

export function achChangeText(code: string): string {
  return `${code}: ${ACH_CHANGES[code] ?? "The receiving bank sent a correction."}`;
}

/** All but the last four characters replaced by `*` (an account or identification number shown to a user). */
function maskToLastFour(value: string): string {
  const clean = value.trim();
  return clean.length <= 4 ? clean : `${"*".repeat(clean.length - 4)}${clean.slice(-4)}`;
}

/**
 * The corrected data of a notification of change as it may be shown: the NACHA layout of each code read by
 * position (routing numbers and transaction codes in clear, account and identification numbers masked to
 * their last four), parts joined by one space. `correctedData` is the addenda's field (positions 36-64) with
 * its leading characters in place.
 */
export function maskedCorrectedData(code: string, correctedData: string): string {
  const at = (from: number, to: number) => correctedData.slice(from, to).trim();
  const join = (...parts: string[]) => parts.filter((p) => p !== "").join(" ");
  switch (code) {
    case "C01": // correct DFI account number (1-17)
    case "C08": // correct receiving DFI identification (IAT)
    case "C09": // correct individual identification number
      return maskToLastFour(correctedData);
    case "C03": // routing number (1-9), three spaces, account number (13-29)
      return join(at(0, 9), maskToLastFour(at(9, 29)));
    case "C06": // account number (1-17), three spaces, transaction code (21-22)
      return join(maskToLastFour(at(0, 17)), at(17, 29));
    case "C07": // routing number (1-9), account number (10-26), transaction code (27-28)
      return join(at(0, 9), maskToLastFour(at(9, 26)), at(26, 29));
    default: // C02 routing number, C05 transaction code, C13 addenda format, C14 SEC code: nothing secret
      return correctedData.trim();
  }
}

/** The account details a notification of change corrects, read from its corrected data (unmasked). */
export interface AchCorrection {
  readonly routingNumber?: string;
  readonly accountNumber?: string;
  /** From the corrected transaction code: 22/23/24 checking, 32/33/34 savings. */
  readonly accountType?: "checking" | "savings";
}

function accountTypeOfTransactionCode(code: string): "checking" | "savings" | undefined {
  if (/^2[2-4]$/.test(code)) return "checking";
  if (/^3[2-4]$/.test(code)) return "savings";
  return undefined;
}

/**
 * What a notification of change asks to change on the account, by the NACHA layout of its code (the same
 * positions as maskedCorrectedData); null for codes that correct nothing an account holds (C08, C09, C13,
 * C14) or data that does not read as its layout says.
 */
export function achCorrectionOf(code: string, correctedData: string): AchCorrection | null {
  const at = (from: number, to: number) => correctedData.slice(from, to).trim();
  const out: { routingNumber?: string; accountNumber?: string; accountType?: "checking" | "savings" } = {};
  const type = (raw: string) => {
    const value = accountTypeOfTransactionCode(raw);
    if (value === undefined) return false;
    out.accountType = value;
    return true;
  };
  switch (code) {
    case "C01":
      out.accountNumber = at(0, 17);
      break;
    case "C02":
      out.routingNumber = at(0, 9);
      break;
    case "C03":
      out.routingNumber = at(0, 9);
      out.accountNumber = at(9, 29);
      break;
    case "C05":
      if (!type(at(0, 2))) return null;
      break;
    case "C06":
      out.accountNumber = at(0, 17);
      if (!type(at(17, 29))) return null;
      break;
    case "C07":
      out.routingNumber = at(0, 9);
      out.accountNumber = at(9, 26);
      if (!type(at(26, 29))) return null;
      break;
    default:
      return null;
  }
  if (out.routingNumber !== undefined && !/^\d{9}$/.test(out.routingNumber)) return null;
  if (out.accountNumber !== undefined && out.accountNumber === "") return null;
  return out;
}

/** The fields a notification of change names, for the event and the account (`other`: not an account detail). */
export function achCorrectedFields(code: string): Array<"routing_number" | "account_number" | "account_type" | "other"> {
  const fields: Array<"routing_number" | "account_number" | "account_type"> = [];
  if (["C02", "C03", "C07"].includes(code)) fields.push("routing_number");
  if (["C01", "C03", "C06", "C07"].includes(code)) fields.push("account_number");
  if (["C05", "C06", "C07"].includes(code)) fields.push("account_type");
  return fields.length === 0 ? ["other"] : fields;
}
