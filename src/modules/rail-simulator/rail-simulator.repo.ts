// The one read the control endpoint needs: which environment a payout belongs to (any Business: the operator
// acts for the whole installation). Read-only; the payouts module owns every write to payouts.
import { eq } from "drizzle-orm";
import type { Environment } from "../../platform/auth/api-key-format.js";
import type { Db } from "../../platform/db/client.js";
import { payouts } from "../../platform/db/schema.js";

export async function findPayoutEnvironment(db: Db, payoutId: string): Promise<Environment | null> {
  const [row] = await db.select({ environment: payouts.environment }).from(payouts).where(eq(payouts.id, payoutId)).limit(1);
  return row?.environment ?? null;
}
