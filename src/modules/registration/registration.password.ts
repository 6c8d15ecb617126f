// The password rule, after NIST SP 800-63B (5.1.1.2): at least 12 characters, no composition rules, and
// passwords that are common, breached-style or easy to guess are refused. The guessing estimate is zxcvbn
// (@zxcvbn-ts) with its common dictionary (the most used passwords of public breaches, common names,
// keyboard patterns), given the person's own e-mail address too; a password scoring below 3 ("safely
// unguessable: moderate protection from offline slow-hash scenario") is refused.

import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { AppError } from "../../platform/errors.js";
import { REGISTRATION_ERRORS } from "./registration.errors.js";

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;
const MIN_SCORE = 3;

export type PasswordPolicy = (password: string, field: string, context?: readonly string[]) => void;

/**
 * The estimator, built on first use (indexing the dictionaries takes 15-30 ms of CPU) and then shared by every
 * policy of the process: it depends on nothing but the constant dictionaries, and every check of one policy
 * already goes through the same estimator.
 */
let sharedEstimator: ZxcvbnFactory | null = null;

/** The rule as a function. */
export function createPasswordPolicy(): PasswordPolicy {
  return (password, field, context = []) => {
    sharedEstimator ??= new ZxcvbnFactory({ dictionary: { ...dictionary }, graphs: adjacencyGraphs });
    assertAcceptablePassword(sharedEstimator, password, field, context);
  };
}

/** Throws WEAK_PASSWORD (with a detail naming `field`) when the password breaks the rule. */
function assertAcceptablePassword(estimator: ZxcvbnFactory, password: string, field: string, context: readonly string[]): void {
  // Length in code points, as a person counts characters (NIST: Unicode counts each code point as one).
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw new AppError(REGISTRATION_ERRORS.WEAK_PASSWORD, {
      message: `The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long.`,
      details: [{ field, code: length < PASSWORD_MIN_LENGTH ? "too_short" : "too_long", message: "Length out of range." }],
    });
  }
  const inputs = context.flatMap((value) => [value, ...value.split(/[@._+-]/).filter((part) => part.length >= 3)]);
  const result = estimator.check(password.slice(0, 100), inputs);
  if (result.score < MIN_SCORE) {
    throw new AppError(REGISTRATION_ERRORS.WEAK_PASSWORD, {
      details: [
        {
          field,
          code: "too_common",
          message: "Too easy to guess (a common or breached password, a pattern, or close to your e-mail address).",
        },
      ],
    });
  }
}
