// The e-mails use cases enqueued: the durable `mail.send` jobs, unsealed with the service's cipher. Reading the
// queue (not an SMTP server) sees every message a use case asked for, however the worker later delivers it.
import { asc, eq } from "drizzle-orm";
import { jobs } from "../../src/platform/db/schema.js";
import { MAIL_SEND_JOB, type SealedMailJobPayload } from "../../src/platform/mail/mail-job.js";
import type { TestApp } from "./test-app.js";

export interface QueuedMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly idempotency_key: string;
}

/** Every queued message, oldest first; `to` keeps only those for that recipient. */
export async function queuedMails(t: TestApp, to?: string): Promise<QueuedMail[]> {
  const rows = await t.runtime.deps.database.db
    .select({ payload: jobs.payload })
    .from(jobs)
    .where(eq(jobs.type, MAIL_SEND_JOB))
    .orderBy(asc(jobs.createdAt), asc(jobs.id));
  const mails = rows.map((row) => {
    const payload = row.payload as SealedMailJobPayload;
    const content = JSON.parse(t.runtime.deps.cipher.decrypt(payload.sealed)) as Omit<QueuedMail, "idempotency_key">;
    return { ...content, idempotency_key: payload.idempotency_key };
  });
  return to === undefined ? mails : mails.filter((mail) => mail.to.toLowerCase() === to.toLowerCase());
}
