import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { businesses, memberships, users } from "../../platform/db/schema.js";

export type BusinessRow = typeof businesses.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;

async function insertOne<T>(rows: Promise<T[]>): Promise<T> {
  const [row] = await rows;
  if (row === undefined) throw new Error("insert returned no row");
  return row;
}

export function insertBusiness(db: Db, row: typeof businesses.$inferInsert): Promise<BusinessRow> {
  return insertOne(db.insert(businesses).values(row).returning());
}

export function insertUser(db: Db, row: typeof users.$inferInsert): Promise<UserRow> {
  return insertOne(db.insert(users).values(row).returning());
}

export function insertMembership(db: Db, row: typeof memberships.$inferInsert): Promise<MembershipRow> {
  return insertOne(db.insert(memberships).values(row).returning());
}

export async function userEmailExists(db: Db, email: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return rows.length > 0;
}

export async function findBusinessName(db: Db, businessId: string): Promise<string | null> {
  const rows = await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, businessId)).limit(1);
  return rows[0]?.name ?? null;
}
