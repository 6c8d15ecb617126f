// Who a payout pays and where, in words: the payee's display name (optionally linked to the Beneficiary's page)
// and the destination as "IBAN •••• 3000 · Germany". Everything comes from the payout's embedded `payee`
// summary (masked by the API: at most the last four characters of an account), so a list needs no request per row.
import { Anchor, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import type { Payout } from "../../lib/payouts";

export type PayoutPayee = Payout["payee"];
export type PayoutDestination = PayoutPayee["destination"];

/** The routing schemes of the API (`scheme` of a destination), as a person names them. */
const SCHEME_LABELS: Readonly<Record<string, string>> = {
  iban: "IBAN",
  us_aba: "US account",
  gb_sort_code: "UK account",
  mx_clabe: "CLABE",
  br_pix: "Pix key",
  br_bank_account: "Brazilian account",
  ca_eft: "Canadian account",
  au_bsb: "Australian account",
  in_ifsc: "Indian account",
  swift: "SWIFT account",
  card: "Card",
};

const regions = new Intl.DisplayNames(["en"], { type: "region" });

/** "Germany" for DE; the code itself when the browser has no name for it. */
export function countryName(code: string): string {
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}

export function schemeLabel(scheme: string): string {
  return SCHEME_LABELS[scheme] ?? scheme.toUpperCase();
}

/** "IBAN •••• 3000 · Germany" (and "deleted" when the destination was deleted since). */
export function destinationText(destination: PayoutDestination): string {
  const masked = destination.last4 === "" ? "(masked)" : `•••• ${destination.last4}`;
  const deleted = destination.deleted ? " (deleted)" : "";
  return `${schemeLabel(destination.scheme)} ${masked} · ${countryName(destination.country)}${deleted}`;
}

const DAY_MS = 86_400_000;

/**
 * What an approver should see of where the money goes (issue 29): "First payout to this account", how long ago
 * the bank details were added or changed, and their approval state when not approved.
 */
export function destinationFacts(destination: PayoutDestination, now: number): string[] {
  const facts: string[] = [];
  if (destination.first_payout) facts.push("First payout to this account");
  const days = Math.max(0, Math.floor((now - Date.parse(destination.details_changed_at)) / DAY_MS));
  facts.push(days === 0 ? "Added or changed today" : `Added or changed ${days} day${days === 1 ? "" : "s"} ago`);
  if (destination.approval_status === "pending_approval") facts.push("Bank details awaiting approval");
  if (destination.approval_status === "rejected") facts.push("Bank details rejected");
  return facts;
}

/** The destination's facts as one dimmed line (data-testid `destination-facts`). */
export function DestinationFacts({ destination }: { destination: PayoutDestination }) {
  const facts = destinationFacts(destination, Date.now());
  return (
    <Text size="xs" c={destination.approval_status === "approved" ? "dimmed" : "red.9"} data-testid="destination-facts">
      {facts.join(" · ")}
    </Text>
  );
}

/** The payee's name, a link to the Beneficiary's page when `link`. */
export function PayeeName({ payee, link = false }: { payee: PayoutPayee; link?: boolean }) {
  return link ? (
    <Anchor component={Link} to={`/beneficiaries/${payee.beneficiary_id}`} fw={600} size="sm">
      {payee.display_name}
    </Anchor>
  ) : (
    <Text span fw={600} size="sm">
      {payee.display_name}
    </Text>
  );
}

/** Name over destination, for a list's cell. */
export function PayeeCell({ payee, link = false }: { payee: PayoutPayee; link?: boolean }) {
  return (
    <Stack gap={0}>
      <PayeeName payee={payee} link={link} />
      <Text size="xs" c="dimmed" data-testid="payee-destination">
        {destinationText(payee.destination)}
      </Text>
      <DestinationFacts destination={payee.destination} />
    </Stack>
  );
}
