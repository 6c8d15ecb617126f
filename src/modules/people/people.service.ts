// The use cases of a person about themselves, assembled from their parts: sign-in and sessions
// (people.sessions.ts), step-up confirmation, passwords and their reset, two-factor authentication. What the
// parts share is in people.internal.ts.
import * as OTPAuth from "otpauth";
import QRCode from "qrcode";
import type { SessionPrincipal } from "../../platform/auth/session.js";
import type { Clock } from "../../platform/clock.js";
import type { DeriveKey, FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import * as members from "../registration/registration.shared.js";
import type { AuditAction, AuditRecorder } from "./people.audit.js";
import { createSessionExpiry } from "./people.expiry.js";
import {
  acceptTotp,
  auditActor,
  auditEachBusiness,
  createPasswordHasher,
  type IssuedSession,
  liveSessionOf,
  type NextStep,
  owedStep,
  personKeys,
  presentSession,
  type RequestOrigin,
  recoveryCodeHash,
  type SessionSettings,
  totpFor,
} from "./people.internal.js";
import type { PasswordPolicy } from "./people.password.js";
import {
  businessesRequiringTwoFactor,
  consumePasswordReset,
  countUnusedRecoveryCodes,
  deleteTwoFactor,
  endSessionsOfUser,
  findTwoFactor,
  lockTwoFactor,
  putTwoFactorSecret,
  renewSession,
  replaceRecoveryCodes,
  type SessionRow,
  useRecoveryCode,
  voidPasswordResetsOf,
} from "./people.repo.js";
import { enqueuePasswordResetRequest } from "./people.reset.js";
import { createSessions } from "./people.sessions.js";
import { createAttemptThrottle } from "./people.throttle.js";
import { csrfTokenOf, hashToken, newRecoveryCode, newToken, TOKEN_SHAPE } from "./people.tokens.js";

export type {
  IssuedSession,
  NextStep,
  RequestOrigin,
  SessionBody,
  SessionSettings,
} from "./people.internal.js";
export type { MySessionList } from "./people.sessions.js";

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

const RECOVERY_CODE_COUNT = 10;

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
  const passwords = createPasswordHasher(deps.deriveKey);
  const sessions = createSessions({ db, clock, ids, settings, audit: deps.audit, expiry, throttle, passwords });

  /**
   * Whether `password` is the person's, checked before any transaction opens: scrypt takes about 100 ms of
   * CPU (more while the hash gate queues it), and on PGlite an open transaction would hold every other request.
   */
  async function passwordMatches(userId: string, password: string): Promise<boolean> {
    const user = await members.findUserById(db, userId);
    return user !== null && (await passwords.verifyPassword(password, user.passwordHash));
  }

  /**
   * A password or a second factor (TOTP or a recovery code) proves the person again. A password was checked
   * before the transaction (`passwordMatches`); its answer is applied here, in the order of the other checks.
   */
  async function verifyProof(
    tx: Tx,
    row: SessionRow,
    proof: { password?: string | undefined; code?: string | undefined; recovery_code?: string | undefined },
    origin: RequestOrigin,
    passwordMatched: boolean,
  ): Promise<void> {
    if (proof.password !== undefined) {
      if (!passwordMatched) throw new AppError("INVALID_PASSWORD");
      return;
    }
    if (proof.code !== undefined) {
      if (!(await acceptTotp(tx, deps, row.userId, proof.code, false))) throw new AppError("INVALID_TWO_FACTOR_CODE");
      return;
    }
    if (proof.recovery_code !== undefined) {
      if (!(await useRecoveryCode(tx, row.userId, recoveryCodeHash(deps.cipher, row.userId, proof.recovery_code), clock.now()))) {
        throw new AppError("INVALID_TWO_FACTOR_CODE");
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
      if (twoFactor?.confirmedAt != null) throw new AppError("TWO_FACTOR_PROOF_REQUIRED");
    }
    // Wrong codes and passwords count like failed sign-ins of the person (6 digits must not be guessable).
    return throttle.attempt(personKeys(principal.userId, origin), async (release) => {
      const passwordMatched =
        proof.password !== undefined && !options.completesSignIn && (await passwordMatches(principal.userId, proof.password));
      return transaction(db, async (tx) => {
        const row = await liveSessionOf(tx, principal);
        // What the session still owes after this proof: only an enrolment can remain.
        let stillOwed: NextStep = null;
        if (options.completesSignIn) {
          if (!row.twoFactorPending)
            throw new AppError("TWO_FACTOR_NOT_ENROLLED", { message: "No second factor is owed by this session." });
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
        return { secret, body: await presentSession(tx, settings.idleMs, renewed, csrfTokenOf(secret), stillOwed) };
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
    const current = await liveSessionOf(db, principal);
    const user = await members.findUserById(db, current.userId);
    if (user === null) throw new AppError("SESSION_EXPIRED");
    // The new password's rule first: a weak one is refused without spending an attempt.
    deps.passwordPolicy(body.new_password, "new_password", [user.email]);
    return throttle.attempt(personKeys(current.userId, origin), async (release) => {
      if (!(await passwords.verifyPassword(body.current_password, user.passwordHash))) throw new AppError("INVALID_PASSWORD");
      const passwordHash = await passwords.hashPassword(body.new_password);
      return transaction(db, async (tx) => {
        const row = await liveSessionOf(tx, principal);
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
        await auditEachBusiness(deps.audit, tx, row.userId, "password_changed", origin);
        return { secret, body: await presentSession(tx, settings.idleMs, row, csrfTokenOf(secret), null) };
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
      if (!TOKEN_SHAPE.test(token)) throw new AppError("PASSWORD_RESET_INVALID");
      const passwordHash = await passwords.hashPassword(body.password);
      await transaction(db, async (tx) => {
        const now = clock.now();
        const reset = await consumePasswordReset(tx, hashToken(token), now);
        if (reset === null) throw new AppError("PASSWORD_RESET_INVALID");
        await release(tx);
        await members.setUserPassword(tx, reset.userId, passwordHash);
        await voidPasswordResetsOf(tx, reset.userId, now);
        await endSessionsOfUser(tx, reset.userId, now, "password_changed");
        await auditEachBusiness(deps.audit, tx, reset.userId, "password_reset", origin);
      });
    });
  }

  async function startTwoFactorEnrolment(principal: SessionPrincipal) {
    const row = await liveSessionOf(db, principal);
    const user = await members.findUserById(db, row.userId);
    if (user === null) throw new AppError("SESSION_EXPIRED");
    return transaction(db, async (tx) => {
      const existing = await lockTwoFactor(tx, row.userId);
      if (existing?.confirmedAt != null) throw new AppError("TWO_FACTOR_ALREADY_ENABLED");
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
  async function issueRecoveryCodes(tx: Tx, userId: string): Promise<string[]> {
    const now = clock.now();
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode());
    await replaceRecoveryCodes(
      tx,
      userId,
      codes.map((code) => ({ id: ids.newId(), userId, codeHash: recoveryCodeHash(deps.cipher, userId, code), createdAt: now })),
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
        const row = await liveSessionOf(tx, principal);
        const pending = await lockTwoFactor(tx, row.userId);
        if (pending === null || pending.confirmedAt !== null) throw new AppError("TWO_FACTOR_NOT_ENROLLED");
        // An enrolment waiting for this code is owed only by a session that has no second factor to prove.
        if (row.twoFactorPending && (await owedStep(tx, row.userId, row.businessId)) === "two_factor") {
          throw new AppError("TWO_FACTOR_REQUIRED");
        }
        if (!(await acceptTotp(tx, deps, row.userId, code, true))) throw new AppError("INVALID_TWO_FACTOR_CODE");
        await release(tx);
        const codes = await issueRecoveryCodes(tx, row.userId);
        const secret = newToken();
        await renewSession(tx, row.id, { tokenHash: hashToken(secret), twoFactorPending: false });
        await auditEachBusiness(deps.audit, tx, row.userId, "two_factor_enabled", origin);
        const body = await presentSession(tx, settings.idleMs, { ...row, twoFactorPending: false }, csrfTokenOf(secret), null);
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
      const row = await liveSessionOf(tx, principal);
      const twoFactor = await lockTwoFactor(tx, row.userId);
      if (twoFactor?.confirmedAt == null) {
        throw new AppError("TWO_FACTOR_NOT_ENROLLED", {
          message: "Two-factor authentication is off: there are no recovery codes to regenerate.",
        });
      }
      const codes = await issueRecoveryCodes(tx, row.userId);
      await auditEachBusiness(deps.audit, tx, row.userId, "recovery_codes_regenerated", origin, { recovery_codes: codes.length });
      return { recovery_codes: codes };
    });
  }

  /** Needs a current code or a recovery code, throttled like every proof (a wrong one is a failure of the person). */
  async function disableTwoFactor(principal: SessionPrincipal, code: string, origin: RequestOrigin): Promise<void> {
    await throttle.attempt(personKeys(principal.userId, origin), (release) =>
      transaction(db, async (tx) => {
        const row = await liveSessionOf(tx, principal);
        const twoFactor = await lockTwoFactor(tx, row.userId);
        if (twoFactor?.confirmedAt == null) throw new AppError("TWO_FACTOR_NOT_ENROLLED");
        // Checked before the code, so a refused attempt spends no code (a recovery code is single use).
        const memberships = await members.listActiveMembershipsOfUser(tx, row.userId);
        const requiring = await businessesRequiringTwoFactor(
          tx,
          memberships.map((m) => m.businessId),
        );
        if (requiring.size > 0) {
          const names = memberships.filter((m) => requiring.has(m.businessId));
          throw new AppError("TWO_FACTOR_REQUIRED_BY_BUSINESS", {
            message: `${names.map((m) => m.businessName).join(", ")} require${names.length === 1 ? "s" : ""} two-factor authentication of every member, so it stays on. Ask an admin there to lift the requirement (PUT /v1/security-settings) or leave the Business first. Lost your authenticator? Sign in with a recovery code, then regenerate your recovery codes (POST /v1/session/two-factor/recovery-codes).`,
            details: names.map((m) => ({
              field: "business_id",
              code: "requires_two_factor",
              message: `${m.businessId} (${m.businessName}) requires two-factor authentication.`,
            })),
          });
        }
        const ok =
          (await acceptTotp(tx, deps, row.userId, code, false)) ||
          (await useRecoveryCode(tx, row.userId, recoveryCodeHash(deps.cipher, row.userId, code), clock.now()));
        if (!ok) throw new AppError("INVALID_TWO_FACTOR_CODE");
        await release(tx);
        await deleteTwoFactor(tx, row.userId);
        await auditEachBusiness(deps.audit, tx, row.userId, "two_factor_disabled", origin);
      }),
    );
  }

  return {
    ...sessions,
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
    hashPassword: passwords.hashPassword,
  };
}
