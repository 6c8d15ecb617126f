// What the registration module offers other modules over its tables (and the Businesses it creates): named
// queries that run in the caller's transaction. Other modules import this file (or index.ts), never
// registration.schema.ts.
import { eq, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { type Db, queryRows, type Tx } from "../../platform/db/client.js";
import { businesses } from "../../platform/db/shared.schema.js";
import { memberships } from "./registration.schema.js";

/**
 * The user behind a membership, as a scalar subquery of the caller's query (`membershipId`: the caller's
 * membership id column). Memberships are never deleted, so it is never null for a stored membership id.
 */
export function userIdOfMembership(membershipId: AnyPgColumn): SQL<string> {
  return sql<string>`(select ${memberships.userId} from ${memberships} where ${memberships.id} = ${membershipId})`;
}

export async function findBusinessName(db: Db, businessId: string): Promise<string | null> {
  const rows = await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, businessId)).limit(1);
  return rows[0]?.name ?? null;
}

/**
 * What the mail outbox needs to know about a recipient of a Business's e-mail, in one statement: whether
 * the address is one of the Business's members with a verified e-mail, and whether the Business has any.
 */
export async function emailRecipientFacts(
  tx: Tx,
  businessId: string,
  address: string,
): Promise<{ recipientIsVerifiedMember: boolean; businessHasVerifiedMember: boolean }> {
  const [row] = await queryRows<{ recipient: boolean; business: boolean }>(
    tx,
    sql`select
          coalesce(bool_or(u.email = ${address}), false) as recipient,
          count(*) > 0 as business
        from memberships m
        join users u on u.id = m.user_id
        where m.business_id = ${businessId} and u.email_verified_at is not null`,
  );
  return { recipientIsVerifiedMember: row?.recipient === true, businessHasVerifiedMember: row?.business === true };
}
