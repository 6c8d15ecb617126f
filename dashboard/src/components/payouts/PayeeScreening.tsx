// The payee's sanctions screening state in words (issue 29), from the payout's `payee.screening_status`: shown
// beside the destination's facts wherever a person decides or reviews a payout (the approvals inbox, the payout
// page), so a potential match is seen before approving, not only on the Beneficiary's page. Colour repeats the
// words, never replaces them.
import { Anchor, Text } from "@mantine/core";
import { Link } from "react-router";
import { screeningStatusName } from "../../lib/labels";
import type { PayoutPayee } from "./Payee";

/** "Sanctions screening: No match on the sanctions lists", or the blocking state alone ("Sanctions review required"). */
export function payeeScreeningText(status: PayoutPayee["screening_status"]): string {
  const name = screeningStatusName(status);
  if (status === "potential_match") return `${name}: not sent until an admin clears the hit`;
  if (status === "confirmed_match") return name;
  return `Sanctions screening: ${name}`;
}

export function PayeeScreening({ payee }: { payee: PayoutPayee }) {
  const status = payee.screening_status;
  const blocked = status === "potential_match" || status === "confirmed_match";
  // red.9 and dimmed keep the contrast axe asks of 12 px text.
  return (
    <Text size="xs" c={blocked ? "red.9" : "dimmed"} fw={blocked ? 700 : 400} data-testid="payee-screening">
      {payeeScreeningText(status)}
      {blocked && (
        <>
          {" "}
          <Anchor component={Link} to={`/screening?beneficiary_id=${payee.beneficiary_id}&status=all`} size="xs" c="red.9">
            Review the hits
          </Anchor>
        </>
      )}
    </Text>
  );
}
