// The audit recorder: other modules (API keys, webhooks, payouts) and this one call it inside the
// transaction of the act they record, so an act and its record commit or roll back together.
import type { Actor } from "../../platform/auth/actor.js";
import type { Environment } from "../../platform/auth/api-key-format.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { Tx } from "../../platform/db/client.js";
import type { IdGenerator } from "../../platform/ids.js";
import { insertAuditRecord } from "./people.repo.js";

export const AUDIT_ACTIONS = [
  "sign_in",
  "sign_in_failed",
  "signed_out",
  "signed_out_everywhere",
  "session_ended",
  "session_confirmed",
  "business_switched",
  "password_changed",
  "password_reset_requested",
  "password_reset",
  "two_factor_enabled",
  "two_factor_disabled",
  "recovery_code_used",
  "recovery_codes_regenerated",
  "session_expired",
  "bank_rail_configured",
  "bank_rail_removed",
  "bank_file_content_read",
  "bank_rail_connection_tested",
  "member_invited",
  "invitation_revoked",
  "member_joined",
  "member_role_changed",
  "member_removed",
  "security_settings_changed",
  "business_profile_changed",
  "api_key_created",
  "api_key_revoked",
  "webhook_secret_rotated",
  "approval_policy_changed",
  "payout_decided",
  // Where money goes and who can move it (issue 24): every change is recorded with its actor.
  "webhook_subscription_created",
  "webhook_subscription_changed",
  "webhook_subscription_deleted",
  "branding_changed",
  "bank_account_added",
  "bank_account_removed",
  "bank_account_corrected",
  "declared_destination_changed",
  "payout_created",
  "payouts_created",
  "payout_canceled",
  "payouts_exported",
  "beneficiaries_exported",
  "beneficiaries_imported",
  "control_weakened",
  // Funding accounts (issue 27).
  "funding_account_updated",
  "sandbox_credit_posted",
  // Money into a funding account (issue 27): recorded by one person, approved or rejected by another.
  "top_up_created",
  "top_up_decided",
  // Payout limits and four eyes on weakening a control (issue 29).
  "payout_limits_changed",
  "control_change_proposed",
  "control_change_approved",
  "control_change_discarded",
  // Controls on where money goes (issue 29): the destination policy, and bank details approved or rejected.
  "destination_policy_changed",
  "bank_account_approved",
  "bank_account_rejected",
  // Sanctions screening (issue 29): an admin cleared or confirmed a Beneficiary's hits.
  "beneficiary_screening_decided",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted, as far as it is known (a failed sign-in has no member; an invitation's acceptance has no session yet). */
export interface AuditActor {
  readonly userId?: string | null;
  readonly membershipId?: string | null;
  readonly role?: Actor["role"] | null;
  readonly apiKeyId?: string | null;
  readonly sessionId?: string | null;
  readonly clientAddress?: string | null;
  readonly userAgent?: string | null;
}

export interface AuditEntry {
  readonly businessId: string;
  readonly environment?: Environment | null;
  readonly action: AuditAction;
  readonly actor: AuditActor;
  readonly subjectType?: string | null;
  readonly subjectId?: string | null;
  readonly details?: Record<string, unknown>;
}

export type AuditRecorder = (tx: Tx, entry: AuditEntry) => Promise<void>;

export type { RecordActorAudit } from "../../platform/auth/audit.js";

export function createAuditRecorder(deps: { clock: Clock; ids: IdGenerator }): {
  record: AuditRecorder;
  recordForActor: RecordActorAudit;
} {
  const record: AuditRecorder = async (tx, entry) => {
    await insertAuditRecord(tx, {
      id: deps.ids.newId(),
      businessId: entry.businessId,
      environment: entry.environment ?? null,
      action: entry.action,
      actorUserId: entry.actor.userId ?? null,
      actorMembershipId: entry.actor.membershipId ?? null,
      actorRole: entry.actor.role ?? null,
      actorApiKeyId: entry.actor.apiKeyId ?? null,
      actorSessionId: entry.actor.sessionId ?? null,
      subjectType: entry.subjectType ?? null,
      subjectId: entry.subjectId ?? null,
      // Free text from a request header: bounded, so a record cannot be made huge.
      clientAddress: entry.actor.clientAddress ?? null,
      userAgent: entry.actor.userAgent?.slice(0, 512) ?? null,
      details: entry.details ?? {},
      occurredAt: deps.clock.now(),
    });
  };
  const recordForActor: RecordActorAudit = (tx, actor, act) =>
    record(tx, {
      businessId: actor.businessId,
      environment: act.businessWide ? null : actor.environment,
      action: act.action as AuditAction,
      actor,
      subjectType: act.subjectType,
      subjectId: act.subjectId,
      ...(act.details === undefined ? {} : { details: act.details }),
    });
  return { record, recordForActor };
}
