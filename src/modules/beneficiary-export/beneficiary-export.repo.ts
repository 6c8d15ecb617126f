// Queries of the Beneficiary export: one keyset page of active Beneficiaries, and the live destinations of a
// page in one query. Destinations are read through their masked columns only: the encrypted account data
// is never even selected, so no export code path can hold a full number.
import { and, asc, desc, eq, inArray, isNull, lt } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { beneficiaries, destinations } from "../../platform/db/schema.js";
import type { BeneficiaryRow } from "../beneficiaries/index.js";

/**
 * Active (not archived) Beneficiaries of the tenant, newest first, strictly before `beforeId` (null: from the
 * newest). Served by the partial index beneficiaries_tenant_list_idx (business, environment, id).
 */
export async function listActiveBeneficiaryPage(
  db: Db,
  tenant: Tenant,
  beforeId: string | null,
  limit: number,
): Promise<BeneficiaryRow[]> {
  return db
    .select()
    .from(beneficiaries)
    .where(
      and(
        eq(beneficiaries.businessId, tenant.businessId),
        eq(beneficiaries.environment, tenant.environment),
        isNull(beneficiaries.archivedAt),
        beforeId === null ? undefined : lt(beneficiaries.id, beforeId),
      ),
    )
    .orderBy(desc(beneficiaries.id))
    .limit(limit);
}

const maskedDestinationColumns = {
  id: destinations.id,
  beneficiaryId: destinations.beneficiaryId,
  kind: destinations.kind,
  country: destinations.country,
  currency: destinations.currency,
  last4: destinations.last4,
  validationStatus: destinations.validationStatus,
  status: destinations.status,
  deletedAt: destinations.deletedAt,
};

export interface MaskedDestinationRow {
  readonly id: string;
  readonly beneficiaryId: string;
  readonly kind: "bank_account" | "card";
  readonly country: string;
  readonly currency: string;
  readonly last4: string;
  readonly validationStatus: "validated" | "unvalidated";
  readonly status: "unverified" | "verified" | "rejected";
  readonly deletedAt: Date | null;
}

/** Live destinations of the given Beneficiaries of the tenant, grouped by Beneficiary, oldest first. */
export async function listLiveDestinationsOf(
  db: Db,
  tenant: Tenant,
  beneficiaryIds: readonly string[],
): Promise<MaskedDestinationRow[]> {
  if (beneficiaryIds.length === 0) return [];
  return db
    .select(maskedDestinationColumns)
    .from(destinations)
    .where(
      and(
        eq(destinations.businessId, tenant.businessId),
        eq(destinations.environment, tenant.environment),
        inArray(destinations.beneficiaryId, [...beneficiaryIds]),
        isNull(destinations.deletedAt),
      ),
    )
    .orderBy(asc(destinations.beneficiaryId), asc(destinations.id));
}
