// Drizzle queries on the payout-limits tables; every query is scoped to the caller's Business and environment.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db, Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { payoutLimitConsumptions, payoutLimits, payoutLimitUsage } from "./payout-limits.schema.js";

export type PayoutLimitRow = typeof payoutLimits.$inferSelect;

export async function listLimits(db: Db, tenant: Tenant): Promise<PayoutLimitRow[]> {
  return db.select().from(payoutLimits).where(ownedBy(payoutLimits, tenant)).orderBy(asc(payoutLimits.currency));
}

/** Every limit row of the tenant, locked: two replacements take turns, each comparing against what the other left. */
export async function lockLimits(tx: Tx, tenant: Tenant): Promise<PayoutLimitRow[]> {
  return tx.select().from(payoutLimits).where(ownedBy(payoutLimits, tenant)).orderBy(asc(payoutLimits.currency)).for("update");
}

export async function findLimitsFor(db: Db, tenant: Tenant, currencies: readonly string[]): Promise<PayoutLimitRow[]> {
  if (currencies.length === 0) return [];
  return db
    .select()
    .from(payoutLimits)
    .where(and(ownedBy(payoutLimits, tenant), inArray(payoutLimits.currency, [...currencies])));
}

/** Replaces the tenant's whole set of limits. */
export async function replaceLimits(
  tx: Tx,
  tenant: Tenant,
  rows: ReadonlyArray<Omit<PayoutLimitRow, "businessId" | "environment">>,
): Promise<void> {
  await tx.delete(payoutLimits).where(ownedBy(payoutLimits, tenant));
  if (rows.length === 0) return;
  await tx
    .insert(payoutLimits)
    .values(rows.map((row) => ({ ...row, businessId: tenant.businessId, environment: tenant.environment })));
}

export async function usageOfDay(db: Db, tenant: Tenant, day: string): Promise<Array<{ currency: string; usedMinor: number }>> {
  return db
    .select({ currency: payoutLimitUsage.currency, usedMinor: payoutLimitUsage.usedMinor })
    .from(payoutLimitUsage)
    .where(and(ownedBy(payoutLimitUsage, tenant), eq(payoutLimitUsage.day, day)));
}

/**
 * Adds `amount` to the day's usage in one statement: an insert of the day's first approval, else an update of
 * the row that PostgreSQL re-checks on the committed row after any wait (`used + amount <= limit`, when a limit
 * is given). Answers the new total, or null when the limit would be passed (nothing changed).
 */
export async function addToDailyUsage(
  tx: Tx,
  key: { readonly tenant: Tenant; readonly currency: string; readonly day: string },
  amountMinor: number,
  dailyMaxMinor: number | null,
): Promise<number | null> {
  const [row] = await tx
    .insert(payoutLimitUsage)
    .values({
      businessId: key.tenant.businessId,
      environment: key.tenant.environment,
      currency: key.currency,
      day: key.day,
      usedMinor: amountMinor,
    })
    .onConflictDoUpdate({
      target: [payoutLimitUsage.businessId, payoutLimitUsage.environment, payoutLimitUsage.currency, payoutLimitUsage.day],
      set: { usedMinor: sql`${payoutLimitUsage.usedMinor} + excluded.used_minor` },
      ...(dailyMaxMinor === null
        ? {}
        : { setWhere: sql`${payoutLimitUsage.usedMinor} + excluded.used_minor <= ${dailyMaxMinor}` }),
    })
    .returning({ usedMinor: payoutLimitUsage.usedMinor });
  return row?.usedMinor ?? null;
}

export async function insertConsumption(tx: Tx, row: typeof payoutLimitConsumptions.$inferInsert): Promise<void> {
  await tx.insert(payoutLimitConsumptions).values(row);
}

/** Takes back what a payout's approval added to its day, once (the consumption row is deleted). */
export async function releaseConsumption(tx: Tx, payoutId: string): Promise<void> {
  const [taken] = await tx.delete(payoutLimitConsumptions).where(eq(payoutLimitConsumptions.payoutId, payoutId)).returning();
  if (taken === undefined) return;
  await tx
    .update(payoutLimitUsage)
    .set({ usedMinor: sql`greatest(${payoutLimitUsage.usedMinor} - ${taken.amountMinor}, 0)` })
    .where(
      and(
        eq(payoutLimitUsage.businessId, taken.businessId),
        eq(payoutLimitUsage.environment, taken.environment),
        eq(payoutLimitUsage.currency, taken.currency),
        eq(payoutLimitUsage.day, taken.day),
      ),
    );
}
