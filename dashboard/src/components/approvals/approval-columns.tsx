// The approval inbox's columns: who gets paid and where first (as Modern Treasury's queue shows the counterparty
// first), then the amount and the reference. At phone width two columns carry the same facts stacked, so the
// table fits the screen without sideways scrolling and nothing a decision needs is cut off.
import { Anchor, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import type { Payout } from "../../lib/payouts";
import type { DataColumn } from "../DataList";
import { Money } from "../Money";
import { NameCheck } from "../NameCheck";
import { DestinationFacts, destinationText, PayeeCell, PayeeName } from "../payouts/Payee";
import { PayeeScreening } from "../payouts/PayeeScreening";
import { Time } from "../Time";

export interface ApprovalColumnsInput {
  /** Why nothing decided it automatically (the policy in words). */
  readonly ruleText: string;
  /** Whether this person may decide the payout; the reason in words when not. */
  readonly verdict: (payout: Payout) => { readonly blocked: boolean; readonly text: string };
}

export const referenceOf = (payout: Payout) => payout.external_ref ?? payout.payout_id.slice(0, 8);

export function approvalColumns({ ruleText, verdict }: ApprovalColumnsInput, phone: boolean): DataColumn<Payout>[] {
  if (phone) {
    return [
      {
        header: "Payee",
        cell: (payout) => {
          const { blocked, text } = verdict(payout);
          return (
            <Stack gap={0}>
              <PayeeCell payee={payout.payee} />
              <NameCheck facts={payout.payee.destination} />
              <PayeeScreening payout={payout} />
              {blocked && (
                <Text size="xs" c="red.9">
                  {text}
                </Text>
              )}
            </Stack>
          );
        },
      },
      {
        header: "Amount",
        align: "right",
        cell: (payout) => (
          <Stack gap={0} align="flex-end">
            <Money minor={payout.amount_minor} currency={payout.currency} />
            <Anchor component={Link} to={`/payouts/${payout.payout_id}`} size="xs" style={{ wordBreak: "break-all" }}>
              {referenceOf(payout)}
            </Anchor>
          </Stack>
        ),
      },
    ];
  }
  return [
    { header: "Payee", cell: (payout) => <PayeeName payee={payout.payee} link /> },
    {
      header: "Destination",
      cell: (payout) => (
        <Stack gap={0}>
          <Text size="sm" data-testid="payee-destination">
            {destinationText(payout.payee.destination)}
          </Text>
          <DestinationFacts destination={payout.payee.destination} />
          <NameCheck facts={payout.payee.destination} />
          <PayeeScreening payout={payout} />
        </Stack>
      ),
    },
    { header: "Amount", align: "right", cell: (payout) => <Money minor={payout.amount_minor} currency={payout.currency} /> },
    { header: "Reference", cell: referenceOf, link: (payout) => `/payouts/${payout.payout_id}` },
    { header: "Created", cell: (payout) => <Time value={payout.created_at} /> },
    { header: "Why it waits", cell: () => <Text size="sm">{ruleText}</Text> },
    {
      header: "Maker-checker",
      cell: (payout) => {
        const { blocked, text } = verdict(payout);
        return (
          <Text size="sm" {...(blocked ? { c: "red.9" } : {})}>
            {text}
          </Text>
        );
      },
    },
  ];
}
