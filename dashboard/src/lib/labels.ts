// The one dictionary of words for the API's enum values: every page shows these, never `business_approver`,
// `verified`, `iban` or `DE`. Payout and Beneficiary statuses and roles keep their own tables beside their
// colours (lib/payouts.ts, BeneficiaryStatusBadge, lib/roles.ts) and are re-exported here, so this is the
// place to look a word up. Country and currency names come from the browser's CLDR data (Intl.DisplayNames),
// the same data the service's e-mails use (src/platform/reference/words.ts). The bank files' and reconciliation's
// words live beside their components (components/bank-rails/words.ts, components/reconciliation/words.ts), in
// those pages' own chunks.
import { BENEFICIARY_STATUS_LABELS } from "../components/beneficiary/BeneficiaryStatusBadge";
import { SCREENING_STATUS_WORDS } from "./payee-screening";
import { STATUS_LABELS } from "./payouts";
import { roleName } from "./roles";

export { BENEFICIARY_STATUS_LABELS, roleName, STATUS_LABELS as PAYOUT_STATUS_LABELS };

/** A word for a value this build does not know: the value itself with its underscores as spaces. */
function fallback(value: string): string {
  const spaced = value.replaceAll("_", " ").replaceAll(".", " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

const lookup =
  (table: Readonly<Record<string, string>>) =>
  (value: string): string =>
    table[value] ?? fallback(value);

/** Routing schemes of a destination (`scheme`). */
export const schemeName = lookup({
  iban: "IBAN",
  us_aba: "US routing number (ABA)",
  gb_sort_code: "UK sort code",
  mx_clabe: "CLABE (Mexico)",
  br_pix: "Pix key (Brazil)",
  br_bank_account: "Brazilian bank account",
  ca_eft: "Canadian transit number (EFT)",
  au_bsb: "BSB (Australia)",
  in_ifsc: "IFSC (India)",
  swift: "SWIFT / BIC",
  card: "Card",
});

/** A destination's standing with the payout rail (`status`). */
export const destinationStatusName = lookup({
  verified: "Verified by the rail",
  unverified: "Not yet verified",
  rejected: "Refused by the rail",
});

/** Whether the routing details passed a scheme check (`validation_status`). */
export const validationStatusName = lookup({
  validated: "Checked",
  unvalidated: "Shape checked only",
});

/** A webhook delivery's state. */
export const deliveryStatusName = lookup({
  pending: "Retrying",
  succeeded: "Delivered",
  abandoned: "Abandoned",
  dropped: "Dropped",
});

/** Where a payout came from (`channel`). */
export const channelName = lookup({ api: "API", csv: "Bulk upload (CSV)", dashboard: "Dashboard" });

/** A Beneficiary's type. */
export const beneficiaryTypeName = lookup({ person: "Person", business: "Business" });

/** The environment. */
export const environmentName = lookup({ sandbox: "Sandbox", production: "Production" });

/** A Beneficiary's sanctions screening state (`screening_status`). */
export const screeningStatusName = lookup(SCREENING_STATUS_WORDS);

/** A screening hit's state (`status`). */
export const screeningHitStatusName = lookup({
  open: "Waiting for review",
  cleared: "Cleared (false positive)",
  confirmed: "Confirmed match",
  withdrawn: "Withdrawn (no longer found)",
});

/** A sanctions list (`list_id`). */
export const sanctionsListName = lookup({
  ofac_sdn: "OFAC SDN (US)",
  eu_consolidated: "EU consolidated list",
});

/** A listed entry's kind (`entry.kind`). */
export const sanctionsEntryKindName = lookup({
  individual: "Individual",
  entity: "Entity",
  vessel: "Vessel",
  aircraft: "Aircraft",
  other: "Other",
});

/** An event type in words: `payout.disbursement_submitted` → "Payout disbursement submitted". */
export function eventTypeName(type: string): string {
  return fallback(type);
}

function displayName(type: "region" | "currency", code: string): string | null {
  try {
    const name = new Intl.DisplayNames(["en"], { type, fallback: "none" }).of(code);
    return name === undefined || name === code ? null : name;
  } catch {
    return null;
  }
}

/** "Germany" for DE; the code when the browser does not know it. */
export function countryLabel(code: string): string {
  return displayName("region", code) ?? code;
}

/** "Euro" for EUR; the code when the browser does not know it. */
export function currencyLabel(code: string): string {
  return displayName("currency", code) ?? code;
}
