// Asking for a password reset. The request enqueues one job and answers 202; the worker then looks the
// address up and, for an account, creates the single-use token (1 hour) and queues its e-mail. The request
// does the same statement for every address, so neither its answer nor its time nor its work tells a known
// address from an unknown one (issue 24: the inline version answered ~2 ms slower for known addresses,
// which spent a transaction, an insert, an e-mail and audit records that unknown ones skipped).
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, transaction } from "../../platform/db/client.js";
import type { IdGenerator } from "../../platform/ids.js";
import { jobHandler } from "../../platform/jobs/job-definition.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { JobHandlers } from "../../platform/jobs/worker.js";
import { dashboardLink, renderEmail } from "../../platform/mail/templates.js";
import type { MailOutbox } from "../emails/index.js";
import * as members from "../registration/registration.shared.js";
import type { AuditRecorder } from "./people.audit.js";
import { auditEachBusiness, type RequestOrigin } from "./people.internal.js";
import { PASSWORD_RESET_REQUEST_JOB } from "./people.jobs.js";
import { countPasswordResetsSince, insertPasswordReset } from "./people.repo.js";
import { hashToken, newToken } from "./people.tokens.js";

export const RESET_TTL_MS = 60 * 60 * 1000;
const RESETS_PER_HOUR = 3;

/** The API side: every request, whatever the address, is this one insert. */
export async function enqueuePasswordResetRequest(
  deps: { db: Db; cipher: Pick<FieldCipher, "encrypt">; jobStore: Pick<JobStore, "enqueue"> },
  body: { email: string },
  origin: RequestOrigin,
): Promise<void> {
  const email = body.email.trim().toLowerCase();
  await transaction(deps.db, async (tx) => {
    await deps.jobStore.enqueue(tx, PASSWORD_RESET_REQUEST_JOB, {
      email_sealed: deps.cipher.encrypt(email),
      client_address: origin.clientAddress,
      user_agent: origin.userAgent?.slice(0, 512) ?? null,
    });
  });
}

/**
 * The worker side. The token, its e-mail, the audit records and the job's completion commit together, so a
 * job run again after a crash sends nothing twice.
 */
export function createPasswordResetRequestHandler(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  cipher: FieldCipher;
  mail: Pick<MailOutbox, "sendPlatformMail">;
  publicBaseUrl: string;
  audit: AuditRecorder;
}): JobHandlers {
  return jobHandler(PASSWORD_RESET_REQUEST_JOB, async (payload, context) => {
    const email = deps.cipher.decrypt(payload.email_sealed);
    const origin: RequestOrigin = { clientAddress: payload.client_address, userAgent: payload.user_agent };
    await transaction(deps.db, async (tx) => {
      if (!(await context.completeWithin(tx))) throw new Error("password reset request: the job's lease was lost");
      const user = await members.findUserByAddress(tx, email);
      if (user === null) return;
      const now = deps.clock.now();
      // At most a few an hour per person, so this route cannot flood a mailbox.
      if ((await countPasswordResetsSince(tx, user.id, new Date(now.getTime() - RESET_TTL_MS))) >= RESETS_PER_HOUR) return;
      const token = newToken();
      const id = deps.ids.newId();
      await insertPasswordReset(tx, {
        id,
        userId: user.id,
        tokenHash: hashToken(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESET_TTL_MS),
      });
      const base = deps.publicBaseUrl;
      const rendered = renderEmail({
        businessName: "Payout service",
        heading: "Reset your password",
        paragraphs: [
          `Someone, hopefully you, asked to reset the password of ${email} at ${base}.`,
          "The link below opens the dashboard to choose a new password; it is valid for 1 hour and works once. Every session of your account ends when the password changes.",
        ],
        action: { label: "Choose a new password", url: dashboardLink(base, "reset-password", { token }) },
        closing: [
          `If the link does not open, paste this reset token on ${base}/dashboard/reset-password (or send it with a new password to POST ${base}/v1/password-resets/confirmation):\n\n    ${token}`,
          "If you did not ask for this, ignore this message: your password stays as it is.",
        ],
        footer: "You receive this because a password reset was asked for this address.",
        textWidth: 72,
      });
      await deps.mail.sendPlatformMail(tx, {
        kind: "password_reset",
        to: email,
        subject: "Reset your password",
        text: rendered.text,
        html: rendered.html,
        idempotencyKey: `password-reset:${id}`,
      });
      await auditEachBusiness(deps.audit, tx, user.id, "password_reset_requested", origin);
    });
  });
}
