// What the people module's use cases about a person share: sessions (people.sessions.ts), step-up
// (people.step-up.ts), passwords and resets (people.passwords.ts) and two-factor (people.two-factor.ts). Plain
// functions taking what they use, so each of those files states its own dependencies instead of reading
// them from one closure. Not offered outside the module (index.ts exports none of it).

import type { Static } from "@sinclair/typebox";
import * as OTPAuth from "otpauth";
import type { SessionPrincipal } from "../../platform/auth/session.js";
import type { Clock } from "../../platform/clock.js";
import {
  type DeriveKey,
  type FieldCipher,
  hashPassword as hashNewPassword,
  verifyPassword as verifyStoredPassword,
} from "../../platform/crypto.js";
import type { Db, Tx } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { MembershipRecord } from "../registration/registration.shared.js";
import * as members from "../registration/registration.shared.js";
import type { AuditAction, AuditActor, AuditRecorder } from "./people.audit.js";
import {
  acceptTwoFactorStep,
  findLiveSessionById,
  findRequireTwoFactor,
  findTwoFactor,
  lockTwoFactor,
  type SessionRow,
} from "./people.repo.js";
import type { SessionSchema } from "./people.schemas.js";
import type { AttemptKeys } from "./people.throttle.js";
import { newToken, normalizeRecoveryCode } from "./people.tokens.js";

export interface SessionSettings {
  readonly idleMs: number;
  readonly absoluteMs: number;
  readonly stepUpMs: number;
  /** PUBLIC_BASE_URL is HTTPS: the cookie is `__Host-session`, Secure. */
  readonly secureCookie: boolean;
  readonly throttle: { readonly perAccount: number; readonly perAddress: number; readonly windowMs: number };
}

/** Where a request came from, for the audit log and the per-address throttle. */
export interface RequestOrigin {
  readonly clientAddress: string;
  readonly userAgent: string | null;
}

/** What the browser must hold after a use case that issues a session secret. */
export interface IssuedSession {
  readonly secret: string;
  readonly body: SessionBody;
}

export type NextStep = "two_factor" | "two_factor_enrolment" | null;

/** A session as the API answers it: the type of its response schema, never a copy kept by hand. */
export type SessionBody = Static<typeof SessionSchema>;

/** Seconds a TOTP code is valid (RFC 6238's default); one step either side is accepted for clock drift. */
const TOTP_PERIOD_SECONDS = 30;

// Passwords

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;

/**
 * scrypt for passwords through `deriveKey` (the low-priority threads of platform/password-hasher.ts, which also
 * bound how many hashes run at once, so a burst of sign-ins cannot take the cores the rest of the API needs).
 */
export function createPasswordHasher(deriveKey: DeriveKey) {
  const verifyPassword = (password: string, stored: string) => verifyStoredPassword(password, stored, deriveKey);
  const hashPassword = (password: string) => hashNewPassword(password, deriveKey);
  // Hash of a password nobody has: an unknown address costs the same scrypt work as a known one.
  let dummyHash: Promise<string> | null = null;
  const dummyPasswordHash = () => {
    dummyHash ??= hashPassword(newToken());
    return dummyHash;
  };
  return { verifyPassword, hashPassword, dummyPasswordHash };
}

// Throttling and audit

/** A signed-in person's proofs (codes, recovery codes, the current password) count against `user:<id>`. */
export function personKeys(userId: string, origin: RequestOrigin): AttemptKeys {
  return { account: `user:${userId}`, clientAddress: origin.clientAddress };
}

export function auditActor(row: Pick<SessionRow, "id" | "userId" | "membershipId" | "role">, origin: RequestOrigin): AuditActor {
  return {
    userId: row.userId,
    membershipId: row.membershipId,
    role: row.role,
    sessionId: row.id,
    clientAddress: origin.clientAddress,
    userAgent: origin.userAgent,
  };
}

/** Records `action` by the person in each Business they belong to (acts on the person, not on one Business). */
export async function auditEachBusiness(
  audit: AuditRecorder,
  tx: Tx,
  userId: string,
  action: AuditAction,
  origin: RequestOrigin,
  details: Record<string, unknown> = {},
): Promise<void> {
  for (const m of await members.listActiveMembershipsOfUser(tx, userId)) {
    await audit(tx, {
      businessId: m.businessId,
      action,
      actor: { userId, membershipId: m.membershipId, role: m.role, ...origin },
      subjectType: "user",
      subjectId: userId,
      details,
    });
  }
}

// Sessions

/**
 * The live session of a signed-in principal, or SESSION_EXPIRED. `db`: the outer handle, or the caller's
 * transaction when inside one (on PGlite the outer handle would wait for it forever).
 */
export async function liveSessionOf(db: Db, principal: SessionPrincipal): Promise<SessionRow> {
  const row = await findLiveSessionById(db, principal.sessionId);
  if (row === null) throw new AppError("SESSION_EXPIRED");
  return row;
}

/** What a session still owes before it may act: its second factor, or an enrolment the Business requires. */
export async function owedStep(db: Db, userId: string, businessId: string): Promise<NextStep> {
  const twoFactor = await findTwoFactor(db, userId);
  if (twoFactor?.confirmedAt != null) return "two_factor";
  return (await findRequireTwoFactor(db, businessId)) ? "two_factor_enrolment" : null;
}

/**
 * The session as GET /v1/session answers it. `db`: the caller's transaction when inside one (on PGlite the
 * outer handle would wait for it forever); `idleMs` is the idle timeout the answer announces.
 */
export async function presentSession(
  db: Db,
  idleMs: number,
  row: SessionRow,
  csrfToken: string,
  nextStep: NextStep,
): Promise<SessionBody> {
  const user = await members.findUserById(db, row.userId);
  if (user === null) throw new Error("a session's user vanished");
  const memberships = await members.listActiveMembershipsOfUser(db, row.userId);
  const current = memberships.find((m) => m.membershipId === row.membershipId);
  const twoFactor = await findTwoFactor(db, row.userId);
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
      idle_timeout_seconds: Math.round(idleMs / 1000),
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

// Second factor: the step-up proofs and two-factor's enrolment and removal check codes the same way.

export function totpFor(secretBase32: string, email: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: "Payouts",
    label: email,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

export function recoveryCodeHash(cipher: Pick<FieldCipher, "fingerprint">, userId: string, code: string): string {
  // Keyed: recovery codes hold ~49 bits, too few to survive an offline guess against a plain hash.
  return cipher.fingerprint(`recovery:${userId}:${normalizeRecoveryCode(code)}`);
}

/**
 * Verifies a TOTP code and records its step, refusing a code already used (replay). `confirm`: the first code of
 * an enrolment, which also confirms the secret; otherwise only a confirmed secret is checked.
 */
export async function acceptTotp(
  tx: Tx,
  deps: { readonly cipher: Pick<FieldCipher, "decrypt">; readonly clock: Clock },
  userId: string,
  code: string,
  confirm: boolean,
): Promise<boolean> {
  const twoFactor = await lockTwoFactor(tx, userId);
  if (twoFactor === null || (!confirm && twoFactor.confirmedAt === null)) return false;
  const user = await members.findUserById(tx, userId);
  const totp = totpFor(deps.cipher.decrypt(twoFactor.secretEncrypted), user?.email ?? "");
  const now = deps.clock.now().getTime();
  const delta = totp.validate({ token: code.replace(/\s+/g, ""), timestamp: now, window: 1 });
  if (delta === null) return false;
  const step = Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
  return acceptTwoFactorStep(tx, userId, step, confirm ? deps.clock.now() : undefined);
}
