// What the top-ups module offers other modules over its table, in their handle or transaction.
import { and, desc, eq, ne } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { findTopUp, type TopUpRow } from "./top-ups.repo.js";

export type { TopUpRow } from "./top-ups.repo.js";

import { topUps } from "./top-ups.schema.js";

/** For reconciliation: the top-ups of a funding account of one amount that were not rejected (a statement credit's candidates). */
export async function findTopUpsOfAmount(
  db: Db,
  tenant: Tenant,
  fundingAccountId: string,
  amountMinor: number,
): Promise<TopUpRow[]> {
  return db
    .select()
    .from(topUps)
    .where(
      and(
        ownedBy(topUps, tenant),
        eq(topUps.fundingAccountId, fundingAccountId),
        eq(topUps.amountMinor, amountMinor),
        ne(topUps.status, "rejected"),
      ),
    )
    .orderBy(desc(topUps.id))
    .limit(50);
}

/** For reconciliation: one top-up of the tenant, or null. */
export const findTopUpForStatement = (db: Db, tenant: Tenant, id: string): Promise<TopUpRow | null> => findTopUp(db, tenant, id);
