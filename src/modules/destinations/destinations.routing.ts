// Facts about a destination that decide which rail pays it (for the bank-rails module's routing rule).
import type { Tenant } from "../../platform/auth/actor.js";
import type { Tx } from "../../platform/db/client.js";
import { findRoutingFactsOf, type RoutingFactsRow } from "./destinations.repo.js";
import { bicCountriesFor, ibanPrefixesFor, isSepaCountry } from "./validation/iban-bic.js";

export interface DestinationRoutingFacts {
  readonly kind: "bank_account" | "card";
  readonly scheme: string;
  readonly country: string;
  readonly currency: string;
  readonly sepaZone: boolean;
  readonly accountHolderName: string;
  readonly beneficiaryId: string;
  /** The bank's BIC when one was given (a SEPA transfer outside the EEA needs it). */
  readonly swiftBic: string | null;
  /**
   * False when an IBAN account's BIC is of a bank in another country than its IBAN (an account registered
   * before the two were checked against each other: registration refuses that now).
   */
  readonly bicMatchesIban: boolean;
}

/** Whether an IBAN account's BIC is of a bank in a country its IBAN prefix allows (true without a BIC). */
export function bicMatchesIbanCountry(scheme: string, country: string, swiftBic: string | null): boolean {
  if (scheme !== "iban" || swiftBic === null) return true;
  return ibanPrefixesFor(country).some((prefix) => bicCountriesFor(prefix).includes(swiftBic.slice(4, 6)));
}

function factsOf(row: RoutingFactsRow): DestinationRoutingFacts {
  return {
    kind: row.kind,
    scheme: row.scheme,
    country: row.country,
    currency: row.currency,
    sepaZone: isSepaCountry(row.country),
    accountHolderName: row.accountHolderName,
    beneficiaryId: row.beneficiaryId,
    swiftBic: row.swiftBic ?? null,
    bicMatchesIban: bicMatchesIbanCountry(row.scheme, row.country, row.swiftBic ?? null),
  };
}

/** Routing facts of many of the tenant's destinations in one query, by id (unknown ids are absent). */
export async function destinationRoutingFactsOf(
  tx: Tx,
  tenant: Tenant,
  destinationIds: readonly string[],
): Promise<Map<string, DestinationRoutingFacts>> {
  const rows = await findRoutingFactsOf(tx, tenant, destinationIds);
  return new Map(rows.map((row) => [row.id, factsOf(row)]));
}
