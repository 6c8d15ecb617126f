// Queries the business-profile module offers other modules, in the caller's handle or transaction.
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/client.js";
import { businesses } from "../../platform/db/shared.schema.js";

/**
 * The Business's IANA time zone, or UTC when it set none: the zone whose calendar days the daily payout limits
 * count in (payout-limits).
 */
export async function findBusinessTimeZone(db: Db, businessId: string): Promise<string> {
  const [row] = await db.select({ timeZone: businesses.timeZone }).from(businesses).where(eq(businesses.id, businessId)).limit(1);
  return row?.timeZone ?? "UTC";
}
