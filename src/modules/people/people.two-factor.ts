// Two-factor authentication of a person: enrolling an authenticator app (a TOTP secret, then a first code
// that turns it on and shows ten recovery codes once), regenerating the recovery codes, and turning it off.
// The secret's row is locked (FOR UPDATE) in each of these transactions, so two of them for one person take
// turns. Codes are checked as the step-up proofs check them (people.internal.ts), under the same throttle.
import * as OTPAuth from "otpauth";
import QRCode from "qrcode";
import type { SessionPrincipal } from "../../platform/auth/session.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import * as members from "../registration/registration.shared.js";
import type { AuditRecorder } from "./people.audit.js";
import { PEOPLE_ERRORS } from "./people.errors.js";
import {
  acceptTotp,
  auditEachBusiness,
  liveSessionOf,
  owedStep,
  personKeys,
  presentSession,
  type RequestOrigin,
  recoveryCodeHash,
  totpFor,
} from "./people.internal.js";
import {
  businessesRequiringTwoFactor,
  deleteTwoFactor,
  lockTwoFactor,
  putTwoFactorSecret,
  renewSession,
  replaceRecoveryCodes,
  useRecoveryCode,
} from "./people.repo.js";
import type { AttemptThrottle } from "./people.throttle.js";
import { csrfTokenOf, hashToken, newRecoveryCode, newToken } from "./people.tokens.js";

const RECOVERY_CODE_COUNT = 10;

export interface TwoFactorDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Seals the TOTP secret at rest, opens it to check a code, and keys the recovery codes' hashes. */
  readonly cipher: Pick<FieldCipher, "encrypt" | "decrypt" | "fingerprint">;
  /** The session's idle timeout, which the renewed session's answer announces. */
  readonly idleMs: number;
  readonly audit: AuditRecorder;
  readonly throttle: Pick<AttemptThrottle, "attempt">;
}

export type TwoFactor = ReturnType<typeof createTwoFactor>;

export function createTwoFactor(deps: TwoFactorDeps) {
  const { db, clock, ids, throttle } = deps;

  async function startTwoFactorEnrolment(principal: SessionPrincipal) {
    const row = await liveSessionOf(db, principal);
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
        if (pending === null || pending.confirmedAt !== null) throw new AppError(PEOPLE_ERRORS.TWO_FACTOR_NOT_ENROLLED);
        // An enrolment waiting for this code is owed only by a session that has no second factor to prove.
        if (row.twoFactorPending && (await owedStep(tx, row.userId, row.businessId)) === "two_factor") {
          throw new AppError("TWO_FACTOR_REQUIRED");
        }
        if (!(await acceptTotp(tx, deps, row.userId, code, true))) throw new AppError(PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE);
        await release(tx);
        const codes = await issueRecoveryCodes(tx, row.userId);
        const secret = newToken();
        await renewSession(tx, row.id, { tokenHash: hashToken(secret), twoFactorPending: false });
        await auditEachBusiness(deps.audit, tx, row.userId, "two_factor_enabled", origin);
        const body = await presentSession(tx, deps.idleMs, { ...row, twoFactorPending: false }, csrfTokenOf(secret), null);
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
        throw new AppError(PEOPLE_ERRORS.TWO_FACTOR_NOT_ENROLLED, {
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
          (await acceptTotp(tx, deps, row.userId, code, false)) ||
          (await useRecoveryCode(tx, row.userId, recoveryCodeHash(deps.cipher, row.userId, code), clock.now()));
        if (!ok) throw new AppError(PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE);
        await release(tx);
        await deleteTwoFactor(tx, row.userId);
        await auditEachBusiness(deps.audit, tx, row.userId, "two_factor_disabled", origin);
      }),
    );
  }

  return { startTwoFactorEnrolment, confirmTwoFactorEnrolment, disableTwoFactor, regenerateRecoveryCodes };
}
