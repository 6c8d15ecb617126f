// The one throttle of every route that checks a credential: sign-in, its second factor, step-up confirmation,
// turning two-factor on and off, a password change and a password reset's token. A wrong password, code,
// recovery code or reset token is a failure, counted per account key and per client address over a sliding
// window (sign_in_failures); past either limit the attempt is refused with 429 before anything is checked.
//
// The rule: an attempt is RESERVED before its credential is checked, atomically. One transaction takes an
// advisory lock on the account key and on the client address, counts their failures within the window, and
// either refuses or writes the attempt's row, which counts as a failure from that moment. Only then does the
// expensive check (scrypt, about 100 ms) run. Counting before the check and writing after it let 100
// concurrent wrong passwords all pass a count of zero (issue 24); with the reservation at most `limit`
// attempts of a key are ever being checked or failed within a window, however many arrive at once.
// An attempt whose credential was right gives its place back in the transaction that acts on it
// (`release(tx)`); one refused for another reason before or after the check (not a member, a Business
// requires two-factor) gives it back too; a wrong credential leaves it as the recorded failure.

import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import { PEOPLE_ERRORS } from "./people.errors.js";
import {
  countSignInFailures,
  deleteExpiredSignInFailures,
  deleteSignInFailure,
  insertSignInFailure,
  lockAttemptKeys,
  nthNewestFailure,
} from "./people.repo.js";

export interface ThrottleLimits {
  readonly perAccount: number;
  readonly perAddress: number;
  readonly windowMs: number;
}

/**
 * Whose failures an attempt counts against: the account (an e-mail as typed for sign-in, `user:<id>` for the
 * proofs of a signed-in person, `password-reset:<client address>` for reset tokens, which name no account
 * before they are looked up) and the client address (every kind of attempt from one address together).
 */
export interface AttemptKeys {
  readonly account: string;
  readonly clientAddress: string;
}

/** Gives the attempt's place back, in the caller's transaction (the one that acts on a right credential). */
export type ReleaseAttempt = (tx: Tx) => Promise<void>;

/** The answers that mean "the credential was wrong": the reserved attempt stays, as the failure. */
const WRONG_CREDENTIAL = [
  PEOPLE_ERRORS.INVALID_CREDENTIALS,
  PEOPLE_ERRORS.INVALID_PASSWORD,
  PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE,
  PEOPLE_ERRORS.PASSWORD_RESET_INVALID,
];

export type AttemptThrottle = ReturnType<typeof createAttemptThrottle>;

export function createAttemptThrottle(deps: { db: Db; clock: Clock; ids: IdGenerator; limits: ThrottleLimits }) {
  const { db, clock, ids, limits } = deps;

  /** Reserves one attempt for the keys (its id), or throws SIGN_IN_THROTTLED with Retry-After. */
  async function reserve(keys: AttemptKeys): Promise<string> {
    const now = clock.now();
    const since = new Date(now.getTime() - limits.windowMs);
    const outcome = await transaction(db, async (tx) => {
      await lockAttemptKeys(tx, keys.account, keys.clientAddress);
      // Forget what left the window (both by index), so the table stays small.
      await deleteExpiredSignInFailures(tx, keys.account, keys.clientAddress, since);
      const counts = await countSignInFailures(tx, keys.account, keys.clientAddress, since);
      const over: { by: "email" | "address"; value: string; limit: number }[] = [];
      if (counts.email.count >= limits.perAccount) over.push({ by: "email", value: keys.account, limit: limits.perAccount });
      if (counts.address.count >= limits.perAddress)
        over.push({ by: "address", value: keys.clientAddress, limit: limits.perAddress });
      if (over.length > 0) {
        // One more attempt is allowed when the limit-th newest failure leaves the window.
        let retryAtMs = now.getTime();
        for (const { by, value, limit } of over) {
          const nth = await nthNewestFailure(tx, by, value, since, limit);
          if (nth !== null) retryAtMs = Math.max(retryAtMs, nth.getTime() + limits.windowMs);
        }
        return { refusedFor: Math.max(1, Math.ceil((retryAtMs - now.getTime()) / 1000)) };
      }
      const id = ids.newId();
      await insertSignInFailure(tx, { id, email: keys.account, clientAddress: keys.clientAddress, occurredAt: now });
      return { id };
    });
    if ("refusedFor" in outcome) {
      throw new AppError(PEOPLE_ERRORS.SIGN_IN_THROTTLED, { headers: { "retry-after": String(outcome.refusedFor) } });
    }
    return outcome.id;
  }

  /**
   * Runs `check` (which verifies the credential and, when it is right, acts and calls `release` in its own
   * transaction) under one reserved attempt. A wrong credential keeps the reservation as the failure; any
   * other refusal gives it back.
   */
  async function attempt<T>(keys: AttemptKeys, check: (release: ReleaseAttempt) => Promise<T>): Promise<T> {
    const id = await reserve(keys);
    try {
      return await check((tx) => deleteSignInFailure(tx, id));
    } catch (error) {
      if (!(error instanceof AppError && WRONG_CREDENTIAL.some((code) => error.is(code)))) {
        // Best effort: if even this fails (the database is gone), the attempt stays counted as a failure,
        // which errs on the safe side; the caller gets the original error.
        await deleteSignInFailure(db, id).catch(() => {});
      }
      throw error;
    }
  }

  return { attempt };
}
