// Facts about a destination that decide which rail pays it (for the bank-rails module's routing rule).
import type { Tenant } from "../../platform/auth/actor.js";
import type { Tx } from "../../platform/db/client.js";
import { findRoutingFacts } from "./destinations.repo.js";
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

/** Routing facts of one of the tenant's destinations, inside the caller's transaction; null when unknown. */
export async function destinationRoutingFacts(
  tx: Tx,
  tenant: Tenant,
  destinationId: string,
): Promise<DestinationRoutingFacts | null> {
  const row = await findRoutingFacts(tx, tenant, destinationId);
  if (row === null) return null;
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
