// The payee's sanctions screening state in words (issue 29), from the payout's `payee.screening_status`: shown
// beside the destination's facts wherever a person decides or reviews a payout (the approvals inbox, the payout
// page), so a potential match is seen before approving, not only on the Beneficiary's page; the words
// (lib/payee-screening.ts) say what the hit means for this payout. Colour repeats the words, never replaces them.
import { Anchor, Text } from "@mantine/core";
import { Link } from "react-router";
import { payeeScreeningText } from "../../lib/payee-screening";
import type { Payout } from "../../lib/payouts";

export function PayeeScreening({ payout }: { payout: Payout }) {
  const status = payout.payee.screening_status;
  const blocked = status === "potential_match" || status === "confirmed_match";
  // red.9 and dimmed keep the contrast axe asks of 12 px text.
  return (
    <Text size="xs" c={blocked ? "red.9" : "dimmed"} fw={blocked ? 700 : 400} data-testid="payee-screening">
      {payeeScreeningText(payout)}
      {blocked && (
        <>
          {" "}
          <Anchor component={Link} to={`/screening?beneficiary_id=${payout.payee.beneficiary_id}&status=all`} size="xs" c="red.9">
            Review the hits
          </Anchor>
        </>
      )}
    </Text>
  );
}
