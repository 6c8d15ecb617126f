// Facts about a destination that decide which rail pays it (for the bank-rails module's routing rule).
import type { Tenant } from "../../platform/auth/actor.js";
import type { Tx } from "../../platform/db/client.js";
import { findRoutingFactsOf, type RoutingFactsRow } from "./destinations.repo.js";
import { isSepaCountry } from "./validation/iban-bic.js";

export interface DestinationRoutingFacts {
  readonly kind: "bank_account" | "card";
  readonly scheme: string;
  readonly country: string;
  readonly currency: string;
  readonly sepaZone: boolean;
  readonly accountHolderName: string;
  readonly beneficiaryId: string;
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
  };
}

/** Routing facts of one of the tenant's destinations, inside the caller's transaction; null when unknown. */
export async function destinationRoutingFacts(
  tx: Tx,
  tenant: Tenant,
  destinationId: string,
): Promise<DestinationRoutingFacts | null> {
  const [row] = await findRoutingFactsOf(tx, tenant, [destinationId]);
  return row === undefined ? null : factsOf(row);
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
