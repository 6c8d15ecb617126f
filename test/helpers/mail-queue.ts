// Reading e-mail the service queued, in an in-process test: the `mail.send` jobs not yet sent, unsealed with
// the service's own cipher, as the worker would read them. What a person would find in their inbox.
import { sql } from "drizzle-orm";
import { queryRows } from "../../src/platform/db/client.js";
import { type MailJobPayload, unsealMailJob } from "../../src/platform/mail/mail-job.js";
import type { TestApp } from "./test-app.js";

export interface QueuedMail extends MailJobPayload {
  readonly jobId: string;
  readonly runAt: Date;
}

/** Pending mail jobs, oldest first, optionally only those whose idempotency key starts with `keyPrefix`. */
export async function queuedMail(t: TestApp, keyPrefix = ""): Promise<QueuedMail[]> {
  const rows = await queryRows<{ id: string; payload: unknown; run_at: string | Date }>(
    t.runtime.deps.database.db,
    sql`select id, payload, run_at from jobs
        where type = 'mail.send' and status = 'pending' and dedupe_key like ${`mail:${keyPrefix}%`}
        order by created_at, id`,
  );
  return rows.map((row) => {
    const message = unsealMailJob(row.payload, t.runtime.deps.cipher);
    if (message === null) throw new Error(`mail job ${row.id} does not hold a sealed message`);
    return { ...message, jobId: row.id, runAt: new Date(row.run_at) };
  });
}

/** The registration token in a registration e-mail (from the curl example it gives). */
export function registrationTokenIn(text: string): string {
  const match = /"token":"([A-Za-z0-9_-]{43})"/.exec(text);
  if (match?.[1] === undefined) throw new Error("no registration token in the e-mail");
  return match[1];
}

/**
 * Takes the registration e-mail queued for `email` off the queue (as the mail server would) and returns its
 * token. Removing the job keeps a test's own mail counts and worker drains about the mail it is testing.
 */
export async function takeRegistrationToken(t: TestApp, email: string): Promise<string> {
  const mails = (await queuedMail(t, "registration:")).filter((mail) => mail.to === email);
  const mail = mails[mails.length - 1];
  if (mail === undefined) throw new Error(`no registration e-mail queued for ${email}`);
  await t.runtime.deps.database.db.execute(sql`delete from jobs where id = ${mail.jobId}`);
  return registrationTokenIn(mail.text);
}
