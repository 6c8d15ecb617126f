// What a payee's sanctions screening state means for one payout, in words (issue 29): not sent yet (held until an
// admin clears the hit), or already sent to the bank (a bank file is never recalled by the service).
import { screeningStatusName } from "./labels";
import type { Payout } from "./payouts";

const SENT_STATUSES: ReadonlySet<Payout["status"]> = new Set(["disbursed", "settled", "returned"]);
const WAITING_STATUSES: ReadonlySet<Payout["status"]> = new Set(["pending_approval", "approved", "compliance_hold"]);

/** Whether the money already left for the rail or the bank (a bank file built, or the rail took it). */
function alreadySent(payout: Pick<Payout, "status" | "disbursement_status">): boolean {
  return SENT_STATUSES.has(payout.status) || payout.disbursement_status === "submitted";
}

/** "Sanctions screening: No match on the sanctions lists", or the blocking state and what it means for this payout. */
export function payeeScreeningText(payout: Pick<Payout, "status" | "disbursement_status" | "payee">): string {
  const status = payout.payee.screening_status;
  if (status !== "potential_match" && status !== "confirmed_match") return `Sanctions screening: ${screeningStatusName(status)}`;
  const name = status === "potential_match" ? screeningStatusName(status) : "Confirmed sanctions match";
  if (alreadySent(payout)) return `${name}: this payout was already sent to the bank and is not recalled`;
  if (!WAITING_STATUSES.has(payout.status)) return name;
  return status === "potential_match" ? `${name}: not sent until an admin clears the hit` : `${name}: this payout is not sent`;
}
