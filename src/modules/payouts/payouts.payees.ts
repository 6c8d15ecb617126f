// Who gets paid and where, embedded in every Payout the API answers (`payee`): read for a whole page of payouts
// at once, one query of the Beneficiaries and one of the destinations whatever the page's size, from the owners'
// shared queries (masked values only: the encrypted account data is never selected).

import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { findPayeeNames } from "../beneficiaries/beneficiaries.shared.js";
import { findDestinationSummaries } from "../destinations/destinations.shared.js";
import { findFirstPayoutIdsTo, type PayoutRow } from "./payouts.repo.js";
import type { PayoutPayeeBody } from "./payouts.schemas.js";

/** The `payee` of each payout, in the order of `rows`. Runs on the handle it is given (a transaction's inside one). */
export async function payeesOf(db: Db, tenant: Tenant, rows: readonly PayoutRow[]): Promise<PayoutPayeeBody[]> {
  if (rows.length === 0) return [];
  const names = await findPayeeNames(
    db,
    tenant,
    rows.map((row) => row.beneficiaryId),
  );
  const destinations = await findDestinationSummaries(
    db,
    tenant,
    rows.map((row) => row.destinationId),
  );
  const firsts = await findFirstPayoutIdsTo(
    db,
    tenant,
    rows.map((row) => row.destinationId),
  );
  return rows.map((row) => {
    const name = names.get(row.beneficiaryId);
    const destination = destinations.get(row.destinationId);
    // Foreign keys, and creation's tenant checks, make both exist in the payout's tenant.
    if (name === undefined || destination === undefined) {
      throw new Error(`payout ${row.id}: its Beneficiary or destination is not in its tenant`);
    }
    return {
      beneficiary_id: row.beneficiaryId,
      display_name: name.displayName,
      country: name.country,
      screening_status: name.screeningStatus,
      destination: {
        bank_account_id: row.destinationId,
        type: destination.kind,
        scheme: destination.scheme,
        country: destination.country,
        currency: destination.currency,
        last4: destination.last4,
        deleted: destination.deleted,
        approval_status: destination.approvalStatus,
        details_changed_at: destination.detailsChangedAt.toISOString(),
        first_payout: firsts.get(row.destinationId) === row.id,
        name_check_result: destination.nameCheckResult,
        name_check_bank_name: destination.nameCheckBankName,
      },
    };
  });
}
