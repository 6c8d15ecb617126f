// Step-up: a person proves themselves again on a live session, and gets a new secret. Two use cases share it:
// the second factor that completes a sign-in (POST /v1/session/two-factor) and the confirmation that opens the
// step-up window for sensitive routes (POST /v1/session/confirmation). A proof is a password, a TOTP code or
// a recovery code, throttled like every credential (people.throttle.ts).
import type { SessionPrincipal } from "../../platform/auth/session.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import * as members from "../registration/registration.shared.js";
import type { AuditAction, AuditRecorder } from "./people.audit.js";
import { PEOPLE_ERRORS } from "./people.errors.js";
import {
  acceptTotp,
  auditActor,
  type IssuedSession,
  liveSessionOf,
  type NextStep,
  owedStep,
  type PasswordHasher,
  personKeys,
  presentSession,
  type RequestOrigin,
  recoveryCodeHash,
} from "./people.internal.js";
import { countUnusedRecoveryCodes, findTwoFactor, renewSession, type SessionRow, useRecoveryCode } from "./people.repo.js";
import type { AttemptThrottle } from "./people.throttle.js";
import { csrfTokenOf, hashToken, newToken } from "./people.tokens.js";

/** What a person may prove themselves with: exactly one of the three (the route's schema says which it accepts). */
export interface Proof {
  readonly password?: string | undefined;
  readonly code?: string | undefined;
  readonly recovery_code?: string | undefined;
}

export interface StepUpDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly cipher: Pick<FieldCipher, "decrypt" | "fingerprint">;
  /** The session's idle timeout, which the renewed session's answer announces. */
  readonly idleMs: number;
  readonly audit: AuditRecorder;
  readonly throttle: Pick<AttemptThrottle, "attempt">;
  readonly hasher: Pick<PasswordHasher, "verifyPassword">;
}

export type StepUp = ReturnType<typeof createStepUp>;

export function createStepUp(deps: StepUpDeps) {
  const { db, clock, throttle, hasher } = deps;

  /**
   * Whether `password` is the person's, checked before any transaction opens: scrypt takes about 100 ms of
   * CPU (more while the hash gate queues it), and on PGlite an open transaction would hold every other request.
   */
  async function passwordMatches(userId: string, password: string): Promise<boolean> {
    const user = await members.findUserById(db, userId);
    return user !== null && (await hasher.verifyPassword(password, user.passwordHash));
  }

  /**
   * A password or a second factor (TOTP or a recovery code) proves the person again. A password was checked
   * before the transaction (`passwordMatches`); its answer is applied here, in the order of the other checks.
   */
  async function verifyProof(
    tx: Tx,
    row: SessionRow,
    proof: Proof,
    origin: RequestOrigin,
    passwordMatched: boolean,
  ): Promise<void> {
    if (proof.password !== undefined) {
      if (!passwordMatched) throw new AppError(PEOPLE_ERRORS.INVALID_PASSWORD);
      return;
    }
    if (proof.code !== undefined) {
      if (!(await acceptTotp(tx, deps, row.userId, proof.code, false))) throw new AppError(PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE);
      return;
    }
    if (proof.recovery_code !== undefined) {
      if (!(await useRecoveryCode(tx, row.userId, recoveryCodeHash(deps.cipher, row.userId, proof.recovery_code), clock.now()))) {
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
    proof: Proof,
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
        const row = await liveSessionOf(tx, principal);
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
        return { secret, body: await presentSession(tx, deps.idleMs, renewed, csrfTokenOf(secret), stillOwed) };
      });
    });
  }

  const confirm = (principal: SessionPrincipal, proof: Proof, origin: RequestOrigin) =>
    renewAfterProof(principal, proof, origin, "session_confirmed", { completesSignIn: false });

  const completeTwoFactor = (principal: SessionPrincipal, proof: Proof, origin: RequestOrigin) =>
    renewAfterProof(principal, proof, origin, "sign_in", { completesSignIn: true });

  return { confirm, completeTwoFactor };
}
