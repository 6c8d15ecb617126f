// The use cases of a person about themselves, assembled from their parts, each a factory of its own file:
// sign-in and sessions (people.sessions.ts), step-up confirmation and the sign-in's second factor
// (people.step-up.ts), passwords and their reset (people.passwords.ts), two-factor authentication
// (people.two-factor.ts). What the parts share is in people.internal.ts. This file only builds the parts and
// the three things they share at run time: the session expiry, the attempt throttle and the password hasher.
import type { Clock } from "../../platform/clock.js";
import type { DeriveKey, FieldCipher } from "../../platform/crypto.js";
import type { Db } from "../../platform/db/client.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { PasswordPolicy } from "../registration/index.js";
import type { AuditRecorder } from "./people.audit.js";
import { createSessionExpiry } from "./people.expiry.js";
import { createPasswordHasher, type SessionSettings } from "./people.internal.js";
import { createPasswordUseCases } from "./people.passwords.js";
import { createSessions } from "./people.sessions.js";
import { createStepUp } from "./people.step-up.js";
import { createAttemptThrottle } from "./people.throttle.js";
import { createTwoFactor } from "./people.two-factor.js";

export type { IssuedSession, NextStep, RequestOrigin, SessionBody, SessionSettings } from "./people.internal.js";
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

export type PeopleService = ReturnType<typeof createPeopleService>;

export function createPeopleService(deps: PeopleServiceDeps) {
  const { db, clock, ids, cipher, settings, audit } = deps;
  const expiry = createSessionExpiry({ db, clock, audit, jobStore: deps.jobStore, idleMs: settings.idleMs });
  // Every credential check goes through it: reserved before the check, atomically (people.throttle.ts).
  const throttle = createAttemptThrottle({ db, clock, ids, limits: settings.throttle });
  const hasher = createPasswordHasher(deps.deriveKey);
  const sessions = createSessions({ db, clock, ids, settings, audit, expiry, throttle, hasher });
  const stepUp = createStepUp({ db, clock, cipher, idleMs: settings.idleMs, audit, throttle, hasher });
  const passwords = createPasswordUseCases({
    db,
    clock,
    cipher,
    idleMs: settings.idleMs,
    passwordPolicy: deps.passwordPolicy,
    audit,
    throttle,
    hasher,
    jobStore: deps.jobStore,
  });
  const twoFactor = createTwoFactor({ db, clock, ids, cipher, idleMs: settings.idleMs, audit, throttle });
  return {
    signIn: sessions.signIn,
    authenticateSession: sessions.authenticateSession,
    csrfTokenMatches: sessions.csrfTokenMatches,
    getSession: sessions.getSession,
    signOut: sessions.signOut,
    signOutEverywhere: sessions.signOutEverywhere,
    listMySessions: sessions.listMySessions,
    endMySession: sessions.endMySession,
    switchBusiness: sessions.switchBusiness,
    confirm: stepUp.confirm,
    completeTwoFactor: stepUp.completeTwoFactor,
    changePassword: passwords.changePassword,
    requestPasswordReset: passwords.requestPasswordReset,
    resetPassword: passwords.resetPassword,
    startTwoFactorEnrolment: twoFactor.startTwoFactorEnrolment,
    confirmTwoFactorEnrolment: twoFactor.confirmTwoFactorEnrolment,
    disableTwoFactor: twoFactor.disableTwoFactor,
    regenerateRecoveryCodes: twoFactor.regenerateRecoveryCodes,
    /** Hashes a new password behind the same gate as sign-ins (invitation acceptance uses it too). */
    hashPassword: hasher.hashPassword,
  };
}
