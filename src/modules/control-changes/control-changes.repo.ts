// Drizzle queries on pending_control_changes; every query is scoped to the caller's Business and environment.
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db, Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { type ControlChangeStatus, pendingControlChanges } from "./control-changes.schema.js";

export type ControlChangeRow = typeof pendingControlChanges.$inferSelect;
export type NewControlChangeRow = typeof pendingControlChanges.$inferInsert;

export async function insertControlChange(tx: Tx, row: NewControlChangeRow): Promise<ControlChangeRow> {
  const [inserted] = await tx.insert(pendingControlChanges).values(row).returning();
  if (inserted === undefined) throw new Error("control change insert returned no row");
  return inserted;
}

/** Marks the pending change of a control (if any) superseded by a newer proposal; answers its id. */
export async function supersedePending(
  tx: Tx,
  tenant: Tenant,
  kind: string,
  subjectId: string,
  now: Date,
): Promise<string | null> {
  const [row] = await tx
    .update(pendingControlChanges)
    .set({ status: "superseded", decidedAt: now })
    .where(
      and(
        ownedBy(pendingControlChanges, tenant),
        eq(pendingControlChanges.kind, kind),
        eq(pendingControlChanges.subjectId, subjectId),
        eq(pendingControlChanges.status, "pending"),
      ),
    )
    .returning({ id: pendingControlChanges.id });
  return row?.id ?? null;
}

export async function findControlChange(db: Db, tenant: Tenant, id: string): Promise<ControlChangeRow | null> {
  const [row] = await db
    .select()
    .from(pendingControlChanges)
    .where(and(ownedBy(pendingControlChanges, tenant), eq(pendingControlChanges.id, id)))
    .limit(1);
  return row ?? null;
}

/** Locked for a decision: a second decision waits, then finds it decided. */
export async function lockControlChange(tx: Tx, tenant: Tenant, id: string): Promise<ControlChangeRow | null> {
  const [row] = await tx
    .select()
    .from(pendingControlChanges)
    .where(and(ownedBy(pendingControlChanges, tenant), eq(pendingControlChanges.id, id)))
    .limit(1)
    .for("update");
  return row ?? null;
}

export async function decideControlChange(
  tx: Tx,
  tenant: Tenant,
  id: string,
  patch: Pick<ControlChangeRow, "status" | "decidedAt" | "decidedByApiKeyId" | "decidedByMembershipId" | "decidedByUserId">,
): Promise<ControlChangeRow | null> {
  const [row] = await tx
    .update(pendingControlChanges)
    .set(patch)
    .where(
      and(ownedBy(pendingControlChanges, tenant), eq(pendingControlChanges.id, id), eq(pendingControlChanges.status, "pending")),
    )
    .returning();
  return row ?? null;
}

/** Newest first (ids are UUIDv7), `limit` rows after the cursor's id. */
export async function listControlChanges(
  db: Db,
  tenant: Tenant,
  status: ControlChangeStatus | undefined,
  afterId: string | null,
  limit: number,
): Promise<ControlChangeRow[]> {
  const conditions: SQL[] = [ownedBy(pendingControlChanges, tenant)];
  if (status !== undefined) conditions.push(eq(pendingControlChanges.status, status));
  if (afterId !== null) conditions.push(lt(pendingControlChanges.id, afterId));
  return db
    .select()
    .from(pendingControlChanges)
    .where(and(...conditions))
    .orderBy(desc(pendingControlChanges.id))
    .limit(limit);
}
