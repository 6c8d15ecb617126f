// Weakened controls: maker-checker turned off, approval rules loosened, the two-factor requirement lifted, a
// bank rail's delivery target changed. Whoever does it, every admin of the Business hears of it by e-mail, and
// the audit log records it as `control_weakened` (beside the act's own entry), in the act's transaction.
//
// Only a person may weaken a control: an API key is refused (403 CONTROL_WEAKENING_NEEDS_PERSON). A key is a
// long-lived secret kept by a machine, never asked for step-up; a person's session reaches these routes only
// with a confirmation within the step-up window (route-roles: `sensitive`). So a stolen key cannot quietly
// switch the four-eyes rule off, re-point the bank files or lift two-factor.
//
// The e-mail is platform mail (like an invitation), not the Business's: it is never captured in sandbox and
// never deferred by the Business's daily mail limit, which whoever weakens the control could otherwise
// exhaust first to keep the admins from hearing of it.

import type { Actor } from "../../platform/auth/actor.js";
import type { ControlWeakening, ReportWeakenedControl } from "../../platform/auth/audit.js";
import type { Tx } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import { renderEmail } from "../../platform/mail/templates.js";
import { environmentWords } from "../../platform/reference/words.js";
import type { MailOutbox } from "../emails/index.js";
import * as members from "../registration/registration.shared.js";
import type { AuditRecorder } from "./people.audit.js";
import { PEOPLE_ERRORS } from "./people.errors.js";

const CONTROL_NAMES: Readonly<Record<ControlWeakening["control"], string>> = {
  maker_checker: "Maker-checker (four eyes) was turned off",
  approval_rules: "The approval rules were loosened",
  two_factor_requirement: "Two-factor authentication is no longer required",
  bank_rail_delivery_target: "A bank rail's delivery target changed",
  funding_enforcement: "A funding account's balance enforcement was weakened",
  destination_policy: "The destination policy was relaxed",
};

export function createControlAlerts(deps: {
  readonly ids: IdGenerator;
  readonly audit: AuditRecorder;
  readonly mail: Pick<MailOutbox, "sendPlatformMail">;
  readonly publicBaseUrl: string;
}): ReportWeakenedControl {
  return async (tx: Tx, actor: Actor, weakening: ControlWeakening) => {
    if (actor.apiKeyId !== null) throw new AppError(PEOPLE_ERRORS.CONTROL_WEAKENING_NEEDS_PERSON);
    const alertId = deps.ids.newId();
    const admins = (await members.listActiveMembersOfBusiness(tx, actor.businessId)).filter((m) => m.role === "business_admin");
    const person = await members.findUserById(tx, actor.userId);
    await deps.audit(tx, {
      businessId: actor.businessId,
      environment: weakening.businessWide ? null : actor.environment,
      action: "control_weakened",
      actor,
      subjectType: weakening.subjectType,
      subjectId: weakening.subjectId,
      details: { control: weakening.control, alert_id: alertId, admins_notified: admins.length, ...(weakening.details ?? {}) },
    });
    const businessName = admins[0]?.businessName ?? "your Business";
    const heading = CONTROL_NAMES[weakening.control];
    const where = weakening.businessWide ? "" : ` ${environmentWords(actor.environment)}`;
    for (const admin of admins) {
      const rendered = renderEmail({
        businessName: "Payout service",
        heading,
        paragraphs: [
          `${heading} for ${businessName}${where} at ${deps.publicBaseUrl}.`,
          weakening.summary,
          `Done by ${person?.email ?? "a member"} (membership ${actor.membershipId}), signed in to the dashboard.`,
        ],
        closing: [
          'If you expected this, nothing needs doing. If not, sign in, undo the change, and review the audit log (its "Control weakened" entries) and the team\'s sessions and API keys.',
        ],
        footer: `You receive this because you are an admin of ${businessName}; every admin receives it.`,
        textWidth: 72,
      });
      await deps.mail.sendPlatformMail(tx, {
        kind: "control_weakened",
        to: admin.email,
        subject: `Security alert: ${heading.toLowerCase()} (${businessName})`,
        text: rendered.text,
        html: rendered.html,
        idempotencyKey: `control-weakened:${alertId}:${admin.membershipId}`,
      });
    }
  };
}
