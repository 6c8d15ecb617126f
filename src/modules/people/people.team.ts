// The team of a Business: members, invitations, roles, removal, the security settings and the audit log.
// Who may call each use case is the role-by-route table; these functions trust the actor they are given.
//
// The last admin: a role change or a removal locks the Business's admin memberships (and the member
// changed) before deciding, so two admins demoting each other at once take turns, and the second finds
// itself the last admin.

import type { Actor, Role } from "../../platform/auth/actor.js";
import type { ReportWeakenedControl } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { isUniqueViolation } from "../../platform/db/errors.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import { dashboardLink, renderEmail } from "../../platform/mail/templates.js";
import { decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { roleWords } from "../../platform/reference/words.js";
import type { MailOutbox } from "../emails/index.js";
import type { PasswordPolicy } from "../registration/index.js";
import * as members from "../registration/registration.shared.js";
import type { AuditRecorder } from "./people.audit.js";
import { PEOPLE_ERRORS } from "./people.errors.js";
import {
  type AuditRow,
  consumeInvitation,
  endSessionsOfMembership,
  findRequireTwoFactor,
  type InvitationRow,
  insertInvitation,
  lastSignIns,
  listAuditRecords,
  listOpenInvitations,
  putRequireTwoFactor,
  releaseEnrolmentOnlySessions,
  restrictSessionsToEnrolment,
  revokeInvitation,
  setInvitationMembership,
  usersWithTwoFactor,
} from "./people.repo.js";
import { hashToken, newToken, TOKEN_SHAPE } from "./people.tokens.js";

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface TeamServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly mail: Pick<MailOutbox, "sendPlatformMail">;
  readonly publicBaseUrl: string;
  readonly passwordPolicy: PasswordPolicy;
  readonly audit: AuditRecorder;
  /**
   * The api-keys module's revocation of a removed member's keys (a port passed in src/composition.ts), run in the removal's
   * transaction. Required: a removal that left keys live would let a later restore of the membership revive them.
   */
  readonly revokeKeysOfRemovedMember: (tx: Tx, actor: Actor, membershipId: string) => Promise<number>;
  /** Lifting the two-factor requirement weakens a control (people.alerts.ts). */
  readonly reportWeakenedControl: ReportWeakenedControl;
  /** The people service's password hasher, which queues hashes so sign-ins cannot take every core. */
  readonly hashPassword: (password: string) => Promise<string>;
}

export type TeamService = ReturnType<typeof createTeamService>;

function presentInvitation(row: InvitationRow) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

function presentAudit(row: AuditRow) {
  return {
    id: row.id,
    action: row.action,
    occurred_at: row.occurredAt.toISOString(),
    environment: row.environment,
    actor: {
      user_id: row.actorUserId,
      membership_id: row.actorMembershipId,
      role: row.actorRole,
      api_key_id: row.actorApiKeyId,
      session_id: row.actorSessionId,
    },
    subject: row.subjectType === null ? null : { type: row.subjectType, id: row.subjectId ?? "" },
    client_address: row.clientAddress,
    user_agent: row.userAgent,
    details: row.details,
  };
}

export function createTeamService(deps: TeamServiceDeps) {
  const { db, clock, ids } = deps;
  const auditAct = (
    tx: Tx,
    actor: Actor,
    action: Parameters<AuditRecorder>[1]["action"],
    subjectType: string,
    subjectId: string,
    details?: Record<string, unknown>,
  ) =>
    deps.audit(tx, {
      businessId: actor.businessId,
      environment: null,
      action,
      actor,
      subjectType,
      subjectId,
      ...(details === undefined ? {} : { details }),
    });

  async function listMembers(actor: Actor) {
    const rows = await members.listActiveMembersOfBusiness(db, actor.businessId);
    const userIds = rows.map((row) => row.userId);
    const [twoFactor, signIns] = await Promise.all([usersWithTwoFactor(db, userIds), lastSignIns(db, userIds)]);
    return {
      members: rows.map((row) => ({
        id: row.membershipId,
        user_id: row.userId,
        email: row.email,
        role: row.role,
        two_factor_enabled: twoFactor.has(row.userId),
        last_sign_in_at: signIns.get(row.userId)?.toISOString() ?? null,
        joined_at: row.createdAt.toISOString(),
      })),
    };
  }

  async function changeRole(actor: Actor, membershipId: string, role: Role) {
    return transaction(db, async (tx) => {
      const { adminIds, member } = await members.lockAdminsAndMember(tx, actor.businessId, membershipId);
      if (member === null) throw new AppError("not_found", { message: "No such member." });
      if (member.role === "business_admin" && role !== "business_admin" && adminIds.length <= 1) {
        throw new AppError(PEOPLE_ERRORS.LAST_ADMIN);
      }
      if (member.role !== role) {
        await members.setMembershipRole(tx, membershipId, role);
        // The member's sessions carry the old role: they end, and the person signs in again with the new one.
        await endSessionsOfMembership(tx, membershipId, clock.now(), "role_changed");
        await auditAct(tx, actor, "member_role_changed", "membership", membershipId, { from: member.role, to: role });
      }
      return { id: membershipId, user_id: member.userId, email: member.email, role };
    });
  }

  async function removeMember(actor: Actor, membershipId: string): Promise<void> {
    await transaction(db, async (tx) => {
      const { adminIds, member } = await members.lockAdminsAndMember(tx, actor.businessId, membershipId);
      if (member === null) throw new AppError("not_found", { message: "No such member." });
      if (member.role === "business_admin" && adminIds.length <= 1) throw new AppError(PEOPLE_ERRORS.LAST_ADMIN);
      await members.markMembershipRemoved(tx, membershipId, clock.now());
      // For good, not only while the membership is removed: sessions end and every key of the membership is
      // revoked (each audited), so an invitation that later restores this membership brings no credential back.
      const ended = await endSessionsOfMembership(tx, membershipId, clock.now(), "member_removed");
      const keysRevoked = await deps.revokeKeysOfRemovedMember(tx, actor, membershipId);
      await auditAct(tx, actor, "member_removed", "membership", membershipId, {
        email: member.email,
        sessions_ended: ended,
        api_keys_revoked: keysRevoked,
      });
    });
  }

  async function invite(actor: Actor, body: { email: string; role: Role }) {
    const email = body.email.trim().toLowerCase();
    const token = newToken();
    return transaction(db, async (tx) => {
      const existing = await members.findUserByAddress(tx, email);
      if (existing !== null) {
        const membership = await members.findMembershipOfUser(tx, actor.businessId, existing.id);
        if (membership !== null && membership.removedAt === null) throw new AppError(PEOPLE_ERRORS.ALREADY_A_MEMBER);
      }
      const now = clock.now();
      const row = await insertInvitation(tx, {
        id: ids.newId(),
        businessId: actor.businessId,
        email,
        role: body.role,
        tokenHash: hashToken(token),
        invitedByMembershipId: actor.membershipId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      });
      // Read now, not copied: an invitation sent after a rename names the Business as it is called today.
      const businessName = (await members.findBusinessName(tx, actor.businessId)) ?? "a Business";
      const rendered = renderEmail({
        businessName: "Payout service",
        heading: "You are invited to a team",
        paragraphs: [
          `You are invited to join ${businessName} at ${deps.publicBaseUrl} as ${roleWords(body.role)}.`,
          "The link below opens the dashboard to accept; it is valid for 7 days and works once. Choose a password of at least 12 characters if you have no account yet; then sign in with this e-mail address.",
        ],
        action: { label: "Accept the invitation", url: dashboardLink(deps.publicBaseUrl, "invitation", { token, email }) },
        closing: [
          `If the link does not open, paste this invitation token on ${deps.publicBaseUrl}/dashboard/invitation (or send it to POST ${deps.publicBaseUrl}/v1/invitations/acceptance):\n\n    ${token}`,
          "If you do not expect this, ignore this message: nothing happens without the token.",
        ],
        footer: "You receive this because an admin of a Business invited this address.",
        textWidth: 72,
      });
      await deps.mail.sendPlatformMail(tx, {
        kind: "team_invitation",
        to: email,
        subject: `You are invited to join ${businessName}`,
        text: rendered.text,
        html: rendered.html,
        idempotencyKey: `invitation:${row.id}`,
      });
      await auditAct(tx, actor, "member_invited", "invitation", row.id, { email, role: body.role });
      return presentInvitation(row);
    });
  }

  async function listInvitations(actor: Actor) {
    return { invitations: (await listOpenInvitations(db, actor.businessId, clock.now())).map(presentInvitation) };
  }

  async function cancelInvitation(actor: Actor, invitationId: string): Promise<void> {
    await transaction(db, async (tx) => {
      const row = await revokeInvitation(tx, actor.businessId, invitationId, clock.now());
      if (row === null) throw new AppError("not_found", { message: "No such open invitation." });
      await auditAct(tx, actor, "invitation_revoked", "invitation", invitationId, { email: row.email });
    });
  }

  /**
   * Consumes the invitation and makes the person a member, in one transaction: the invitation's conditional
   * update lets one of two simultaneous acceptances through; the other finds it used (INVITATION_INVALID).
   */
  async function acceptInvitation(
    body: { token: string; password?: string | undefined },
    origin: { clientAddress: string; userAgent: string | null },
  ) {
    const token = body.token.trim();
    if (!TOKEN_SHAPE.test(token)) throw new AppError(PEOPLE_ERRORS.INVITATION_INVALID);
    if (body.password !== undefined) deps.passwordPolicy(body.password, "password");
    // Hashed before the transaction (about 100 ms of CPU), so no lock is held meanwhile.
    const passwordHash = body.password === undefined ? null : await deps.hashPassword(body.password);
    const accept = () =>
      transaction(db, async (tx) => {
        const now = clock.now();
        const invitation = await consumeInvitation(tx, hashToken(token), now);
        if (invitation === null) throw new AppError(PEOPLE_ERRORS.INVITATION_INVALID);
        let user = await members.findUserByAddress(tx, invitation.email);
        const created = user === null;
        if (user === null) {
          if (passwordHash === null) {
            throw new AppError("validation_failed", {
              details: [{ field: "password", code: "required", message: "This address has no account yet: choose a password." }],
            });
          }
          const userId = ids.newId();
          await members.insertVerifiedUser(tx, { id: userId, email: invitation.email, passwordHash, now });
          user = await members.findUserById(tx, userId);
          if (user === null) throw new Error("inserted user vanished");
        } else {
          const membership = await members.findMembershipOfUser(tx, invitation.businessId, user.id);
          if (membership !== null && membership.removedAt === null) throw new AppError(PEOPLE_ERRORS.ALREADY_A_MEMBER);
        }
        const membershipId = await members.addOrRestoreMembership(tx, {
          id: ids.newId(),
          businessId: invitation.businessId,
          userId: user.id,
          role: invitation.role,
          now,
        });
        if (membershipId === null) throw new AppError(PEOPLE_ERRORS.ALREADY_A_MEMBER);
        await setInvitationMembership(tx, invitation.id, membershipId);
        await deps.audit(tx, {
          businessId: invitation.businessId,
          action: "member_joined",
          actor: { userId: user.id, membershipId, role: invitation.role, ...origin },
          subjectType: "membership",
          subjectId: membershipId,
          details: { invitation_id: invitation.id, new_account: created },
        });
        return {
          membership: { id: membershipId, business_id: invitation.businessId, role: invitation.role },
          user: { id: user.id, email: user.email },
        };
      });
    try {
      return await accept();
    } catch (error) {
      // Two invitations of one new address accepted at once: one creates the user, the other retries and joins it.
      if (!isUniqueViolation(error, "users_email_key")) throw error;
      return accept();
    }
  }

  async function getSecuritySettings(actor: Actor) {
    return { require_two_factor: await findRequireTwoFactor(db, actor.businessId) };
  }

  async function putSecuritySettings(actor: Actor, body: { require_two_factor: boolean }) {
    return transaction(db, async (tx) => {
      const before = await findRequireTwoFactor(tx, actor.businessId);
      await putRequireTwoFactor(tx, actor.businessId, body.require_two_factor, clock.now());
      if (before !== body.require_two_factor) {
        // The requirement holds from now on, not from each member's next sign-in: the live sessions of members
        // without two-factor (the actor's own included) serve only enrolment at once; lifting it frees them.
        const sessionsChanged = body.require_two_factor
          ? await restrictSessionsToEnrolment(tx, actor.businessId)
          : await releaseEnrolmentOnlySessions(tx, actor.businessId);
        await auditAct(tx, actor, "security_settings_changed", "business", actor.businessId, {
          require_two_factor: body.require_two_factor,
          [body.require_two_factor ? "sessions_restricted_to_enrolment" : "sessions_released"]: sessionsChanged,
        });
        if (!body.require_two_factor) {
          await deps.reportWeakenedControl(tx, actor, {
            control: "two_factor_requirement",
            subjectType: "business",
            subjectId: actor.businessId,
            summary: "Members can now sign in with a password alone; members without two-factor are no longer asked to enrol.",
            businessWide: true,
          });
        }
      }
      return { require_two_factor: body.require_two_factor };
    });
  }

  async function listAudit(
    actor: Actor,
    query: { limit?: number; cursor?: string; action?: string; actor_user_id?: string; since?: string; until?: string },
  ) {
    const limit = query.limit ?? 50;
    const rows = await listAuditRecords(db, {
      businessId: actor.businessId,
      beforeId: decodeCursor(query.cursor),
      action: query.action,
      actorUserId: query.actor_user_id,
      since: query.since === undefined ? undefined : new Date(query.since),
      until: query.until === undefined ? undefined : new Date(query.until),
      limit: limit + 1,
    });
    const page = toPage(rows, limit);
    return { audit_records: page.items.map(presentAudit), next_cursor: page.nextCursor };
  }

  return {
    listMembers,
    changeRole,
    removeMember,
    invite,
    listInvitations,
    cancelInvitation,
    acceptInvitation,
    getSecuritySettings,
    putSecuritySettings,
    listAudit,
  };
}
