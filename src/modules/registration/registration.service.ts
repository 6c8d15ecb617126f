// Self-registration in two steps, so that nobody gets an account (and keys that send mail) for an address
// they do not receive mail at, and so that the API never tells whether an address is registered:
//
//  1. register(): hashes the password, stores a pending registration (SHA-256 of a single-use token,
//     24 hours by default) and e-mails the token to the address, in one transaction. A new address gets the
//     verification mail; an address that already has a user gets a notice whose token adds the new Business
//     to that user. Both cases do the same work and answer the same bytes (202). Past the per-recipient
//     limit the answer is still the same, and nothing is stored or sent.
//  2. verify(): consumes the token with a conditional update and, in the same transaction, creates the
//     Business, the user (or reuses the existing one; its password is never replaced), the admin membership
//     and one sandbox and one production admin key. A token works once: a double submit creates one Business.

import { createHash, randomBytes } from "node:crypto";
import { ENVIRONMENTS } from "../../platform/auth/api-key-format.js";
import type { Clock } from "../../platform/clock.js";
import { hashPassword } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { isUniqueViolation } from "../../platform/db/errors.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { MailOutbox } from "../emails/index.js";
import { REGISTRATION_ERRORS } from "./registration.errors.js";
import { renderExistingAccountMail, renderVerificationMail } from "./registration.mail.js";
import type { FirstApiKeyInput, IssuedFirstApiKey } from "./registration.ports.js";
import {
  clearPendingPassword,
  consumePendingRegistration,
  countRegistrationsSince,
  findUserByEmail,
  insertBusiness,
  insertMembership,
  insertPendingRegistration,
  insertUser,
  lockRegistrationAddress,
  markEmailVerified,
} from "./registration.repo.js";
import {
  BUSINESS_NAME_FORBIDDEN,
  type RegistrationAccepted,
  type RegistrationBody,
  type RegistrationResponse,
  type VerificationBody,
} from "./registration.schemas.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** 32 random bytes, base64url: 43 characters, 256 bits; guessing is hopeless. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface RegistrationServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly issueApiKey: (tx: Tx, input: FirstApiKeyInput) => Promise<IssuedFirstApiKey>;
  readonly mail: Pick<MailOutbox, "sendPlatformMail">;
  /** PUBLIC_BASE_URL: named in the e-mail's instructions. */
  readonly publicBaseUrl: string;
  /** REGISTRATION_TOKEN_TTL_HOURS. */
  readonly tokenTtlHours: number;
  /** REGISTRATION_EMAILS_PER_ADDRESS_PER_DAY. */
  readonly emailsPerAddressPerDay: number;
  /** The password rule (the people module's): throws WEAK_PASSWORD. */
  readonly passwordPolicy?: (password: string, field: string, context?: readonly string[]) => void;
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function createRegistrationService(deps: RegistrationServiceDeps) {
  const { db, clock, ids, issueApiKey } = deps;

  function acceptedAnswer(email: string): RegistrationAccepted {
    return {
      status: "verification_sent",
      email,
      message: `Check the inbox of ${email}: the e-mail we sent there holds a verification token. Send it to POST /v1/registration/verification within ${deps.tokenTtlHours} hours to receive your API keys. Nothing is created until then.`,
    };
  }

  async function register(body: RegistrationBody): Promise<RegistrationAccepted> {
    if (BUSINESS_NAME_FORBIDDEN.test(body.business_name)) {
      throw new AppError("validation_failed", {
        details: [
          {
            field: "business_name",
            code: "invalid_format",
            message:
              "Must contain a visible character and no control characters (line breaks, tabs, NUL, bidirectional overrides).",
          },
        ],
      });
    }
    const email = body.email.trim().toLowerCase();
    // Checked whether or not the address has an account, so the answer does not tell them apart.
    deps.passwordPolicy?.(body.password, "password", [email]);
    // Hashing costs ~100 ms of CPU by design; done for every request, known address or not, so the time taken
    // does not tell them apart. Before the transaction, so no lock is held meanwhile.
    const passwordHash = await hashPassword(body.password);
    const token = randomBytes(32).toString("base64url");
    const now = clock.now();
    await transaction(db, async (tx) => {
      await lockRegistrationAddress(tx, email);
      // A mailbox receives at most a few of these a day, so registration cannot be used to flood it. The
      // answer stays the same either way: it must not tell an over-the-limit address from any other.
      if ((await countRegistrationsSince(tx, email, new Date(now.getTime() - DAY_MS))) >= deps.emailsPerAddressPerDay) return;
      const existing = await findUserByEmail(tx, email);
      const pending = await insertPendingRegistration(tx, {
        id: ids.newId(),
        tokenHash: hashToken(token),
        email,
        businessName: body.business_name.trim(),
        passwordHash,
        expiresAt: new Date(now.getTime() + deps.tokenTtlHours * 60 * 60 * 1000),
        createdAt: now,
      });
      const input = {
        businessName: pending.businessName,
        token,
        publicBaseUrl: deps.publicBaseUrl,
        ttlHours: deps.tokenTtlHours,
      };
      const rendered = existing === null ? renderVerificationMail(input) : renderExistingAccountMail(input);
      await deps.mail.sendPlatformMail(tx, {
        kind: existing === null ? "registration_verification" : "registration_existing_account",
        to: email,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        idempotencyKey: `registration:${pending.id}`,
      });
    });
    return acceptedAnswer(email);
  }

  async function createBusinessFor(tx: Tx, tokenHash: string): Promise<RegistrationResponse> {
    const now = clock.now();
    const pending = await consumePendingRegistration(tx, tokenHash, now);
    if (pending === null) throw new AppError(REGISTRATION_ERRORS.REGISTRATION_TOKEN_INVALID);
    let user = await findUserByEmail(tx, pending.email);
    if (user === null) {
      if (pending.passwordHash === null) throw new Error("an unconsumed registration has no password hash");
      user = await insertUser(tx, {
        id: ids.newId(),
        email: pending.email,
        passwordHash: pending.passwordHash,
        emailVerifiedAt: now,
        createdAt: now,
      });
    } else if (user.emailVerifiedAt === null) {
      // The token reached this mailbox and came back: that proves the address, whoever created the user.
      user = await markEmailVerified(tx, user.id, now);
    }
    await clearPendingPassword(tx, pending.id);
    const business = await insertBusiness(tx, { id: ids.newId(), name: pending.businessName, createdAt: now });
    const membership = await insertMembership(tx, {
      id: ids.newId(),
      businessId: business.id,
      userId: user.id,
      role: "business_admin",
      createdAt: now,
    });
    const apiKeys: IssuedFirstApiKey[] = [];
    for (const environment of ENVIRONMENTS) {
      apiKeys.push(
        await issueApiKey(tx, {
          businessId: business.id,
          environment,
          membershipId: membership.id,
          role: "business_admin",
          label: "Issued at registration",
        }),
      );
    }
    return {
      business: { id: business.id, name: business.name, created_at: business.createdAt.toISOString() },
      user: { id: user.id, email: user.email, created_at: user.createdAt.toISOString() },
      membership: { id: membership.id, role: "business_admin" as const },
      api_keys: apiKeys,
    };
  }

  async function verify(body: VerificationBody): Promise<RegistrationResponse> {
    const token = body.token.trim();
    // Not a token we could have issued: the same answer as an unknown one.
    if (!TOKEN_SHAPE.test(token)) throw new AppError(REGISTRATION_ERRORS.REGISTRATION_TOKEN_INVALID);
    const tokenHash = hashToken(token);
    try {
      return await transaction(db, (tx) => createBusinessFor(tx, tokenHash));
    } catch (error) {
      // Two tokens of one new address verified at once: both try to create its user and the unique index
      // lets one win. The loser's transaction (its consumption included) rolled back, so its token is still
      // good; run it again, and it now finds the user and adds its Business to it.
      if (!isUniqueViolation(error, "users_email_key")) throw error;
      return transaction(db, (tx) => createBusinessFor(tx, tokenHash));
    }
  }

  return { register, verify };
}
