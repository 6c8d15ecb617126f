// What the top-ups module offers other modules over its table, in their handle or transaction.
import { and, desc, eq, inArray, ne } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { findTopUp, type TopUpRow } from "./top-ups.repo.js";

export type { TopUpRow } from "./top-ups.repo.js";

import { topUps } from "./top-ups.schema.js";

/**
 * For reconciliation: the top-ups of a funding account of any of these amounts that were not rejected (the
 * candidates of a statement's credits, for all of its lines in one query), at most 50 per amount, newest first.
 */
export async function findTopUpsOfAmounts(
  db: Db,
  tenant: Tenant,
  fundingAccountId: string,
  amountsMinor: readonly number[],
): Promise<TopUpRow[]> {
  const amounts = [...new Set(amountsMinor)];
  if (amounts.length === 0) return [];
  const rows = await db
    .select()
    .from(topUps)
    .where(
      and(
        ownedBy(topUps, tenant),
        eq(topUps.fundingAccountId, fundingAccountId),
        inArray(topUps.amountMinor, amounts),
        ne(topUps.status, "rejected"),
      ),
    )
    .orderBy(desc(topUps.id));
  const perAmount = new Map<number, number>();
  return rows.filter((row) => {
    const seen = perAmount.get(row.amountMinor) ?? 0;
    perAmount.set(row.amountMinor, seen + 1);
    return seen < 50;
  });
}

/** For reconciliation: one top-up of the tenant, or null. */
export const findTopUpForStatement = (db: Db, tenant: Tenant, id: string): Promise<TopUpRow | null> => findTopUp(db, tenant, id);
