// A Beneficiary's derived status in words, as a badge (the list, its page).
import { Badge } from "@mantine/core";
import type { BeneficiaryStatus } from "../../hooks/api/beneficiaries/types";

export const BENEFICIARY_STATUS_LABELS: Readonly<Record<BeneficiaryStatus, string>> = {
  ready: "Ready",
  pending_details: "Details missing",
  pending_kyc: "Awaiting acknowledgment",
  action_required: "Action required",
  reacknowledgment_required: "Re-acknowledgment required",
  suspended: "Suspended",
};
/** Shades that keep AA contrast with the text autoContrast picks. */
const STATUS_COLORS: Readonly<Record<BeneficiaryStatus, string>> = {
  ready: "teal.9",
  pending_details: "yellow.5",
  pending_kyc: "blue.8",
  action_required: "orange.5",
  reacknowledgment_required: "grape.8",
  suspended: "red.8",
};

export function BeneficiaryStatusBadge({ status }: { status: BeneficiaryStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="filled" autoContrast>
      {BENEFICIARY_STATUS_LABELS[status]}
    </Badge>
  );
}
