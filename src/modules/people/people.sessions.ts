// Sign-in and sessions: signing in, the access hook's check of a session, the current session, signing out
// (here or everywhere), the person's list of sessions and ending one of them, switching Business.
//
// The browser holds a 256-bit secret in a cookie; the database holds its SHA-256. A session ends on sign-out,
// on "sign out everywhere", on a password change or reset (every session of the person), on a change of role
// or a removal (every session of that membership), at its idle timeout and at its absolute lifetime. A new
// secret is issued at sign-in, when the second factor completes the sign-in, at every confirmation (step-up),
// at enrolment in two-factor authentication and when switching Business, so a secret known before a privilege
// change is worth nothing after it (fixation).

import type { Static } from "@sinclair/typebox";
import type { SessionPrincipal } from "../../platform/auth/session.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { MembershipRecord } from "../registration/registration.shared.js";
import * as members from "../registration/registration.shared.js";
import type { AuditRecorder } from "./people.audit.js";
import { deviceLabelOf } from "./people.device.js";
import { PEOPLE_ERRORS } from "./people.errors.js";
import type { SessionExpiry } from "./people.expiry.js";
import {
  auditActor,
  auditEachBusiness,
  type IssuedSession,
  liveSessionOf,
  type NextStep,
  owedStep,
  type PasswordHasher,
  presentSession,
  type RequestOrigin,
  type SessionBody,
  type SessionSettings,
} from "./people.internal.js";
import {
  deleteSignInFailuresOf,
  endSession,
  endSessionsOfUser,
  findLiveSession,
  findLiveSessionOfUser,
  findRequireTwoFactor,
  findTwoFactor,
  insertSession,
  listLiveSessionsOfUser,
  type SessionRow,
  touchSession,
} from "./people.repo.js";
import type { MySessionListSchema } from "./people.schemas.js";
import type { AttemptThrottle } from "./people.throttle.js";
import { csrfTokenOf, csrfTokensEqual, hashToken, newToken, TOKEN_SHAPE } from "./people.tokens.js";

/** lastSeenAt is written at most this often: a session's idle timeout is exact to this granularity. */
const TOUCH_GRANULARITY_MS = 60_000;
/** A person has a handful of live sessions; the list answers at most this many, newest first. */
const MY_SESSIONS_LIMIT = 100;

/** GET /v1/session/sessions: what a person sees of each of their live sessions (its response schema's type). */
export type MySessionList = Static<typeof MySessionListSchema>;

export interface SessionsDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly settings: Pick<SessionSettings, "idleMs" | "absoluteMs" | "stepUpMs">;
  readonly audit: AuditRecorder;
  readonly expiry: Pick<SessionExpiry, "expiryOf" | "endExpiredSession" | "scheduleSweep">;
  /** Every credential check goes through it: reserved before the check, atomically (people.throttle.ts). */
  readonly throttle: Pick<AttemptThrottle, "attempt">;
  readonly hasher: Pick<PasswordHasher, "verifyPassword" | "dummyPasswordHash">;
}

export type Sessions = ReturnType<typeof createSessions>;

export function createSessions(deps: SessionsDeps) {
  const { db, clock, ids, settings, expiry } = deps;

  async function openSession(
    tx: Tx,
    membership: MembershipRecord,
    origin: RequestOrigin,
    options: { nextStep: NextStep; confirmedAt: Date; signedInFrom?: RequestOrigin },
  ): Promise<{ row: SessionRow; secret: string }> {
    // The address and browser of the sign-in, which the person's list of sessions shows; a session that
    // continues a sign-in (switching Business) carries them over.
    const from = options.signedInFrom ?? origin;
    const now = clock.now();
    const secret = newToken();
    const row: SessionRow = {
      id: ids.newId(),
      tokenHash: hashToken(secret),
      userId: membership.userId,
      businessId: membership.businessId,
      membershipId: membership.membershipId,
      role: membership.role,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + settings.absoluteMs),
      confirmedAt: options.confirmedAt,
      twoFactorPending: options.nextStep !== null,
      endedAt: null,
      endedReason: null,
      clientAddress: from.clientAddress,
      userAgent: from.userAgent?.slice(0, 512) ?? null,
    };
    await insertSession(tx, row);
    // The sweep that will end this session if it is never presented again (one job per slot, shared).
    await expiry.scheduleSweep(tx, new Date(now.getTime() + Math.min(settings.idleMs, settings.absoluteMs)));
    return { row, secret };
  }

  async function signIn(
    body: { email: string; password: string; business_id?: string | undefined },
    origin: RequestOrigin,
  ): Promise<IssuedSession> {
    const email = body.email.trim().toLowerCase();
    // The e-mail as typed is the account key, known or not: throttling must not tell them apart.
    return deps.throttle.attempt({ account: email, clientAddress: origin.clientAddress }, async () => {
      const user = await members.findUserByAddress(db, email);
      // Always one scrypt verification, against the person's hash or a dummy one: same work, same time.
      const passwordOk = await deps.hasher.verifyPassword(
        body.password,
        user?.passwordHash ?? (await deps.hasher.dummyPasswordHash()),
      );
      if (user === null || !passwordOk) {
        if (user !== null) {
          await transaction(db, (tx) =>
            auditEachBusiness(deps.audit, tx, user.id, "sign_in_failed", origin, { reason: "wrong_password" }),
          );
        }
        throw new AppError(PEOPLE_ERRORS.INVALID_CREDENTIALS);
      }
      const memberships = await members.listActiveMembershipsOfUser(db, user.id);
      const membership =
        body.business_id === undefined ? memberships[0] : memberships.find((m) => m.businessId === body.business_id);
      if (membership === undefined) throw new AppError(PEOPLE_ERRORS.NOT_A_MEMBER);
      return openSignedInSession(user.id, membership, email, origin);
    });
  }

  /**
   * The session of a sign-in whose password was right; the account's failures (this attempt's reservation
   * too) are forgotten. The password is a proof: the session starts confirmed (for a person with two-factor
   * authentication it serves nothing but the second factor until then, which confirms it again).
   */
  function openSignedInSession(
    userId: string,
    membership: MembershipRecord,
    email: string,
    origin: RequestOrigin,
  ): Promise<IssuedSession> {
    const now = clock.now();
    return transaction(db, async (tx) => {
      await deleteSignInFailuresOf(tx, email);
      const nextStep = await owedStep(tx, userId, membership.businessId);
      const { row, secret } = await openSession(tx, membership, origin, { nextStep, confirmedAt: now });
      await deps.audit(tx, {
        businessId: membership.businessId,
        action: "sign_in",
        actor: auditActor(row, origin),
        subjectType: "session",
        subjectId: row.id,
        details: { second_factor: nextStep === null ? "not_needed" : "pending" },
      });
      return { secret, body: await presentSession(tx, settings.idleMs, row, csrfTokenOf(secret), nextStep) };
    });
  }

  /** The live session behind a cookie value, or null; keeps lastSeenAt fresh at a one-minute granularity. */
  async function authenticateSession(secret: string, origin?: RequestOrigin): Promise<SessionPrincipal | null> {
    if (!TOKEN_SHAPE.test(secret)) return null;
    const row = await findLiveSession(db, hashToken(secret));
    if (row === null) return null;
    const now = clock.now();
    const expired = expiry.expiryOf(row, now);
    if (expired !== null) {
      // Marked ended (and audited) when presented; the sweep job ends the ones never presented again.
      await transaction(db, (tx) => expiry.endExpiredSession(tx, row, expired, "presented", origin ?? null));
      return null;
    }
    if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_GRANULARITY_MS) await touchSession(db, row.id, now);
    return {
      sessionId: row.id,
      userId: row.userId,
      businessId: row.businessId,
      membershipId: row.membershipId,
      role: row.role,
      twoFactorPending: row.twoFactorPending,
      recentlyConfirmed: now.getTime() - row.confirmedAt.getTime() <= settings.stepUpMs,
      csrfToken: csrfTokenOf(secret),
    };
  }

  async function getSession(principal: SessionPrincipal): Promise<SessionBody> {
    const row = await liveSessionOf(db, principal);
    return presentSession(
      db,
      settings.idleMs,
      row,
      principal.csrfToken,
      row.twoFactorPending ? await owedStep(db, row.userId, row.businessId) : null,
    );
  }

  async function signOut(principal: SessionPrincipal, origin: RequestOrigin): Promise<void> {
    await transaction(db, async (tx) => {
      const row = await liveSessionOf(tx, principal);
      if (!(await endSession(tx, row.id, clock.now(), "signed_out"))) return;
      await deps.audit(tx, {
        businessId: row.businessId,
        action: "signed_out",
        actor: auditActor(row, origin),
        subjectType: "session",
        subjectId: row.id,
      });
    });
  }

  async function signOutEverywhere(principal: SessionPrincipal, origin: RequestOrigin): Promise<{ ended: number }> {
    return transaction(db, async (tx) => {
      const row = await liveSessionOf(tx, principal);
      const ended = await endSessionsOfUser(tx, row.userId, clock.now(), "signed_out_everywhere");
      await deps.audit(tx, {
        businessId: row.businessId,
        action: "signed_out_everywhere",
        actor: auditActor(row, origin),
        subjectType: "user",
        subjectId: row.userId,
        details: { sessions_ended: ended },
      });
      return { ended };
    });
  }

  /**
   * The person's live sessions in all their Businesses (sessions are per membership, but a person signed in
   * on a forgotten laptop wants to find it whichever Business it shows), newest first.
   */
  async function listMySessions(principal: SessionPrincipal): Promise<MySessionList> {
    const now = clock.now();
    const rows = await listLiveSessionsOfUser(db, principal.userId, now, settings.idleMs, MY_SESSIONS_LIMIT);
    const names = new Map(
      (await members.listActiveMembershipsOfUser(db, principal.userId)).map((m) => [m.businessId, m.businessName]),
    );
    return {
      sessions: rows.map((row) => ({
        id: row.id,
        business_id: row.businessId,
        business_name: names.get(row.businessId) ?? "",
        created_at: row.createdAt.toISOString(),
        last_seen_at: row.lastSeenAt.toISOString(),
        // Whichever comes first: the absolute lifetime, or the idle timeout if nothing uses it until then.
        expires_at: new Date(Math.min(row.expiresAt.getTime(), row.lastSeenAt.getTime() + settings.idleMs)).toISOString(),
        device: deviceLabelOf(row.userAgent),
        client_address: row.clientAddress,
        current: row.id === principal.sessionId,
      })),
    };
  }

  /**
   * Ends one of the person's sessions, in any of their Businesses. Another person's session, an unknown id
   * and an ended or expired session all answer the same 404, so ids cannot be probed. Ending the current
   * session is signing out (same reason, same audit action). No step-up: it only takes access away.
   */
  async function endMySession(
    principal: SessionPrincipal,
    sessionId: string,
    origin: RequestOrigin,
  ): Promise<{ current: boolean }> {
    return transaction(db, async (tx) => {
      const now = clock.now();
      const target = await findLiveSessionOfUser(tx, sessionId, principal.userId);
      if (target === null || expiry.expiryOf(target, now) !== null)
        throw new AppError("not_found", { message: "No such session." });
      const current = target.id === principal.sessionId;
      const acting = current ? target : await liveSessionOf(tx, principal);
      // Conditional: of two requests ending it at once, one ends and records it, the other gets the 404.
      if (!(await endSession(tx, target.id, now, current ? "signed_out" : "ended_by_person"))) {
        throw new AppError("not_found", { message: "No such session." });
      }
      await deps.audit(tx, {
        // In the ended session's Business, with the person's membership and role there.
        businessId: target.businessId,
        action: current ? "signed_out" : "session_ended",
        actor: { ...auditActor(acting, origin), membershipId: target.membershipId, role: target.role },
        subjectType: "session",
        subjectId: target.id,
        details: current ? {} : { ended_from_business_id: acting.businessId, device: deviceLabelOf(target.userAgent) },
      });
      return { current };
    });
  }

  /** A new session in another Business of the same person; the old one ends. */
  async function switchBusiness(principal: SessionPrincipal, businessId: string, origin: RequestOrigin): Promise<IssuedSession> {
    return transaction(db, async (tx) => {
      const current = await liveSessionOf(tx, principal);
      const memberships = await members.listActiveMembershipsOfUser(tx, current.userId);
      const target = memberships.find((m) => m.businessId === businessId);
      if (target === undefined) throw new AppError(PEOPLE_ERRORS.NOT_A_MEMBER);
      await endSession(tx, current.id, clock.now(), "switched");
      // The person proved themselves already (second factor included); only an enrolment the new Business
      // requires can still be owed.
      const twoFactor = await findTwoFactor(tx, current.userId);
      const nextStep =
        twoFactor?.confirmedAt == null && (await findRequireTwoFactor(tx, businessId)) ? "two_factor_enrolment" : null;
      const { row, secret } = await openSession(tx, target, origin, {
        nextStep,
        confirmedAt: current.confirmedAt,
        signedInFrom:
          current.clientAddress === null ? origin : { clientAddress: current.clientAddress, userAgent: current.userAgent },
      });
      await deps.audit(tx, {
        businessId,
        action: "business_switched",
        actor: auditActor(row, origin),
        subjectType: "session",
        subjectId: row.id,
        details: { from_business_id: current.businessId },
      });
      return { secret, body: await presentSession(tx, settings.idleMs, row, csrfTokenOf(secret), nextStep) };
    });
  }

  return {
    signIn,
    authenticateSession,
    csrfTokenMatches: (principal: SessionPrincipal, presented: string) => csrfTokensEqual(principal.csrfToken, presented),
    getSession,
    signOut,
    signOutEverywhere,
    listMySessions,
    endMySession,
    switchBusiness,
  };
}
