// The mail outbox: the one place that decides what happens to an e-mail the service issues, inside the
// transaction of the use case that wants it.
//
//  - Platform mail (registration) is about no Business: it is always sent.
//  - Mail of a Business in sandbox is captured (kept here, readable through GET /v1/sandbox/emails, never
//    delivered) unless the recipient is one of the Business's own verified people. An instance open to
//    registration must not relay mail for strangers, and sandbox keys are issued to anyone who registers.
//  - Mail of a Business in production goes out only when the Business has a verified member (true for
//    every Business created through registration), and under a per-Business daily limit.
//  - Over the limit, mail the service owes a Beneficiary (spec: a change of the declared destination) is
//    deferred to when the window frees, never dropped; mail a request asked for (a collection invitation) is
//    refused with 429 MAIL_DAILY_LIMIT_REACHED, so the caller knows it was not sent.
//
// Sent mail leaves through the durable `mail.send` job (platform/mail/mail-job.ts) after commit; every message
// has a row in `emails` tying it to its Business, environment and kind.

import type { Logger } from "pino";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import type { Db, Tx } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import { parseMailbox } from "../../platform/mail/address.js";
import { enqueueMail } from "../../platform/mail/mail-job.js";
import type { Metrics } from "../../platform/metrics.js";
import { decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { EMAIL_ERRORS } from "./emails.errors.js";
import {
  type EmailKind,
  type EmailRow,
  findCapturedEmail,
  findEmailByIdempotencyKey,
  insertEmail,
  listCapturedEmails,
  lockMailWindow,
  nthLatestSendAt,
} from "./emails.repo.js";
import type { ListSandboxEmailsQuery, SandboxEmailBody, SandboxEmailListBody } from "./emails.schemas.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a use case knows about the recipient, from the registration module (users and memberships). */
export interface RecipientFacts {
  /** The address belongs to a user with a verified e-mail who is a member of the Business. */
  readonly recipientIsVerifiedMember: boolean;
  /** The Business has at least one member with a verified e-mail (its registrant, at least). */
  readonly businessHasVerifiedMember: boolean;
}

export interface OutgoingEmail {
  readonly kind: EmailKind;
  /** One mailbox. */
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** Names the message for good: issuing it again (a retried use case) changes nothing. */
  readonly idempotencyKey: string;
  /**
   * Over the Business's daily limit: `defer` for mail the service owes (sent when the window frees), `refuse`
   * for mail the request asked for (429 MAIL_DAILY_LIMIT_REACHED; the request's transaction rolls back).
   */
  readonly overLimit: "defer" | "refuse";
}

export type EmailOutcome =
  | { readonly disposition: "captured"; readonly emailId: string }
  | { readonly disposition: "sent"; readonly emailId: string; readonly sendAt: Date };

/** How modules send e-mail. Call inside the use case's transaction. */
export interface MailOutbox {
  /** Mail on behalf of a Business in one environment (captured in sandbox unless it is to the Business's own people). */
  sendForBusiness(tx: Tx, tenant: Tenant, email: OutgoingEmail): Promise<EmailOutcome>;
  /** Mail of the service itself, about no Business (registration): always sent. */
  sendPlatformMail(tx: Tx, email: Omit<OutgoingEmail, "overLimit">): Promise<EmailOutcome>;
}

export interface EmailsServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  readonly jobStore: Pick<JobStore, "enqueue">;
  readonly logger: Pick<Logger, "warn">;
  readonly metrics: Pick<Metrics, "observeMail">;
  /** MAIL_DAILY_LIMIT_PER_BUSINESS: sent e-mails per Business in any 24 hours. */
  readonly dailyLimitPerBusiness: number;
  /** Injected from the registration module, which owns users and memberships. */
  readonly recipientFacts: (tx: Tx, businessId: string, address: string) => Promise<RecipientFacts>;
}

export type EmailsService = ReturnType<typeof createEmailsService>;

/** A subject is one header line: a line break or other control character would start a new header. */
function singleLine(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing control characters is the point
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
}

const BUSINESS_MAIL_KINDS = ["collection_invitation", "declared_destination_changed", "declared_destination_removed"] as const;

function isBusinessMailKind(kind: EmailKind): kind is (typeof BUSINESS_MAIL_KINDS)[number] {
  return (BUSINESS_MAIL_KINDS as readonly string[]).includes(kind);
}

interface CapturedContent {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export function createEmailsService(deps: EmailsServiceDeps) {
  const { db, clock, ids, cipher, jobStore, logger, metrics } = deps;

  function recipientFingerprint(address: string): string {
    return cipher.fingerprint(`email-recipient:${address.toLowerCase()}`);
  }

  /** An e-mail issued before under this key: the outcome it had, and nothing new is written or queued. */
  function outcomeOf(row: EmailRow): EmailOutcome {
    return row.disposition === "captured"
      ? { disposition: "captured", emailId: row.id }
      : { disposition: "sent", emailId: row.id, sendAt: row.sendAt };
  }

  /**
   * The earliest time a new e-mail of the Business may be sent: now, unless `dailyLimit` e-mails are due
   * within the last 24 hours or later (deferred ones included); then 24 hours after the oldest of the latest
   * `dailyLimit`, so no 24-hour window ever holds more than the limit.
   */
  async function nextSendSlot(tx: Tx, businessId: string, now: Date): Promise<Date> {
    await lockMailWindow(tx, businessId);
    const nth = await nthLatestSendAt(tx, businessId, new Date(now.getTime() - DAY_MS), deps.dailyLimitPerBusiness);
    if (nth === null) return now;
    return new Date(Math.max(now.getTime(), nth.getTime() + DAY_MS));
  }

  // Metrics are counted when a message is issued, inside the use case's transaction: a use case that fails
  // after this point still counts its message (counters are not transactional; the `emails` rows are).
  async function dispatch(tx: Tx, tenant: Tenant | null, email: OutgoingEmail): Promise<EmailOutcome> {
    const mailbox = parseMailbox(email.to);
    // A caller's bug, not a user's input: recipients come from validated e-mail fields.
    if (mailbox === null) throw new Error("mail outbox: `to` must hold exactly one e-mail address");
    const address = mailbox.address.toLowerCase();
    const subject = singleLine(email.subject);
    const now = clock.now();
    const previous = await findEmailByIdempotencyKey(tx, email.idempotencyKey);
    if (previous !== null) return outcomeOf(previous);
    const row = {
      id: ids.newId(),
      businessId: tenant?.businessId ?? null,
      environment: tenant?.environment ?? null,
      kind: email.kind,
      recipientFingerprint: recipientFingerprint(address),
      idempotencyKey: email.idempotencyKey,
      createdAt: now,
    };

    let sendAt = now;
    if (tenant !== null) {
      const facts = await deps.recipientFacts(tx, tenant.businessId, address);
      if (tenant.environment === "sandbox" && !facts.recipientIsVerifiedMember) {
        const content: CapturedContent = { to: email.to, subject, text: email.text, html: email.html };
        const captured = await insertEmail(tx, {
          ...row,
          disposition: "captured",
          contentEncrypted: cipher.encrypt(JSON.stringify(content)),
          sendAt: now,
        });
        if (captured === null) throw new Error("mail outbox: idempotency key taken concurrently");
        metrics.observeMail(email.kind, "captured");
        return { disposition: "captured", emailId: captured.id };
      }
      if (tenant.environment === "production" && !facts.businessHasVerifiedMember)
        throw new AppError(EMAIL_ERRORS.BUSINESS_NOT_VERIFIED);
      sendAt = await nextSendSlot(tx, tenant.businessId, now);
      if (sendAt > now) {
        if (email.overLimit === "refuse") {
          metrics.observeMail(email.kind, "refused");
          const seconds = Math.max(1, Math.ceil((sendAt.getTime() - now.getTime()) / 1000));
          throw new AppError(EMAIL_ERRORS.MAIL_DAILY_LIMIT_REACHED, { headers: { "retry-after": String(seconds) } });
        }
        // No recipient in the log line: the Business, what kind of mail, and when it will go.
        logger.warn(
          { business_id: tenant.businessId, environment: tenant.environment, kind: email.kind, send_at: sendAt.toISOString() },
          "e-mail deferred by the daily limit",
        );
      }
    }
    const sent = await insertEmail(tx, { ...row, disposition: "sent", contentEncrypted: null, sendAt });
    if (sent === null) throw new Error("mail outbox: idempotency key taken concurrently");
    await enqueueMail(
      { jobStore, cipher },
      tx,
      { to: email.to, subject, text: email.text, html: email.html, idempotency_key: email.idempotencyKey },
      { runAt: sendAt, emailId: sent.id },
    );
    metrics.observeMail(email.kind, sendAt > now ? "deferred" : "sent");
    return { disposition: "sent", emailId: sent.id, sendAt };
  }

  const outbox: MailOutbox = {
    sendForBusiness: (tx, tenant, email) => dispatch(tx, tenant, email),
    sendPlatformMail: (tx, email) => dispatch(tx, null, { ...email, overLimit: "defer" }),
  };

  /** The sandbox mailbox is a sandbox tool; production mail is delivered and never kept. */
  function sandboxTenant(actor: Actor): Tenant {
    if (actor.environment !== "sandbox") {
      throw new AppError("forbidden", {
        message: "Captured e-mail exists only in sandbox: use a sandbox key. Production e-mail is delivered, never captured.",
      });
    }
    return tenantOf(actor);
  }

  function present(row: EmailRow): SandboxEmailBody {
    const content = JSON.parse(cipher.decrypt(row.contentEncrypted ?? "")) as CapturedContent;
    // Only a Business's mail is ever captured (the table's check), never platform mail.
    if (!isBusinessMailKind(row.kind)) throw new Error(`captured e-mail ${row.id} has the platform kind ${row.kind}`);
    return {
      id: row.id,
      kind: row.kind,
      to: content.to,
      subject: content.subject,
      text: content.text,
      html: content.html,
      created_at: row.createdAt.toISOString(),
    };
  }

  async function listSandboxEmails(actor: Actor, query: ListSandboxEmailsQuery): Promise<SandboxEmailListBody> {
    const tenant = sandboxTenant(actor);
    const limit = query.limit ?? 50;
    const rows = await listCapturedEmails(db, tenant, {
      afterId: decodeCursor(query.cursor),
      recipientFingerprint: query.to === undefined ? null : recipientFingerprint(query.to.trim()),
      limit: limit + 1,
    });
    const page = toPage(rows, limit);
    return { emails: page.items.map(present), next_cursor: page.nextCursor };
  }

  async function getSandboxEmail(actor: Actor, id: string): Promise<SandboxEmailBody> {
    const row = await findCapturedEmail(db, sandboxTenant(actor), id);
    if (row === null) throw new AppError("not_found", { message: "No such captured e-mail." });
    return present(row);
  }

  return { outbox, listSandboxEmails, getSandboxEmail };
}
