// What a payee's sanctions screening state means for one payout, in words (issue 29): not sent yet (held until an
// admin clears the hit), or already sent to the bank (a bank file is never recalled by the service). No imports, so
// the unit tests (checked by the service's compiler settings) can read it.

/** A Beneficiary's sanctions screening state (`screening_status`) in words; labels.ts offers it as `screeningStatusName`. */
export const SCREENING_STATUS_WORDS: Readonly<Record<string, string>> = {
  not_screened: "Not screened",
  clear: "No match on the sanctions lists",
  potential_match: "Sanctions review required",
  cleared: "Cleared by an admin (false positive)",
  confirmed_match: "Confirmed sanctions match: blocked",
};

/** What the words need of a payout (the API's Payout has these fields). */
export interface PayoutScreeningFacts {
  readonly status: string;
  readonly disbursement_status: string | null;
  readonly payee: { readonly screening_status: string };
}

const SENT_STATUSES: ReadonlySet<string> = new Set(["disbursed", "settled", "returned"]);
const WAITING_STATUSES: ReadonlySet<string> = new Set(["pending_approval", "approved", "compliance_hold"]);

/** Whether the money already left for the rail or the bank (a bank file built, or the rail took it). */
function alreadySent(payout: PayoutScreeningFacts): boolean {
  return SENT_STATUSES.has(payout.status) || payout.disbursement_status === "submitted";
}

/** "Sanctions screening: No match on the sanctions lists", or the blocking state and what it means for this payout. */
export function payeeScreeningText(payout: PayoutScreeningFacts): string {
  const status = payout.payee.screening_status;
  if (status !== "potential_match" && status !== "confirmed_match")
    return `Sanctions screening: ${SCREENING_STATUS_WORDS[status] ?? status}`;
  const name = status === "potential_match" ? "Sanctions review required" : "Confirmed sanctions match";
  if (alreadySent(payout)) return `${name}: this payout was already sent to the bank and is not recalled`;
  if (!WAITING_STATUSES.has(payout.status)) return name;
  return status === "potential_match" ? `${name}: not sent until an admin clears the hit` : `${name}: this payout is not sent`;
}
