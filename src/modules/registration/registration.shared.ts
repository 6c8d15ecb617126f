// What the registration module offers other modules over its tables (and the Businesses it creates): named
// queries that run in the caller's transaction. Other modules import this file (or index.ts), never
// registration.schema.ts.
import { and, asc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Role } from "../../platform/auth/actor.js";
import { type Db, queryRows, type Tx } from "../../platform/db/client.js";
import { businesses } from "../../platform/db/shared.schema.js";
import { memberships, users } from "./registration.schema.js";

/**
 * The user behind a membership, as a scalar subquery of the caller's query (`membershipId`: the caller's
 * membership id column). Memberships are never deleted, so it is never null for a stored membership id.
 */
export function userIdOfMembership(membershipId: AnyPgColumn): SQL<string> {
  return sql<string>`(select ${memberships.userId} from ${memberships} where ${memberships.id} = ${membershipId})`;
}

/** The membership's current role, as a scalar subquery of the caller's query (see userIdOfMembership). */
export function roleOfMembership(membershipId: AnyPgColumn): SQL<Role> {
  return sql<Role>`(select ${memberships.role} from ${memberships} where ${memberships.id} = ${membershipId})`;
}

/** When the membership was removed (null while it is live), as a scalar subquery of the caller's query. */
export function removedAtOfMembership(membershipId: AnyPgColumn): SQL<Date | null> {
  return sql<Date | null>`(select ${memberships.removedAt} from ${memberships} where ${memberships.id} = ${membershipId})`.mapWith(
    memberships.removedAt,
  );
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

// Users and memberships for the people module (sign-in, the team, password changes).

export interface UserRecord {
  readonly id: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly createdAt: Date;
}

export interface MembershipRecord {
  readonly membershipId: string;
  readonly businessId: string;
  readonly businessName: string;
  readonly userId: string;
  readonly email: string;
  readonly role: Role;
  readonly createdAt: Date;
}

const membershipColumns = {
  membershipId: memberships.id,
  businessId: memberships.businessId,
  businessName: businesses.name,
  userId: memberships.userId,
  email: users.email,
  role: memberships.role,
  createdAt: memberships.createdAt,
};

export async function findUserById(db: Db, userId: string): Promise<UserRecord | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

export async function findUserByAddress(db: Db, email: string): Promise<UserRecord | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

/** Creates a person with a verified address (an invitation token came back from it). */
export async function insertVerifiedUser(tx: Tx, row: { id: string; email: string; passwordHash: string; now: Date }) {
  await tx
    .insert(users)
    .values({ id: row.id, email: row.email, passwordHash: row.passwordHash, emailVerifiedAt: row.now, createdAt: row.now });
}

export async function setUserPassword(tx: Tx, userId: string, passwordHash: string): Promise<void> {
  await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

/** The person's current (not removed) memberships, oldest first, with each Business's name. */
export function listActiveMembershipsOfUser(db: Db, userId: string): Promise<MembershipRecord[]> {
  return db
    .select(membershipColumns)
    .from(memberships)
    .innerJoin(businesses, eq(businesses.id, memberships.businessId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.userId, userId), isNull(memberships.removedAt)))
    .orderBy(asc(memberships.createdAt), asc(memberships.id));
}

export function listActiveMembersOfBusiness(db: Db, businessId: string): Promise<MembershipRecord[]> {
  return db
    .select(membershipColumns)
    .from(memberships)
    .innerJoin(businesses, eq(businesses.id, memberships.businessId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.businessId, businessId), isNull(memberships.removedAt)))
    .orderBy(asc(memberships.createdAt), asc(memberships.id));
}

/** The membership of a person in a Business, removed or not (a removed one may be restored by an invitation). */
export async function findMembershipOfUser(
  db: Db,
  businessId: string,
  userId: string,
): Promise<{ id: string; removedAt: Date | null } | null> {
  const [row] = await db
    .select({ id: memberships.id, removedAt: memberships.removedAt })
    .from(memberships)
    .where(and(eq(memberships.businessId, businessId), eq(memberships.userId, userId)))
    .limit(1);
  return row ?? null;
}

/**
 * Locks the Business's active admin memberships and the named membership (in id order, so two callers
 * never deadlock) and answers them: a role change or a removal decides "is another admin left" on rows
 * no one else can change until it commits. Under READ COMMITTED a waiting locker re-reads the rows, so a
 * membership demoted meanwhile no longer counts.
 */
export async function lockAdminsAndMember(
  tx: Tx,
  businessId: string,
  membershipId: string,
): Promise<{ adminIds: string[]; member: MembershipRecord | null }> {
  const rows = await tx
    .select({ id: memberships.id, role: memberships.role })
    .from(memberships)
    .where(
      and(
        eq(memberships.businessId, businessId),
        isNull(memberships.removedAt),
        sql`(${memberships.role} = 'business_admin' or ${memberships.id} = ${membershipId})`,
      ),
    )
    .orderBy(asc(memberships.id))
    .for("update");
  const adminIds = rows.filter((row) => row.role === "business_admin").map((row) => row.id);
  if (!rows.some((row) => row.id === membershipId)) return { adminIds, member: null };
  const [member] = await tx
    .select(membershipColumns)
    .from(memberships)
    .innerJoin(businesses, eq(businesses.id, memberships.businessId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.id, membershipId));
  return { adminIds, member: member ?? null };
}

export async function setMembershipRole(tx: Tx, membershipId: string, role: Role): Promise<void> {
  await tx
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.id, membershipId), isNull(memberships.removedAt)));
}

export async function markMembershipRemoved(tx: Tx, membershipId: string, now: Date): Promise<void> {
  await tx
    .update(memberships)
    .set({ removedAt: now })
    .where(and(eq(memberships.id, membershipId), isNull(memberships.removedAt)));
}

/** Adds a person to a Business, or restores a removed membership with the new role; null when already an active member. */
export async function addOrRestoreMembership(
  tx: Tx,
  row: { id: string; businessId: string; userId: string; role: Role; now: Date },
): Promise<string | null> {
  const [inserted] = await tx
    .insert(memberships)
    .values({ id: row.id, businessId: row.businessId, userId: row.userId, role: row.role, createdAt: row.now })
    .onConflictDoUpdate({
      target: [memberships.businessId, memberships.userId],
      set: { role: row.role, removedAt: null },
      setWhere: sql`${memberships.removedAt} is not null`,
    })
    .returning({ id: memberships.id });
  return inserted?.id ?? null;
}

export async function userIdsWithEmails(db: Db, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.id, [...userIds]));
  return new Map(rows.map((row) => [row.id, row.email]));
}
