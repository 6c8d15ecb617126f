// Drizzle queries for destinations, always scoped by tenant and Beneficiary.
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { destinations } from "../../platform/db/schema.js";

export type DestinationRow = typeof destinations.$inferSelect;
export type NewDestinationRow = typeof destinations.$inferInsert;

const scoped = (tenant: Tenant, beneficiaryId: string) =>
  and(
    eq(destinations.businessId, tenant.businessId),
    eq(destinations.environment, tenant.environment),
    eq(destinations.beneficiaryId, beneficiaryId),
  );

export async function insertDestination(db: Db, row: NewDestinationRow): Promise<DestinationRow> {
  const [inserted] = await db.insert(destinations).values(row).returning();
  if (inserted === undefined) throw new Error("insert returned no row");
  return inserted;
}

/** Live (not deleted) destinations of a Beneficiary, oldest first. */
export async function listLiveDestinations(db: Db, tenant: Tenant, beneficiaryId: string): Promise<DestinationRow[]> {
  return db
    .select()
    .from(destinations)
    .where(and(scoped(tenant, beneficiaryId), isNull(destinations.deletedAt)))
    .orderBy(asc(destinations.id));
}

/** Any destination of the Beneficiary by id, deleted ones included (deletion is idempotent). */
export async function findDestination(db: Db, tenant: Tenant, beneficiaryId: string, id: string): Promise<DestinationRow | null> {
  const [row] = await db
    .select()
    .from(destinations)
    .where(and(scoped(tenant, beneficiaryId), eq(destinations.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findLiveByFingerprint(
  db: Db,
  tenant: Tenant,
  beneficiaryId: string,
  fingerprint: string,
): Promise<DestinationRow | null> {
  const [row] = await db
    .select()
    .from(destinations)
    .where(and(scoped(tenant, beneficiaryId), eq(destinations.fingerprint, fingerprint), isNull(destinations.deletedAt)))
    .limit(1);
  return row ?? null;
}

export async function markDestinationDeleted(db: Db, tenant: Tenant, beneficiaryId: string, id: string, at: Date): Promise<void> {
  await db
    .update(destinations)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(scoped(tenant, beneficiaryId), eq(destinations.id, id), isNull(destinations.deletedAt)));
}
