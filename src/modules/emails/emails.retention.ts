// Retention of captured sandbox mail: its bodies carry link tokens (sealed, but readable by anyone with a
// sandbox key of the Business), and it exists only for an integrator to read back what the service would
// have sent. The retention sweep (src/worker/retention.ts) deletes it a retention period after capture.
// Nothing else exists only for a captured e-mail: it has no `mail.send` job, no row refers to it, and its
// idempotency key names a fact that is never issued again (a collection request, a destination change).
// Sent mail keeps its row (no content, a recipient fingerprint): the daily limit and idempotency read it.
import { type Db, transaction } from "../../platform/db/client.js";
import { deleteCapturedEmailsBefore } from "./emails.repo.js";

/** Deletes up to `limit` captured e-mails created before `before`, in one transaction; answers how many. */
export function pruneCapturedEmails(db: Db, before: Date, limit: number): Promise<number> {
  return transaction(db, (tx) => deleteCapturedEmailsBefore(tx, before, limit));
}
