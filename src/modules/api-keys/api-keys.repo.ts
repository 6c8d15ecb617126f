// Drizzle queries for API keys. Every query that reads tenant data is scoped by (business, environment).
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import { type Db, preparedQuery, type Tx } from "../../platform/db/client.js";
import { ownedBy, ownedByPlaceholders } from "../../platform/db/tenant-scope.js";
import { removedAtOfMembership, roleOfMembership, userIdOfMembership } from "../registration/registration.shared.js";
import { apiKeys } from "./api-keys.schema.js";

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type NewApiKeyRow = typeof apiKeys.$inferInsert;

export async function insertApiKey(tx: Tx, row: NewApiKeyRow): Promise<ApiKeyRow> {
  const [inserted] = await tx.insert(apiKeys).values(row).returning();
  if (inserted === undefined) throw new Error("insert returned no row");
  return inserted;
}

export interface ApiKeyWithUser extends ApiKeyRow {
  readonly userId: string;
  /** The member's current role and removal: a key never acts above its member. */
  readonly memberRole: ApiKeyRow["role"];
  readonly memberRemovedAt: Date | null;
}

/** The authentication lookup: one indexed read by primary key, on every authenticated request (so prepared). */
export async function findApiKeyForAuth(db: Db, id: string): Promise<ApiKeyWithUser | null> {
  const query = preparedQuery(db, "api_keys_find_for_auth", (d) =>
    d
      .select({
        key: apiKeys,
        userId: userIdOfMembership(apiKeys.membershipId),
        memberRole: roleOfMembership(apiKeys.membershipId),
        memberRemovedAt: removedAtOfMembership(apiKeys.membershipId),
      })
      .from(apiKeys)
      .where(eq(apiKeys.id, sql.placeholder("id")))
      .limit(1),
  );
  const [row] = await query.execute({ id });
  return row === undefined
    ? null
    : { ...row.key, userId: row.userId, memberRole: row.memberRole, memberRemovedAt: row.memberRemovedAt };
}

/** Prepared: the list is the typical read. The first page and the pages after a cursor are two statements. */
export async function listApiKeys(db: Db, tenant: Tenant, afterId: string | null, limit: number): Promise<ApiKeyRow[]> {
  const values = { businessId: tenant.businessId, environment: tenant.environment, limit };
  if (afterId === null) {
    const firstPage = preparedQuery(db, "api_keys_list_first_page", (d) =>
      d.select().from(apiKeys).where(ownedByPlaceholders(apiKeys)).orderBy(desc(apiKeys.id)).limit(sql.placeholder("limit")),
    );
    return firstPage.execute(values);
  }
  const nextPage = preparedQuery(db, "api_keys_list_after_cursor", (d) =>
    d
      .select()
      .from(apiKeys)
      .where(and(ownedByPlaceholders(apiKeys), lt(apiKeys.id, sql.placeholder("afterId"))))
      .orderBy(desc(apiKeys.id))
      .limit(sql.placeholder("limit")),
  );
  return nextPage.execute({ ...values, afterId });
}

export async function findApiKey(tx: Tx, tenant: Tenant, id: string): Promise<ApiKeyRow | null> {
  const [row] = await tx
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), ownedBy(apiKeys, tenant)))
    .limit(1);
  return row ?? null;
}

/** Locks the tenant's active admin keys (serialises concurrent revocations) and returns their ids. */
export async function lockActiveAdminKeyIds(tx: Tx, tenant: Tenant): Promise<string[]> {
  const rows = await tx
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(ownedBy(apiKeys, tenant), eq(apiKeys.role, "business_admin"), isNull(apiKeys.revokedAt)))
    .for("update");
  return rows.map((row) => row.id);
}

/** Conditional revocation: only an active key changes; returns the row as it is afterwards. */
export async function revokeApiKey(tx: Tx, tenant: Tenant, id: string, at: Date): Promise<void> {
  await tx
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), ownedBy(apiKeys, tenant), isNull(apiKeys.revokedAt)));
}

/**
 * Revokes every live key of a membership, in both environments (a removed member's keys end for good, so
 * restoring the membership later gives none of them back). Answers the keys it revoked.
 */
export async function revokeApiKeysOfMembership(
  tx: Tx,
  businessId: string,
  membershipId: string,
  at: Date,
): Promise<{ id: string; environment: ApiKeyRow["environment"] }[]> {
  return tx
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.businessId, businessId), eq(apiKeys.membershipId, membershipId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, environment: apiKeys.environment });
}

/**
 * Records use of a key at most once per `granularityMs`, so a busy key does not turn every read into a
 * write. The condition makes concurrent requests update once.
 */
export async function touchApiKeyLastUsed(db: Db, id: string, at: Date, granularityMs: number): Promise<void> {
  const threshold = new Date(at.getTime() - granularityMs);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, threshold))));
}

export const LAST_USED_GRANULARITY_MS = 60_000;
