// Passwords: a signed-in person changes theirs (proving the current one), anyone asks for a reset by e-mail
// (people.reset.ts answers it in the worker), and a reset token sets a new one. A new password ends the
// person's other sessions and voids their open resets; both credentials are throttled (people.throttle.ts).
// The password's rule is registration.password.ts (the registration module sets a person's first password).
import type { SessionPrincipal } from "../../platform/auth/session.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { PasswordPolicy } from "../registration/index.js";
import * as members from "../registration/registration.shared.js";
import type { AuditRecorder } from "./people.audit.js";
import { PEOPLE_ERRORS } from "./people.errors.js";
import {
  auditEachBusiness,
  type IssuedSession,
  liveSessionOf,
  type PasswordHasher,
  personKeys,
  presentSession,
  type RequestOrigin,
} from "./people.internal.js";
import { consumePasswordReset, endSessionsOfUser, renewSession, voidPasswordResetsOf } from "./people.repo.js";
import { enqueuePasswordResetRequest } from "./people.reset.js";
import type { AttemptThrottle } from "./people.throttle.js";
import { csrfTokenOf, hashToken, newToken, TOKEN_SHAPE } from "./people.tokens.js";

export interface PasswordUseCasesDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** Seals the address a reset is asked for, in its job's payload. */
  readonly cipher: Pick<FieldCipher, "encrypt">;
  /** The session's idle timeout, which the changed session's answer announces. */
  readonly idleMs: number;
  readonly passwordPolicy: PasswordPolicy;
  readonly audit: AuditRecorder;
  readonly throttle: Pick<AttemptThrottle, "attempt">;
  readonly hasher: Pick<PasswordHasher, "verifyPassword" | "hashPassword">;
  readonly jobStore: Pick<JobStore, "enqueue">;
}

export type PasswordUseCases = ReturnType<typeof createPasswordUseCases>;

export function createPasswordUseCases(deps: PasswordUseCasesDeps) {
  const { db, clock, throttle, hasher } = deps;

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
      if (!(await hasher.verifyPassword(body.current_password, user.passwordHash)))
        throw new AppError(PEOPLE_ERRORS.INVALID_PASSWORD);
      const passwordHash = await hasher.hashPassword(body.new_password);
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
        return { secret, body: await presentSession(tx, deps.idleMs, row, csrfTokenOf(secret), null) };
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
      const passwordHash = await hasher.hashPassword(body.password);
      await transaction(db, async (tx) => {
        const now = clock.now();
        const reset = await consumePasswordReset(tx, hashToken(token), now);
        if (reset === null) throw new AppError(PEOPLE_ERRORS.PASSWORD_RESET_INVALID);
        await release(tx);
        await members.setUserPassword(tx, reset.userId, passwordHash);
        await voidPasswordResetsOf(tx, reset.userId, now);
        await endSessionsOfUser(tx, reset.userId, now, "password_changed");
        await auditEachBusiness(deps.audit, tx, reset.userId, "password_reset", origin);
      });
    });
  }

  return { changePassword, requestPasswordReset, resetPassword };
}
