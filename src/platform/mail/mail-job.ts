// E-mail as a durable job. A use case calls enqueueMail() inside its own transaction: the message exists
// exactly when the change that wants it committed, and a worker sends it afterwards (never inside a
// request or a transaction). Two guards against sending twice:
//  - enqueue: the job's dedupe key is `mail:<idempotency_key>`, so a retried use case enqueues nothing new;
//  - send: a worker can die after the relay accepted the message and before the job is marked done, and the
//    job then runs again. That second send cannot be undone, but it carries the same Message-ID (derived
//    from the idempotency key), so receivers and their clients recognise it as the same message.
import { createHash } from "node:crypto";
import { Type } from "@sinclair/typebox";
import type { FieldCipher } from "../crypto.js";
import type { Db } from "../db/client.js";
import { defineJob, jobHandler } from "../jobs/job-definition.js";
import type { JobStore } from "../jobs/job-store.js";
import { type JobHandlers, PermanentJobError } from "../jobs/worker.js";
import { parseMailbox } from "./address.js";
import { type Mailer, MailSendError } from "./mailer.js";

/** The job payload (stored as JSON in the jobs table, hence snake_case). */
export interface MailJobPayload {
  /** One recipient mailbox. */
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /**
   * Names the message for good: the same key is sent at most once per deployment, ever. Build it from the
   * business fact the message reports, e.g. `beneficiary-destination-changed:<event id>`, so that a retried
   * use case produces the same key and two distinct facts never share one.
   */
  readonly idempotency_key: string;
}

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

function isMailJobPayload(value: unknown): value is MailJobPayload {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return ["to", "subject", "text", "html", "idempotency_key"].every((field) => typeof record[field] === "string");
}

/** Refuses a payload that could never be sent, at enqueue time, where the caller's bug is visible. */
function assertSendable(message: MailJobPayload): void {
  if (parseMailbox(message.to) === null) throw new Error("enqueueMail: `to` must hold exactly one e-mail address");
  if (message.idempotency_key === "" || message.idempotency_key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new Error(`enqueueMail: idempotency_key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  if (message.subject.trim() === "") throw new Error("enqueueMail: subject is empty");
}

/**
 * What the jobs table holds: the message sealed with the field cipher (recipients are personal data, and
 * bodies will carry links with one-time tokens), beside the idempotency key that names it and, when there is
 * one, the row of the `emails` log this message belongs to (its Business, environment and kind).
 */
export const MAIL_SEND_JOB = defineJob({
  type: "mail.send",
  version: 1,
  payload: Type.Object({
    idempotency_key: Type.String(),
    email_id: Type.Optional(Type.String()),
    sealed: Type.String(),
  }),
  dedupeKey: { prefix: "mail", fields: ["idempotency_key"] },
});

export interface EnqueueMailOptions {
  /** When the message may go out (default: now). The per-Business daily limit defers mail this way. */
  readonly runAt?: Date;
  /** The `emails` row that records the message. */
  readonly emailId?: string;
}

export interface MailQueue {
  readonly jobStore: Pick<JobStore, "enqueue">;
  readonly cipher: Pick<FieldCipher, "encrypt">;
}

/**
 * Enqueues one message inside the caller's transaction. Returns the job id, or null when a message with
 * this idempotency key was enqueued before (nothing new will be sent).
 *
 * Modules do not call this directly: they send through the emails module's outbox, the one place that
 * decides whether a message is delivered or captured and applies the daily limit (a layering rule checks it).
 */
export async function enqueueMail(
  queue: MailQueue,
  tx: Db,
  message: MailJobPayload,
  options: EnqueueMailOptions = {},
): Promise<string | null> {
  assertSendable(message);
  const content = { to: message.to, subject: message.subject, text: message.text, html: message.html };
  const payload = {
    idempotency_key: message.idempotency_key,
    ...(options.emailId === undefined ? {} : { email_id: options.emailId }),
    sealed: queue.cipher.encrypt(JSON.stringify(content)),
  };
  return queue.jobStore.enqueue(tx, MAIL_SEND_JOB, payload, options.runAt === undefined ? {} : { runAt: options.runAt });
}

/** The message a `mail.send` job holds, or null when the payload is not a sealed message (wrong key, tampered). */
export function unsealMailJob(payload: unknown, cipher: Pick<FieldCipher, "decrypt">): MailJobPayload | null {
  if (typeof payload !== "object" || payload === null) return null;
  const { sealed, idempotency_key } = payload as { sealed?: unknown; idempotency_key?: unknown };
  if (typeof sealed !== "string" || typeof idempotency_key !== "string") return null;
  try {
    const message: unknown = { ...JSON.parse(cipher.decrypt(sealed)), idempotency_key };
    return isMailJobPayload(message) ? message : null;
  } catch {
    return null;
  }
}

/**
 * The Message-ID of the message with this idempotency key: stable across attempts. The key is hashed, so
 * whatever it contains (ids, characters a msg-id cannot hold) stays out of the header.
 */
export function mailMessageId(idempotencyKey: string, domain: string): string {
  const digest = createHash("sha256").update(`mail:${idempotencyKey}`, "utf8").digest("hex").slice(0, 32);
  return `<${digest}@${domain}>`;
}

export function createMailJobHandler(
  mailer: Pick<Mailer, "send" | "senderDomain">,
  cipher: Pick<FieldCipher, "decrypt">,
): JobHandlers {
  return jobHandler(MAIL_SEND_JOB, async (sealedPayload) => {
    // A malformed or undecryptable payload buries the job (with this message) instead of sending garbage.
    const payload = unsealMailJob(sealedPayload, cipher);
    if (payload === null) throw new PermanentJobError("mail.send payload is not a sealed mail message");
    try {
      await mailer.send({
        to: payload.to,
        subject: payload.subject,
        text: payload.text,
        html: payload.html,
        headers: {
          "Message-ID": mailMessageId(payload.idempotency_key, mailer.senderDomain),
          // RFC 3834: machine-generated, so auto-responders (out-of-office) do not answer it.
          "Auto-Submitted": "auto-generated",
        },
      });
    } catch (error) {
      // The relay refused for good (5xx: unknown mailbox, policy): retrying would only repeat the refusal.
      if (error instanceof MailSendError && error.permanent === true) throw new PermanentJobError(error.message);
      throw error;
    }
  });
}
