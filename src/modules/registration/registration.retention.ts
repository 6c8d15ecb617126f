// Retention of pending registrations: a registration is useless once its token expired (verification refuses
// it, and the per-recipient limit counts only the last 24 hours), but it still holds the address, the Business
// name and, when never verified, the password's hash. The retention sweep (src/worker/retention.ts) deletes it
// a grace period after its expiry.
import { type Db, transaction } from "../../platform/db/client.js";
import { deleteExpiredPendingRegistrations } from "./registration.repo.js";

/** Deletes up to `limit` registrations whose token expired before `before`, in one transaction; answers how many. */
export function pruneExpiredRegistrations(db: Db, before: Date, limit: number): Promise<number> {
  return transaction(db, (tx) => deleteExpiredPendingRegistrations(tx, before, limit));
}
