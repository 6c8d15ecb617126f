// Every e-mail use cases issued, however the outbox disposed of it: the durable `mail.send` jobs (mail to be
// delivered) and the captured sandbox mail (kept in the sandbox mailbox instead), both unsealed with the
// service's cipher. A test of "the payee is told" reads here, so it holds in sandbox and production alike.
import { asc, eq } from "drizzle-orm";
import { emails } from "../../src/modules/emails/emails.schema.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import { MAIL_SEND_JOB, unsealMailJob } from "../../src/platform/mail/mail-job.js";
import type { TestApp } from "./test-app.js";

export interface QueuedMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly idempotency_key: string;
}

/** Every issued message, oldest first; `to` keeps only those for that recipient. */
export async function queuedMails(t: TestApp, to?: string): Promise<QueuedMail[]> {
  const db = t.runtime.deps.database.db;
  const { cipher } = t.runtime.deps;
  const queued = await db
    .select({ payload: jobs.payload, at: jobs.createdAt })
    .from(jobs)
    .where(eq(jobs.type, MAIL_SEND_JOB.type))
    .orderBy(asc(jobs.createdAt), asc(jobs.id));
  const captured = await db
    .select({ content: emails.contentEncrypted, key: emails.idempotencyKey, at: emails.createdAt })
    .from(emails)
    .where(eq(emails.disposition, "captured"))
    .orderBy(asc(emails.createdAt), asc(emails.id));
  const mails = [
    ...queued.map((row) => {
      const mail = unsealMailJob(row.payload, cipher);
      if (mail === null) throw new Error("a mail.send job does not hold a sealed message");
      return { at: row.at, mail };
    }),
    ...captured.map((row) => {
      const content = JSON.parse(cipher.decrypt(row.content ?? "")) as Omit<QueuedMail, "idempotency_key">;
      return { at: row.at, mail: { ...content, idempotency_key: row.key } };
    }),
  ]
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .map((entry) => entry.mail);
  return to === undefined ? mails : mails.filter((mail) => mail.to.toLowerCase() === to.toLowerCase());
}
