// One batch of a sweep that deletes rows past their use (the retention sweep's owners call it on their own
// tables, each in a transaction of its own).
import { inArray, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Tx } from "./client.js";

/**
 * Deletes up to `limit` rows of `table` that match `where`, and answers how many. The rows are locked first with
 * SKIP LOCKED, so two sweeps at once take different rows and neither waits for the other, and deleting what is
 * already gone does nothing.
 */
export async function deleteBatch(tx: Tx, table: PgTable, id: PgColumn, where: SQL | undefined, limit: number): Promise<number> {
  const doomed = tx.select({ id }).from(table).where(where).limit(limit).for("update", { skipLocked: true });
  const deleted = await tx.delete(table).where(inArray(id, doomed)).returning({ id });
  return deleted.length;
}
