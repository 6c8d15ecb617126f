// What the payouts module offers other modules over its tables: named queries that run in the caller's
// transaction (or on the database handle for reads). Other modules import this file (or index.ts), never
// payouts.schema.ts.
import { eq, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Environment } from "../../platform/auth/api-key-format.js";
import type { Db, Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { toPgArray } from "./payouts.repo.js";
import { approvalPolicies, payouts } from "./payouts.schema.js";

/** Which environment a payout belongs to, whatever its Business (the rail simulator's operator endpoint). */
export async function findPayoutEnvironment(db: Db, payoutId: string): Promise<Environment | null> {
  const [row] = await db.select({ environment: payouts.environment }).from(payouts).where(eq(payouts.id, payoutId)).limit(1);
  return row?.environment ?? null;
}

/**
 * Re-masks the destination copies payouts keep (`destination_last4`, shown after the destination is deleted)
 * when the masking backfill re-masks their destination. Only copies still equal to the old value change.
 */
export async function replaceDestinationLast4(
  tx: Tx,
  changes: ReadonlyArray<{ readonly destinationId: string; readonly from: string; readonly to: string }>,
): Promise<void> {
  if (changes.length === 0) return;
  await tx.execute(sql`
    update payouts p set destination_last4 = c.to_last4
    from unnest(${toPgArray(changes.map((c) => c.destinationId))}::uuid[], ${toPgArray(changes.map((c) => c.from))}::text[],
      ${toPgArray(changes.map((c) => c.to))}::text[]) as c(destination_id, from_last4, to_last4)
    where p.destination_id = c.destination_id and p.destination_last4 = c.from_last4`);
}

/** Whether the environment's approval policy has maker-checker on (control-changes: four eyes on weakening). */
export async function makerCheckerOn(db: Db, tenant: Tenant): Promise<boolean> {
  const [row] = await db
    .select({ makerChecker: approvalPolicies.makerChecker })
    .from(approvalPolicies)
    .where(ownedBy(approvalPolicies, tenant))
    .limit(1);
  return row?.makerChecker === true;
}
