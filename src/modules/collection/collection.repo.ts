// Drizzle queries for collection requests and tax documents. API reads are scoped by tenant and Beneficiary;
// the hosted pages find a request by the hash of its token (the token is the only credential a page has).
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db, Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { beneficiaryTaxDocuments, collectionBrandings, collectionRequests } from "./collection.schema.js";

export type CollectionRequestRow = typeof collectionRequests.$inferSelect;
export type NewCollectionRequestRow = typeof collectionRequests.$inferInsert;
export type NewTaxDocumentRow = typeof beneficiaryTaxDocuments.$inferInsert;

export async function insertCollectionRequest(tx: Tx, row: NewCollectionRequestRow): Promise<CollectionRequestRow> {
  const [inserted] = await tx.insert(collectionRequests).values(row).returning();
  if (inserted === undefined) throw new Error("insert returned no row");
  return inserted;
}

/** Closes every open request of the Beneficiary as superseded (a resend invalidates the live link). */
export async function supersedeOpenRequests(tx: Tx, tenant: Tenant, beneficiaryId: string, at: Date): Promise<void> {
  await tx
    .update(collectionRequests)
    .set({ closedAt: at, closedReason: "superseded" })
    .where(
      and(
        ownedBy(collectionRequests, tenant),
        eq(collectionRequests.beneficiaryId, beneficiaryId),
        isNull(collectionRequests.closedAt),
      ),
    );
}

export async function findRequestOfBeneficiary(
  tx: Tx,
  tenant: Tenant,
  beneficiaryId: string,
  id: string,
): Promise<CollectionRequestRow | null> {
  const [row] = await tx
    .select()
    .from(collectionRequests)
    .where(
      and(
        eq(collectionRequests.id, id),
        eq(collectionRequests.beneficiaryId, beneficiaryId),
        ownedBy(collectionRequests, tenant),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Cancels an open request; a closed one is left as it is (cancel is idempotent). */
export async function cancelRequest(tx: Tx, id: string, at: Date): Promise<void> {
  await tx
    .update(collectionRequests)
    .set({ closedAt: at, closedReason: "cancelled" })
    .where(and(eq(collectionRequests.id, id), isNull(collectionRequests.closedAt)));
}

export async function findRequestByTokenHash(db: Db, tokenHash: string): Promise<CollectionRequestRow | null> {
  const [row] = await db.select().from(collectionRequests).where(eq(collectionRequests.tokenHash, tokenHash)).limit(1);
  return row ?? null;
}

/**
 * Consumes a live request: the conditional update that makes a double submit (two tabs, the back button)
 * record nothing twice. True only for the one submission that closed it.
 */
export async function consumeRequest(tx: Tx, id: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(collectionRequests)
    .set({ closedAt: now, closedReason: "consumed" })
    .where(and(eq(collectionRequests.id, id), isNull(collectionRequests.closedAt), gt(collectionRequests.expiresAt, now)))
    .returning({ id: collectionRequests.id });
  return rows.length === 1;
}

export async function insertTaxDocument(tx: Tx, row: NewTaxDocumentRow): Promise<void> {
  await tx.insert(beneficiaryTaxDocuments).values(row);
}

/** The encrypted form a Beneficiary submitted at `submittedAt` (the latest one when several share the instant). */
export async function findTaxDocumentSubmittedAt(tx: Tx, beneficiaryId: string, submittedAt: Date): Promise<string | null> {
  const [row] = await tx
    .select({ documentEncrypted: beneficiaryTaxDocuments.documentEncrypted })
    .from(beneficiaryTaxDocuments)
    .where(and(eq(beneficiaryTaxDocuments.beneficiaryId, beneficiaryId), eq(beneficiaryTaxDocuments.submittedAt, submittedAt)))
    .orderBy(desc(beneficiaryTaxDocuments.id))
    .limit(1);
  return row?.documentEncrypted ?? null;
}

export type BrandingRow = typeof collectionBrandings.$inferSelect;

export async function findBranding(db: Db, tenant: Tenant): Promise<BrandingRow | null> {
  const [row] = await db.select().from(collectionBrandings).where(ownedBy(collectionBrandings, tenant)).limit(1);
  return row ?? null;
}

/** Writes the tenant's branding (one row per Business and environment). */
export async function upsertBranding(tx: Tx, row: BrandingRow): Promise<BrandingRow> {
  const [saved] = await tx
    .insert(collectionBrandings)
    .values(row)
    .onConflictDoUpdate({
      target: [collectionBrandings.businessId, collectionBrandings.environment],
      set: {
        displayName: row.displayName,
        brandColor: row.brandColor,
        logoMediaType: row.logoMediaType,
        logoBase64: row.logoBase64,
        updatedAt: row.updatedAt,
      },
    })
    .returning();
  if (saved === undefined) throw new Error("upsert returned no row");
  return saved;
}
