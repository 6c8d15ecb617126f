// A destination as a payout rail needs it: the public columns plus the decrypted routing details. The
// destinations module owns the shape of the encrypted blob, so this is the one place that opens it for a rail.
// The result is handed straight to the rail call: never logged, never stored.
import type { FieldCipher } from "../../platform/crypto.js";
import type { RailDestination } from "../../rails/rail.js";
import type { DestinationRow } from "./destinations.repo.js";

export function railDestinationOf(cipher: FieldCipher, row: DestinationRow): RailDestination {
  const sensitive = JSON.parse(cipher.decrypt(row.sensitiveEncrypted)) as Record<string, string | undefined>;
  return {
    destinationId: row.id,
    kind: row.kind,
    country: row.country,
    currency: row.currency,
    accountHolderName: row.accountHolderName,
    accountNumber: sensitive.account_number ?? null,
    routingCode: row.routingCode,
    iban: sensitive.iban ?? null,
    swiftBic: row.swiftBic,
    clabe: sensitive.clabe ?? null,
    pixKey: sensitive.pix_key ?? null,
    cardNumber: sensitive.card_number ?? null,
    last4: row.last4,
  };
}
