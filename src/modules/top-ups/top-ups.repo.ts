// Drizzle queries on the top_ups table; every query is scoped to the caller's Business and environment.
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db, Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { type TopUpStatus, topUps } from "./top-ups.schema.js";

export type TopUpRow = typeof topUps.$inferSelect;
export type NewTopUpRow = typeof topUps.$inferInsert;

export async function insertTopUp(tx: Tx, row: NewTopUpRow): Promise<TopUpRow> {
  const [inserted] = await tx.insert(topUps).values(row).returning();
  if (inserted === undefined) throw new Error("top-up insert returned no row");
  return inserted;
}

export async function findTopUp(db: Db, tenant: Tenant, id: string): Promise<TopUpRow | null> {
  const [row] = await db
    .select()
    .from(topUps)
    .where(and(ownedBy(topUps, tenant), eq(topUps.id, id)))
    .limit(1);
  return row ?? null;
}

export interface TopUpFilters {
  readonly status?: TopUpStatus | undefined;
  readonly fundingAccountId?: string | undefined;
}

/** Newest first (ids are UUIDv7), `limit` rows after the cursor's id. */
export async function listTopUps(
  db: Db,
  tenant: Tenant,
  filters: TopUpFilters,
  afterId: string | null,
  limit: number,
): Promise<TopUpRow[]> {
  const conditions: SQL[] = [ownedBy(topUps, tenant)];
  if (filters.status !== undefined) conditions.push(eq(topUps.status, filters.status));
  if (filters.fundingAccountId !== undefined) conditions.push(eq(topUps.fundingAccountId, filters.fundingAccountId));
  if (afterId !== null) conditions.push(lt(topUps.id, afterId));
  return db
    .select()
    .from(topUps)
    .where(and(...conditions))
    .orderBy(desc(topUps.id))
    .limit(limit);
}

export type TopUpDecisionPatch = Pick<
  TopUpRow,
  | "status"
  | "decidedByApiKeyId"
  | "decidedByMembershipId"
  | "decidedByUserId"
  | "decidedAt"
  | "reason"
  | "transferId"
  | "updatedAt"
>;

/**
 * The one move out of `pending_approval`: conditional on the status, so of two racing decisions one updates
 * the row and the other gets null (and answers 409).
 */
export async function decideTopUp(tx: Tx, tenant: Tenant, id: string, patch: TopUpDecisionPatch): Promise<TopUpRow | null> {
  const [row] = await tx
    .update(topUps)
    .set(patch)
    .where(and(ownedBy(topUps, tenant), eq(topUps.id, id), eq(topUps.status, "pending_approval")))
    .returning();
  return row ?? null;
}

/** The row locked for a decision: a second decision waits, then finds it decided. Locked before the funding row. */
export async function lockTopUp(tx: Tx, tenant: Tenant, id: string): Promise<TopUpRow | null> {
  const [row] = await tx
    .select()
    .from(topUps)
    .where(and(ownedBy(topUps, tenant), eq(topUps.id, id)))
    .limit(1)
    .for("update");
  return row ?? null;
}
