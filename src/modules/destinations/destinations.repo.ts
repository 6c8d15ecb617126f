// Drizzle queries for destinations, always scoped by tenant and Beneficiary.
import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import { type Db, queryRows, type Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { destinationPolicies, destinations } from "./destinations.schema.js";

export type DestinationRow = typeof destinations.$inferSelect;
export type NewDestinationRow = typeof destinations.$inferInsert;

const scoped = (tenant: Tenant, beneficiaryId: string) =>
  and(ownedBy(destinations, tenant), eq(destinations.beneficiaryId, beneficiaryId));

export async function insertDestination(tx: Tx, row: NewDestinationRow): Promise<DestinationRow> {
  const [inserted] = await tx.insert(destinations).values(row).returning();
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

/** A live destination locked for a change of its account details (a notification of change applied). */
export async function lockLiveDestination(
  tx: Tx,
  tenant: Tenant,
  beneficiaryId: string,
  id: string,
): Promise<DestinationRow | null> {
  const [row] = await tx
    .select()
    .from(destinations)
    .where(and(scoped(tenant, beneficiaryId), eq(destinations.id, id), isNull(destinations.deletedAt)))
    .for("update")
    .limit(1);
  return row ?? null;
}

/** Replaces a destination's account details in place (same id), as a notification of change corrects them. */
export async function correctDestination(
  tx: Tx,
  tenant: Tenant,
  beneficiaryId: string,
  id: string,
  patch: Partial<NewDestinationRow>,
): Promise<DestinationRow> {
  const [row] = await tx
    .update(destinations)
    .set(patch)
    .where(and(scoped(tenant, beneficiaryId), eq(destinations.id, id)))
    .returning();
  if (row === undefined) throw new Error("the locked destination vanished");
  return row;
}

export async function markDestinationDeleted(tx: Tx, tenant: Tenant, beneficiaryId: string, id: string, at: Date): Promise<void> {
  await tx
    .update(destinations)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(scoped(tenant, beneficiaryId), eq(destinations.id, id), isNull(destinations.deletedAt)));
}

/**
 * `mask_version < version` with the version written into the statement (a small integer constant), so the
 * planner can match the partial index destinations_mask_pending_idx, which a bound parameter would not.
 */
function maskedBefore(version: number): SQL {
  if (!Number.isInteger(version)) throw new Error("mask version must be an integer");
  return sql`${destinations.maskVersion} < ${sql.raw(String(version))}`;
}

/** Destinations whose masked value follows an older masking rule, deleted ones included, locked for the rest of the transaction. */
export async function lockDestinationsToRemask(
  tx: Tx,
  version: number,
  limit: number,
): Promise<Array<Pick<DestinationRow, "id" | "last4" | "pixKeyType" | "sensitiveEncrypted">>> {
  return tx
    .select({
      id: destinations.id,
      last4: destinations.last4,
      pixKeyType: destinations.pixKeyType,
      sensitiveEncrypted: destinations.sensitiveEncrypted,
    })
    .from(destinations)
    .where(maskedBefore(version))
    .orderBy(asc(destinations.id))
    .limit(limit)
    .for("update", { skipLocked: true });
}

/** Stores re-masked values and the rule version they follow, in one statement. */
export async function saveRemaskedDestinations(
  tx: Tx,
  version: number,
  rows: ReadonlyArray<{ readonly id: string; readonly last4: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    update destinations d set last4 = r.last4, mask_version = ${version}
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(id uuid, last4 text)
    where d.id = r.id`);
}

/** Whether any destination still follows an older masking rule (served by destinations_mask_pending_idx). */
export async function anyDestinationToRemask(db: Db, version: number): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(db, sql`select id from ${destinations} where ${maskedBefore(version)} limit 1`);
  return rows.length > 0;
}

export type RoutingFactsRow = Pick<
  DestinationRow,
  "id" | "kind" | "scheme" | "country" | "currency" | "accountType" | "accountHolderName" | "beneficiaryId" | "swiftBic"
>;

/**
 * What the payout routing rule needs to know of destinations of the tenant (deleted ones included), in one
 * query however many (a bulk creation asks for all its rows at once). Unknown ids are absent.
 */
export async function findRoutingFactsOf(db: Db, tenant: Tenant, ids: readonly string[]): Promise<RoutingFactsRow[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: destinations.id,
      kind: destinations.kind,
      accountHolderName: destinations.accountHolderName,
      beneficiaryId: destinations.beneficiaryId,
      scheme: destinations.scheme,
      country: destinations.country,
      currency: destinations.currency,
      accountType: destinations.accountType,
      swiftBic: destinations.swiftBic,
    })
    .from(destinations)
    .where(and(ownedBy(destinations, tenant), inArray(destinations.id, [...new Set(ids)])));
}

/** A destination of the tenant by id, deleted ones included (the name-check job knows no Beneficiary id). */
export async function findDestinationOfTenant(db: Db, tenant: Tenant, id: string): Promise<DestinationRow | null> {
  const [row] = await db
    .select()
    .from(destinations)
    .where(and(ownedBy(destinations, tenant), eq(destinations.id, id)))
    .limit(1);
  return row ?? null;
}

/** Records a payee name check's answer on a destination (the row is locked by the caller). */
export async function recordNameCheck(
  tx: Tx,
  tenant: Tenant,
  id: string,
  check: Pick<NewDestinationRow, "nameCheckResult" | "nameCheckBankName" | "nameCheckSource" | "nameCheckAt">,
): Promise<void> {
  await tx
    .update(destinations)
    .set(check)
    .where(and(ownedBy(destinations, tenant), eq(destinations.id, id)));
}

// Destination policy -------------------------------------------------------------------------------------------

export type DestinationPolicyRow = typeof destinationPolicies.$inferSelect;

/** The tenant's policy row locked for a change (null: none yet; the insert then races on the primary key). */
export async function lockDestinationPolicy(tx: Tx, tenant: Tenant): Promise<DestinationPolicyRow | null> {
  const [row] = await tx.select().from(destinationPolicies).where(ownedBy(destinationPolicies, tenant)).for("update");
  return row ?? null;
}

export async function upsertDestinationPolicy(tx: Tx, row: DestinationPolicyRow): Promise<DestinationPolicyRow> {
  const [saved] = await tx
    .insert(destinationPolicies)
    .values(row)
    .onConflictDoUpdate({
      target: [destinationPolicies.businessId, destinationPolicies.environment],
      set: {
        requireApproval: row.requireApproval,
        coolingOffHours: row.coolingOffHours,
        nameCheck: row.nameCheck,
        screening: row.screening,
        updatedAt: row.updatedAt,
        updatedBy: row.updatedBy,
      },
    })
    .returning();
  if (saved === undefined) throw new Error("upsert returned no row");
  return saved;
}

// Approval of bank details ------------------------------------------------------------------------------------

/**
 * Records a person's decision on pending bank details, conditionally: only a live destination still
 * `pending_approval` moves (the loser of two racing decisions gets null).
 */
export async function decideDestinationApproval(
  tx: Tx,
  tenant: Tenant,
  beneficiaryId: string,
  id: string,
  patch: Pick<NewDestinationRow, "approvalStatus" | "approvedBy" | "approvedAt" | "usableFrom" | "rejectionReason" | "updatedAt">,
): Promise<DestinationRow | null> {
  const [row] = await tx
    .update(destinations)
    .set(patch)
    .where(
      and(
        scoped(tenant, beneficiaryId),
        eq(destinations.id, id),
        isNull(destinations.deletedAt),
        eq(destinations.approvalStatus, "pending_approval"),
      ),
    )
    .returning();
  return row ?? null;
}

/** Restarts the cooling-off of an approved destination (it became the declared destination). */
export async function restartDestinationCoolingOff(
  tx: Tx,
  tenant: Tenant,
  id: string,
  usableFrom: Date,
  at: Date,
): Promise<void> {
  await tx
    .update(destinations)
    .set({ usableFrom, updatedAt: at })
    .where(and(ownedBy(destinations, tenant), eq(destinations.id, id), eq(destinations.approvalStatus, "approved")));
}

/** The tenant's live destinations waiting for approval, newest first (the bank-detail approvals queue). */
export async function listPendingApproval(db: Db, tenant: Tenant, limit: number): Promise<DestinationRow[]> {
  return db
    .select()
    .from(destinations)
    .where(
      and(ownedBy(destinations, tenant), eq(destinations.approvalStatus, "pending_approval"), isNull(destinations.deletedAt)),
    )
    .orderBy(desc(destinations.id))
    .limit(limit);
}
