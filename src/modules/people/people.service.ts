// Sign-in and sessions, passwords, two-factor authentication: the use cases of a person about themselves.
//
// Sessions: the browser holds a 256-bit secret in a cookie; the database holds its SHA-256. A session
// ends on sign-out, on "sign out everywhere", on a password change or reset (every session of the person),
// on a change of role or a removal (every session of that membership), at its idle timeout and at its
// absolute lifetime. A new secret is issued at sign-in, when the second factor completes the sign-in,
// at every confirmation (step-up), at enrolment in two-factor authentication and when switching Business,
// so a secret known before a privilege change is worth nothing after it (fixation).

import * as OTPAuth from "otpauth";
import QRCode from "qrcode";
import type { Role } from "../../platform/auth/actor.js";
import type { SessionPrincipal } from "../../platform/auth/session.js";
import type { Clock } from "../../platform/clock.js";
import {
  type DeriveKey,
  type FieldCipher,
  hashPassword as hashNewPassword,
  verifyPassword as verifyStoredPassword,
} from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { MembershipRecord } from "../registration/registration.shared.js";
import * as members from "../registration/registration.shared.js";
import type { AuditAction, AuditActor, AuditRecorder } from "./people.audit.js";
import { deviceLabelOf } from "./people.device.js";
import { PEOPLE_ERRORS } from "./people.errors.js";
import { createSessionExpiry } from "./people.expiry.js";
import type { PasswordPolicy } from "./people.password.js";
import {
  acceptTwoFactorStep,
  businessesRequiringTwoFactor,
  consumePasswordReset,
  countUnusedRecoveryCodes,
  deleteSignInFailuresOf,
  deleteTwoFactor,
  endSession,
  endSessionsOfUser,
  findLiveSession,
  findLiveSessionById,
  findLiveSessionOfUser,
  findRequireTwoFactor,
  findTwoFactor,
  insertSession,
  listLiveSessionsOfUser,
  lockTwoFactor,
  putTwoFactorSecret,
  renewSession,
  replaceRecoveryCodes,
  type SessionRow,
  touchSession,
  useRecoveryCode,
  voidPasswordResetsOf,
} from "./people.repo.js";
import { auditEachBusiness as auditEachBusinessOf, enqueuePasswordResetRequest, type RequestOrigin } from "./people.reset.js";
import { type AttemptKeys, createAttemptThrottle } from "./people.throttle.js";
import {
  csrfTokenOf,
  csrfTokensEqual,
  hashToken,
  newRecoveryCode,
  newToken,
  normalizeRecoveryCode,
  TOKEN_SHAPE,
} from "./people.tokens.js";

export interface SessionSettings {
  readonly idleMs: number;
  readonly absoluteMs: number;
  readonly stepUpMs: number;
  /** PUBLIC_BASE_URL is HTTPS: the cookie is `__Host-session`, Secure. */
  readonly secureCookie: boolean;
  readonly throttle: { readonly perAccount: number; readonly perAddress: number; readonly windowMs: number };
}

export interface PeopleServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  readonly settings: SessionSettings;
  readonly passwordPolicy: PasswordPolicy;
  readonly audit: AuditRecorder;
  /**
   * scrypt for passwords: the low-priority threads of platform/password-hasher.ts, which also bound how
   * many hashes run at once, so a burst of sign-ins cannot take the cores the rest of the API needs.
   */
  readonly deriveKey: DeriveKey;
  readonly jobStore: Pick<JobStore, "enqueue">;
}

export type { RequestOrigin } from "./people.reset.js";

/** What the browser must hold after a use case that issues a session secret. */
export interface IssuedSession {
  readonly secret: string;
  readonly body: SessionBody;
}

export type NextStep = "two_factor" | "two_factor_enrolment" | null;

export interface SessionBody {
  session: {
    id: string;
    created_at: string;
    expires_at: string;
    idle_timeout_seconds: number;
    confirmed_at: string;
    next_step: NextStep;
  };
  csrf_token: string;
  user: { id: string; email: string; two_factor_enabled: boolean };
  membership: { id: string; business_id: string; business_name: string; role: Role };
  memberships: { id: string; business_id: string; business_name: string; role: Role }[];
}

/** Seconds a TOTP code is valid (RFC 6238's default); one step either side is accepted for clock drift. */
const TOTP_PERIOD_SECONDS = 30;
const RECOVERY_CODE_COUNT = 10;
/** lastSeenAt is written at most this often: a session's idle timeout is exact to this granularity. */
const TOUCH_GRANULARITY_MS = 60_000;
/** A person has a handful of live sessions; the list answers at most this many, newest first. */
const MY_SESSIONS_LIMIT = 100;

/** GET /v1/session/sessions: what a person sees of each of their live sessions (never the secret or its hash). */
export interface MySessionList {
  sessions: {
    id: string;
    business_id: string;
    business_name: string;
    created_at: string;
    last_seen_at: string;
    expires_at: string;
    device: string;
    client_address: string | null;
    current: boolean;
  }[];
}

export type PeopleService = ReturnType<typeof createPeopleService>;

export function createPeopleService(deps: PeopleServiceDeps) {
  const { db, clock, ids, settings } = deps;
  const expiry = createSessionExpiry({
    db,
    clock,
    audit: deps.audit,
    jobStore: deps.jobStore,
    idleMs: settings.idleMs,
  });
  // Every credential check goes through it: reserved before the check, atomically (people.throttle.ts).
  const throttle = createAttemptThrottle({ db, clock, ids, limits: settings.throttle });
  /** A signed-in person's proofs (codes, recovery codes, the current password) count against `user:<id>`. */
  const personKeys = (userId: string, origin: RequestOrigin): AttemptKeys => ({
    account: `user:${userId}`,
    clientAddress: origin.clientAddress,
  });
  const verifyPassword = (password: string, stored: string) => verifyStoredPassword(password, stored, deps.deriveKey);
  const hashPassword = (password: string) => hashNewPassword(password, deps.deriveKey);
  // Hash of a password nobody has: an unknown address costs the same scrypt work as a known one.
  let dummyHash: Promise<string> | null = null;
  const dummyPasswordHash = () => {
    dummyHash ??= hashPassword(newToken());
    return dummyHash;
  };

  function auditActor(row: Pick<SessionRow, "id" | "userId" | "membershipId" | "role">, origin: RequestOrigin): AuditActor {
    return {
      userId: row.userId,
      membershipId: row.membershipId,
      role: row.role,
      sessionId: row.id,
      clientAddress: origin.clientAddress,
      userAgent: origin.userAgent,
    };
  }

  function totpFor(secretBase32: string, email: string): OTPAuth.TOTP {
    return new OTPAuth.TOTP({
      issuer: "Payouts",
      label: email,
      algorithm: "SHA1",
      digits: 6,
      period: TOTP_PERIOD_SECONDS,
      secret: OTPAuth.Secret.fromBase32(secretBase32),
    });
  }

  function recoveryCodeHash(userId: string, code: string): string {
    // Keyed: recovery codes hold ~49 bits, too few to survive an offline guess against a plain hash.
    return deps.cipher.fingerprint(`recovery:${userId}:${normalizeRecoveryCode(code)}`);
  }

  /** `tx`: the caller's transaction when inside one (on PGlite the outer handle would wait for it forever). */
  async function presentSession(tx: Db, row: SessionRow, csrfToken: string, nextStep: NextStep): Promise<SessionBody> {
    const user = await members.findUserById(tx, row.userId);
    if (user === null) throw new Error("a session's user vanished");
    const memberships = await members.listActiveMembershipsOfUser(tx, row.userId);
    const current = memberships.find((m) => m.membershipId === row.membershipId);
    const twoFactor = await findTwoFactor(tx, row.userId);
    const membershipBody = (m: MembershipRecord) => ({
      id: m.membershipId,
      business_id: m.businessId,
      business_name: m.businessName,
      role: m.role,
    });
    return {
      session: {
        id: row.id,
        created_at: row.createdAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
        idle_timeout_seconds: Math.round(settings.idleMs / 1000),
        confirmed_at: row.confirmedAt.toISOString(),
        next_step: nextStep,
      },
      csrf_token: csrfToken,
      user: { id: user.id, email: user.email, two_factor_enabled: twoFactor?.confirmedAt != null },
      membership:
        current === undefined
          ? { id: row.membershipId, business_id: row.businessId, business_name: "", role: row.role }
          : membershipBody(current),
      memberships: memberships.map(membershipBody),
    };
  }

  /** What a session still owes before it may act: its second factor, or an enrolment the Business requires. */
  async function owedStep(tx: Db, userId: string, businessId: string): Promise<NextStep> {
    const twoFactor = await findTwoFactor(tx, userId);
    if (twoFactor?.confirmedAt != null) return "two_factor";
    return (await findRequireTwoFactor(tx, businessId)) ? "two_factor_enrolment" : null;
  }

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

  const auditEachBusiness = (tx: Db, userId: string, action: AuditAction, origin: RequestOrigin, details = {}) =>
    auditEachBusinessOf(deps.audit, tx, userId, action, origin, details);

  async function signIn(
    body: { email: string; password: string; business_id?: string | undefined },
    origin: RequestOrigin,
  ): Promise<IssuedSession> {
    const email = body.email.trim().toLowerCase();
    // The e-mail as typed is the account key, known or not: throttling must not tell them apart.
    return throttle.attempt({ account: email, clientAddress: origin.clientAddress }, async () => {
      const user = await members.findUserByAddress(db, email);
      // Always one scrypt verification, against the person's hash or a dummy one: same work, same time.
      const passwordOk = await verifyPassword(body.password, user?.passwordHash ?? (await dummyPasswordHash()));
      if (user === null || !passwordOk) {
        if (user !== null) {
          await transaction(db, (tx) => auditEachBusiness(tx, user.id, "sign_in_failed", origin, { reason: "wrong_password" }));
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
      return { secret, body: await presentSession(tx, row, csrfTokenOf(secret), nextStep) };
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

  async function sessionRow(principal: SessionPrincipal, tx: Db = db): Promise<SessionRow> {
    const row = await findLiveSessionById(tx, principal.sessionId);
    if (row === null) throw new AppError("SESSION_EXPIRED");
    return row;
  }

  async function getSession(principal: SessionPrincipal): Promise<SessionBody> {
    const row = await sessionRow(principal);
    return presentSession(
      db,
      row,
      principal.csrfToken,
      row.twoFactorPending ? await owedStep(db, row.userId, row.businessId) : null,
    );
  }

  async function signOut(principal: SessionPrincipal, origin: RequestOrigin): Promise<void> {
    await transaction(db, async (tx) => {
      const row = await sessionRow(principal, tx);
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
      const row = await sessionRow(principal, tx);
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
      const acting = current ? target : await sessionRow(principal, tx);
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
      const current = await sessionRow(principal, tx);
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
      return { secret, body: await presentSession(tx, row, csrfTokenOf(secret), nextStep) };
    });
  }

  /** Verifies a TOTP code and records its step, refusing a code already used (replay). */
  async function acceptTotp(tx: Db, userId: string, code: string, confirm: boolean): Promise<boolean> {
    const twoFactor = await lockTwoFactor(tx, userId);
    if (twoFactor === null || (!confirm && twoFactor.confirmedAt === null)) return false;
    const user = await members.findUserById(tx, userId);
    const totp = totpFor(deps.cipher.decrypt(twoFactor.secretEncrypted), user?.email ?? "");
    const now = clock.now().getTime();
    const delta = totp.validate({ token: code.replace(/\s+/g, ""), timestamp: now, window: 1 });
    if (delta === null) return false;
    const step = Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
    return acceptTwoFactorStep(tx, userId, step, confirm ? clock.now() : undefined);
  }

  /**
   * Whether `password` is the person's, checked before any transaction opens: scrypt takes about 100 ms of
   * CPU (more while the hash gate queues it), and on PGlite an open transaction would hold every other request.
   */
  async function passwordMatches(userId: string, password: string): Promise<boolean> {
    const user = await members.findUserById(db, userId);
    return user !== null && (await verifyPassword(password, user.passwordHash));
  }

  /**
   * A password or a second factor (TOTP or a recovery code) proves the person again. A password was checked
   * before the transaction (`passwordMatches`); its answer is applied here, in the order of the other checks.
   */
  async function verifyProof(
    tx: Db,
    row: SessionRow,
    proof: { password?: string | undefined; code?: string | undefined; recovery_code?: string | undefined },
    origin: RequestOrigin,
    passwordMatched: boolean,
  ): Promise<void> {
    if (proof.password !== undefined) {
      if (!passwordMatched) throw new AppError(PEOPLE_ERRORS.INVALID_PASSWORD);
      return;
    }
    if (proof.code !== undefined) {
      if (!(await acceptTotp(tx, row.userId, proof.code, false))) throw new AppError(PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE);
      return;
    }
    if (proof.recovery_code !== undefined) {
      if (!(await useRecoveryCode(tx, row.userId, recoveryCodeHash(row.userId, proof.recovery_code), clock.now()))) {
        throw new AppError(PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE);
      }
      await deps.audit(tx, {
        businessId: row.businessId,
        action: "recovery_code_used",
        actor: auditActor(row, origin),
        subjectType: "user",
        subjectId: row.userId,
        details: { recovery_codes_left: await countUnusedRecoveryCodes(tx, row.userId) },
      });
      return;
    }
    throw new AppError("validation_failed", {
      details: [{ field: "", code: "required", message: "Send one of `password`, `code` or `recovery_code`." }],
    });
  }

  /**
   * Confirms the person with a proof and issues a new secret: the second factor of a sign-in, or a step-up
   * confirmation. These and sign-in itself are the only acts that set `confirmed_at` (nothing else proves the
   * person: enrolling a factor or changing the password does not renew it). A step-up proof is a factor the
   * person already has: for someone with two-factor authentication a code or a recovery code (a password
   * alone is refused before it is checked), for someone without it the password.
   */
  async function renewAfterProof(
    principal: SessionPrincipal,
    proof: { password?: string | undefined; code?: string | undefined; recovery_code?: string | undefined },
    origin: RequestOrigin,
    action: AuditAction,
    options: { completesSignIn: boolean },
  ): Promise<IssuedSession> {
    if (!options.completesSignIn && proof.password !== undefined) {
      const twoFactor = await findTwoFactor(db, principal.userId);
      if (twoFactor?.confirmedAt != null) throw new AppError(PEOPLE_ERRORS.TWO_FACTOR_PROOF_REQUIRED);
    }
    // Wrong codes and passwords count like failed sign-ins of the person (6 digits must not be guessable).
    return throttle.attempt(personKeys(principal.userId, origin), async (release) => {
      const passwordMatched =
        proof.password !== undefined && !options.completesSignIn && (await passwordMatches(principal.userId, proof.password));
      return transaction(db, async (tx) => {
        const row = await sessionRow(principal, tx);
        // What the session still owes after this proof: only an enrolment can remain.
        let stillOwed: NextStep = null;
        if (options.completesSignIn) {
          if (!row.twoFactorPending)
            throw new AppError(PEOPLE_ERRORS.TWO_FACTOR_NOT_ENROLLED, { message: "No second factor is owed by this session." });
          if (proof.password !== undefined) {
            throw new AppError("validation_failed", {
              details: [{ field: "password", code: "unknown_field", message: "Send `code` or `recovery_code`." }],
            });
          }
        } else if (row.twoFactorPending) {
          // A session that owes a code gives it at POST /v1/session/two-factor. One that owes only an
          // enrolment may confirm (with the password, the one proof its person has): enrolling needs a
          // recent confirmation, and a session restricted to enrolment may be older than the window.
          stillOwed = await owedStep(tx, row.userId, row.businessId);
          if (stillOwed !== "two_factor_enrolment") throw new AppError("TWO_FACTOR_REQUIRED");
        }
        await verifyProof(tx, row, proof, origin, passwordMatched);
        await release(tx);
        const secret = newToken();
        const now = clock.now();
        const twoFactorPending = stillOwed !== null;
        await renewSession(tx, row.id, { tokenHash: hashToken(secret), confirmedAt: now, twoFactorPending });
        await deps.audit(tx, {
          businessId: row.businessId,
          action,
          actor: auditActor(row, origin),
          subjectType: "session",
          subjectId: row.id,
          details: {
            method: proof.password !== undefined ? "password" : proof.code !== undefined ? "totp" : "recovery_code",
          },
        });
        const renewed = { ...row, tokenHash: hashToken(secret), confirmedAt: now, twoFactorPending };
        return { secret, body: await presentSession(tx, renewed, csrfTokenOf(secret), stillOwed) };
      });
    });
  }

  const confirm = (principal: SessionPrincipal, proof: Parameters<typeof verifyProof>[2], origin: RequestOrigin) =>
    renewAfterProof(principal, proof, origin, "session_confirmed", { completesSignIn: false });

  const completeTwoFactor = (principal: SessionPrincipal, proof: Parameters<typeof verifyProof>[2], origin: RequestOrigin) =>
    renewAfterProof(principal, proof, origin, "sign_in", { completesSignIn: true });

  async function changePassword(
    principal: SessionPrincipal,
    body: { current_password: string; new_password: string },
    origin: RequestOrigin,
  ): Promise<IssuedSession> {
    const current = await sessionRow(principal);
    const user = await members.findUserById(db, current.userId);
    if (user === null) throw new AppError("SESSION_EXPIRED");
    // The new password's rule first: a weak one is refused without spending an attempt.
    deps.passwordPolicy(body.new_password, "new_password", [user.email]);
    return throttle.attempt(personKeys(current.userId, origin), async (release) => {
      if (!(await verifyPassword(body.current_password, user.passwordHash))) throw new AppError(PEOPLE_ERRORS.INVALID_PASSWORD);
      const passwordHash = await hashPassword(body.new_password);
      return transaction(db, async (tx) => {
        const row = await sessionRow(principal, tx);
        const now = clock.now();
        await release(tx);
        await members.setUserPassword(tx, row.userId, passwordHash);
        await voidPasswordResetsOf(tx, row.userId, now);
        // Every other session of the person ends; this one continues under a new secret. The confirmation
        // stays as it was: a change of password is not a step-up proof (for a person with two-factor
        // authentication the password alone never is).
        await endSessionsOfUser(tx, row.userId, now, "password_changed", row.id);
        const secret = newToken();
        await renewSession(tx, row.id, { tokenHash: hashToken(secret) });
        await auditEachBusiness(tx, row.userId, "password_changed", origin);
        return { secret, body: await presentSession(tx, row, csrfTokenOf(secret), null) };
      });
    });
  }

  /** Always the same answer and the same work (people.reset.ts): one job, which the worker answers. */
  const requestPasswordReset = (body: { email: string }, origin: RequestOrigin): Promise<void> =>
    enqueuePasswordResetRequest({ db, cipher: deps.cipher, jobStore: deps.jobStore }, body, origin);

  async function resetPassword(body: { token: string; password: string }, origin: RequestOrigin): Promise<void> {
    const token = body.token.trim();
    // The new password's rule first: a weak one is refused without spending an attempt.
    deps.passwordPolicy(body.password, "password");
    // A token names no account until it is found: wrong tokens count per client address (as their own
    // account key, and towards the address's limit shared with every other kind of attempt).
    const keys = { account: `password-reset:${origin.clientAddress}`, clientAddress: origin.clientAddress };
    await throttle.attempt(keys, async (release) => {
      if (!TOKEN_SHAPE.test(token)) throw new AppError(PEOPLE_ERRORS.PASSWORD_RESET_INVALID);
      const passwordHash = await hashPassword(body.password);
      await transaction(db, async (tx) => {
        const now = clock.now();
        const reset = await consumePasswordReset(tx, hashToken(token), now);
        if (reset === null) throw new AppError(PEOPLE_ERRORS.PASSWORD_RESET_INVALID);
        await release(tx);
        await members.setUserPassword(tx, reset.userId, passwordHash);
        await voidPasswordResetsOf(tx, reset.userId, now);
        await endSessionsOfUser(tx, reset.userId, now, "password_changed");
        await auditEachBusiness(tx, reset.userId, "password_reset", origin);
      });
    });
  }

  async function startTwoFactorEnrolment(principal: SessionPrincipal) {
    const row = await sessionRow(principal);
    const user = await members.findUserById(db, row.userId);
    if (user === null) throw new AppError("SESSION_EXPIRED");
    return transaction(db, async (tx) => {
      const existing = await lockTwoFactor(tx, row.userId);
      if (existing?.confirmedAt != null) throw new AppError(PEOPLE_ERRORS.TWO_FACTOR_ALREADY_ENABLED);
      const secret = new OTPAuth.Secret({ size: 20 }).base32;
      await putTwoFactorSecret(tx, row.userId, deps.cipher.encrypt(secret), clock.now());
      const uri = totpFor(secret, user.email).toString();
      return {
        secret,
        otpauth_uri: uri,
        qr_code_svg: await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 }),
      };
    });
  }

  /** Ten new recovery codes for the person; every earlier one is deleted in the same statement's transaction. */
  async function issueRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
    const now = clock.now();
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode());
    await replaceRecoveryCodes(
      tx,
      userId,
      codes.map((code) => ({ id: ids.newId(), userId, codeHash: recoveryCodeHash(userId, code), createdAt: now })),
    );
    return codes;
  }

  /**
   * Turns two-factor authentication on with a first code from the new app. It proves only that the caller
   * holds the secret just created, nothing the person had before: it needs a recent confirmation (step-up,
   * like starting the enrolment) and it does not renew `confirmed_at`. A new secret is issued all the same
   * (a privilege change: the session no longer owes an enrolment).
   */
  async function confirmTwoFactorEnrolment(principal: SessionPrincipal, code: string, origin: RequestOrigin) {
    return throttle.attempt(personKeys(principal.userId, origin), (release) =>
      transaction(db, async (tx) => {
        const row = await sessionRow(principal, tx);
        const pending = await lockTwoFactor(tx, row.userId);
        if (pending === null || pending.confirmedAt !== null) throw new AppError(PEOPLE_ERRORS.TWO_FACTOR_NOT_ENROLLED);
        // An enrolment waiting for this code is owed only by a session that has no second factor to prove.
        if (row.twoFactorPending && (await owedStep(tx, row.userId, row.businessId)) === "two_factor") {
          throw new AppError("TWO_FACTOR_REQUIRED");
        }
        if (!(await acceptTotp(tx, row.userId, code, true))) throw new AppError(PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE);
        await release(tx);
        const codes = await issueRecoveryCodes(tx, row.userId);
        const secret = newToken();
        await renewSession(tx, row.id, { tokenHash: hashToken(secret), twoFactorPending: false });
        await auditEachBusiness(tx, row.userId, "two_factor_enabled", origin);
        const body = await presentSession(tx, { ...row, twoFactorPending: false }, csrfTokenOf(secret), null);
        return { secret, body: { ...body, recovery_codes: codes } };
      }),
    );
  }

  /**
   * Ten new recovery codes replace every earlier one (used or not) at once, in one transaction; shown once.
   * Needs a recent confirmation (step-up: the role-by-route table, applied by the access hook).
   */
  async function regenerateRecoveryCodes(
    principal: SessionPrincipal,
    origin: RequestOrigin,
  ): Promise<{ recovery_codes: string[] }> {
    return transaction(db, async (tx) => {
      const row = await sessionRow(principal, tx);
      const twoFactor = await lockTwoFactor(tx, row.userId);
      if (twoFactor?.confirmedAt == null) {
        throw new AppError(PEOPLE_ERRORS.TWO_FACTOR_NOT_ENROLLED, {
          message: "Two-factor authentication is off: there are no recovery codes to regenerate.",
        });
      }
      const codes = await issueRecoveryCodes(tx, row.userId);
      await auditEachBusiness(tx, row.userId, "recovery_codes_regenerated", origin, { recovery_codes: codes.length });
      return { recovery_codes: codes };
    });
  }

  /** Needs a current code or a recovery code, throttled like every proof (a wrong one is a failure of the person). */
  async function disableTwoFactor(principal: SessionPrincipal, code: string, origin: RequestOrigin): Promise<void> {
    await throttle.attempt(personKeys(principal.userId, origin), (release) =>
      transaction(db, async (tx) => {
        const row = await sessionRow(principal, tx);
        const twoFactor = await lockTwoFactor(tx, row.userId);
        if (twoFactor?.confirmedAt == null) throw new AppError(PEOPLE_ERRORS.TWO_FACTOR_NOT_ENROLLED);
        // Checked before the code, so a refused attempt spends no code (a recovery code is single use).
        const memberships = await members.listActiveMembershipsOfUser(tx, row.userId);
        const requiring = await businessesRequiringTwoFactor(
          tx,
          memberships.map((m) => m.businessId),
        );
        if (requiring.size > 0) {
          const names = memberships.filter((m) => requiring.has(m.businessId));
          throw new AppError(PEOPLE_ERRORS.TWO_FACTOR_REQUIRED_BY_BUSINESS, {
            message: `${names.map((m) => m.businessName).join(", ")} require${names.length === 1 ? "s" : ""} two-factor authentication of every member, so it stays on. Ask an admin there to lift the requirement (PUT /v1/security-settings) or leave the Business first. Lost your authenticator? Sign in with a recovery code, then regenerate your recovery codes (POST /v1/session/two-factor/recovery-codes).`,
            details: names.map((m) => ({
              field: "business_id",
              code: "requires_two_factor",
              message: `${m.businessId} (${m.businessName}) requires two-factor authentication.`,
            })),
          });
        }
        const ok =
          (await acceptTotp(tx, row.userId, code, false)) ||
          (await useRecoveryCode(tx, row.userId, recoveryCodeHash(row.userId, code), clock.now()));
        if (!ok) throw new AppError(PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE);
        await release(tx);
        await deleteTwoFactor(tx, row.userId);
        await auditEachBusiness(tx, row.userId, "two_factor_disabled", origin);
      }),
    );
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
    confirm,
    completeTwoFactor,
    changePassword,
    requestPasswordReset,
    resetPassword,
    startTwoFactorEnrolment,
    confirmTwoFactorEnrolment,
    disableTwoFactor,
    regenerateRecoveryCodes,
    /** Hashes a new password behind the same gate as sign-ins (invitation acceptance uses it too). */
    hashPassword,
  };
}
