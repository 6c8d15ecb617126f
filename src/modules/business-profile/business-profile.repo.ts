// Drizzle queries on the Business's profile columns. `businesses` is declared by the platform (every tenant
// table references it); registration inserts its rows, and this module alone changes them afterwards
// (`npm run layers` checks both). Every query is keyed by the caller's Business id, never by a body field.
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../platform/db/client.js";
import { businesses } from "../../platform/db/shared.schema.js";

export type BusinessProfileRow = typeof businesses.$inferSelect;

/** The profile columns a change may write (not the id, not `created_at`). */
export type BusinessProfilePatch = Partial<
  Pick<
    BusinessProfileRow,
    "name" | "legalName" | "country" | "registrationNumber" | "taxId" | "supportEmail" | "website" | "timeZone"
  >
>;

export async function findBusinessProfile(db: Db, businessId: string): Promise<BusinessProfileRow | null> {
  const [row] = await db.select().from(businesses).where(eq(businesses.id, businessId)).limit(1);
  return row ?? null;
}

/** The row locked for the change, so two admins editing at once take turns and each audits what it replaced. */
export async function lockBusinessProfile(tx: Tx, businessId: string): Promise<BusinessProfileRow | null> {
  const [row] = await tx.select().from(businesses).where(eq(businesses.id, businessId)).limit(1).for("update");
  return row ?? null;
}

export async function updateBusinessProfile(
  tx: Tx,
  businessId: string,
  patch: BusinessProfilePatch,
  updatedAt: Date,
): Promise<BusinessProfileRow> {
  const [row] = await tx
    .update(businesses)
    .set({ ...patch, updatedAt })
    .where(eq(businesses.id, businessId))
    .returning();
  if (row === undefined) throw new Error("the locked Business vanished");
  return row;
}
