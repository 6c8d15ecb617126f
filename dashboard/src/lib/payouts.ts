// Payouts in words and colours, and who may decide one: the rules the pages share. The types are the data
// layer's (hooks/api/payouts/types.ts), named here too for the pages that only show payouts.
import type { Payout, PayoutStatus } from "../hooks/api/payouts/types";

export type { Payout, PayoutStatus };

export const STATUS_LABELS: Readonly<Record<PayoutStatus, string>> = {
  pending_approval: "Pending approval",
  approved: "Approved",
  rejected: "Rejected",
  disbursed: "Disbursed",
  settled: "Settled",
  returned: "Returned",
  failed: "Failed",
  canceled: "Canceled",
  compliance_hold: "Compliance hold",
};

/** Shades dark enough for white text, or light enough for black (autoContrast picks), at WCAG AA. */
export const STATUS_COLORS: Readonly<Record<PayoutStatus, string>> = {
  pending_approval: "yellow.5",
  approved: "blue.8",
  rejected: "red.8",
  disbursed: "teal.9",
  settled: "cyan.9",
  returned: "orange.5",
  failed: "red.8",
  canceled: "gray.7",
  compliance_hold: "grape.8",
};

/** Whether maker-checker stops this person from approving: they (or a key of theirs) created the payout. */
export function makerCheckerBlocks(
  payout: Pick<Payout, "created_by">,
  me: { membershipId: string; userId: string },
  makerChecker: boolean,
): boolean {
  if (!makerChecker) return false;
  return payout.created_by.membership_id === me.membershipId || payout.created_by.user_id === me.userId;
}

export const canDecide = (role: string) => role === "business_admin" || role === "business_approver";
