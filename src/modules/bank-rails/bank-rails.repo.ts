// Queries of the bank-rails module's tables; each takes the transaction (or handle) it runs in.
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { bankFileItems, bankRailConfigs } from "./bank-rails.schema.js";

export type BankRailConfigRow = typeof bankRailConfigs.$inferSelect;
export type NewBankRailConfigRow = typeof bankRailConfigs.$inferInsert;

const tenantIs = (tenant: Tenant) =>
  and(eq(bankRailConfigs.businessId, tenant.businessId), eq(bankRailConfigs.environment, tenant.environment));

export async function listConfigs(db: Db, tenant: Tenant): Promise<BankRailConfigRow[]> {
  return db.select().from(bankRailConfigs).where(tenantIs(tenant)).orderBy(asc(bankRailConfigs.rail));
}

export async function findConfig(db: Db, tenant: Tenant, rail: string): Promise<BankRailConfigRow | null> {
  const [row] = await db
    .select()
    .from(bankRailConfigs)
    .where(and(tenantIs(tenant), eq(bankRailConfigs.rail, rail)))
    .limit(1);
  return row ?? null;
}

/** The names of the rails the tenant configured (what the routing rule chooses among). */
export async function listConfiguredRails(db: Db, tenant: Tenant): Promise<string[]> {
  const rows = await db.select({ rail: bankRailConfigs.rail }).from(bankRailConfigs).where(tenantIs(tenant));
  return rows.map((row) => row.rail);
}

/** Creates or replaces the tenant's configuration of one rail; the first creation time is kept. */
export async function upsertConfig(db: Db, row: NewBankRailConfigRow): Promise<{ row: BankRailConfigRow; created: boolean }> {
  const [saved] = await db
    .insert(bankRailConfigs)
    .values(row)
    .onConflictDoUpdate({
      target: [bankRailConfigs.businessId, bankRailConfigs.environment, bankRailConfigs.rail],
      set: { settings: row.settings, secretsEncrypted: row.secretsEncrypted, updatedAt: row.updatedAt },
    })
    .returning();
  if (saved === undefined) throw new Error("upsert returned no row");
  return { row: saved, created: saved.id === row.id };
}

export async function deleteConfig(db: Db, tenant: Tenant, rail: string): Promise<boolean> {
  const deleted = await db
    .delete(bankRailConfigs)
    .where(and(tenantIs(tenant), eq(bankRailConfigs.rail, rail)))
    .returning({ id: bankRailConfigs.id });
  return deleted.length > 0;
}

/** Whether payouts of the tenant wait for a file of this rail (a rail in use cannot be removed). */
export async function hasWaitingItems(db: Db, tenant: Tenant, rail: string): Promise<boolean> {
  const [row] = await db
    .select({ payoutId: bankFileItems.payoutId })
    .from(bankFileItems)
    .where(
      and(
        eq(bankFileItems.businessId, tenant.businessId),
        eq(bankFileItems.environment, tenant.environment),
        eq(bankFileItems.rail, rail),
        isNull(bankFileItems.fileId),
      ),
    )
    .limit(1);
  return row !== undefined;
}
