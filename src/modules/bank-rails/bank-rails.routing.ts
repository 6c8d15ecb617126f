// The routing rule of production payouts, one pure function:
//   EUR to an IBAN in the SEPA zone            -> sepa, when the Business configured it
//   USD to a US bank account (ABA routing)     -> ach, when the Business configured it
//   anything else, Business with no bank rail  -> the production simulator (as before any rail existed)
//   anything else, Business with a bank rail   -> refused at creation: NO_RAIL_FOR_DESTINATION
// Sandbox payouts never reach this rule: they always use the sandbox rail.
import type { BankRailName } from "./bank-rails.schemas.js";

export interface DestinationFacts {
  readonly kind: "bank_account" | "card";
  /** The validation scheme that accepted the destination (`iban`, `us_aba`, …). */
  readonly scheme: string;
  readonly country: string;
  /** The IBAN's country is in the SEPA scheme's geographic scope. */
  readonly sepaZone: boolean;
}

export type RailRoute = { readonly rail: BankRailName | "simulator" } | { readonly refused: true; readonly reason: string };

export function routePayout(currency: string, destination: DestinationFacts, configured: ReadonlySet<BankRailName>): RailRoute {
  const fitsSepa =
    currency === "EUR" && destination.kind === "bank_account" && destination.scheme === "iban" && destination.sepaZone;
  const fitsAch =
    currency === "USD" && destination.kind === "bank_account" && destination.scheme === "us_aba" && destination.country === "US";
  if (fitsSepa && configured.has("sepa")) return { rail: "sepa" };
  if (fitsAch && configured.has("ach")) return { rail: "ach" };
  if (configured.size === 0) return { rail: "simulator" };
  const rails = [...configured].sort().join(" and ");
  return {
    refused: true,
    reason: `This Business pays production payouts through its bank (${rails}); a ${currency} payout to this destination fits none of them. SEPA takes EUR to an IBAN in the SEPA zone, ACH takes USD to a US bank account.`,
  };
}
