// What the collection module offers other modules over its tables: named queries that run in the caller's
// transaction. Other modules import this file (or index.ts), never collection.schema.ts.
import { and, eq, gt, isNull } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { collectionRequests } from "./collection.schema.js";

/**
 * A read-only left join of a Beneficiary's open collection request (not consumed, cancelled or superseded)
 * for the Beneficiary reads: `beneficiaryId` is the caller's Beneficiary id column. The partial unique index
 * `collection_requests_one_open_key` guarantees at most one, so the join never repeats a row. Its columns
 * are flat (`openRequestId`, `openRequestScope`, `openRequestExpiresAt`) and null when there is none.
 */
export function openCollectionRequestJoin(beneficiaryId: AnyPgColumn) {
  return {
    table: collectionRequests,
    on: and(eq(collectionRequests.beneficiaryId, beneficiaryId), isNull(collectionRequests.closedAt)),
    columns: {
      openRequestId: collectionRequests.id,
      openRequestScope: collectionRequests.scope,
      openRequestExpiresAt: collectionRequests.expiresAt,
    },
  };
}

/**
 * Closes the Beneficiary's live request as `archived` (archiving runs this in its own transaction). An expired
 * one is left as it is, so its page keeps saying it expired.
 */
export async function closeRequestsOfArchived(tx: Tx, tenant: Tenant, beneficiaryId: string, at: Date): Promise<void> {
  await tx
    .update(collectionRequests)
    .set({ closedAt: at, closedReason: "archived" })
    .where(
      and(
        ownedBy(collectionRequests, tenant),
        eq(collectionRequests.beneficiaryId, beneficiaryId),
        isNull(collectionRequests.closedAt),
        gt(collectionRequests.expiresAt, at),
      ),
    );
}
