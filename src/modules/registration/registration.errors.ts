// The registration module's error codes.
// Thrown and declared by their definition (`new AppError(TABLE.CODE)`); see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const REGISTRATION_ERRORS = defineErrorCodes({
  REGISTRATION_TOKEN_INVALID: {
    status: 410,
    message: "This verification token is unknown, expired or already used: register again to receive a new one.",
    description:
      "`POST /v1/registration/verification` needs the token from the e-mail `POST /v1/registration` sent, unused and within 24 hours (REGISTRATION_TOKEN_TTL_HOURS). The answer is the same whichever of the three it is. Register again to receive a new token; a token that was used already created its Business, whose keys were in that answer.",
  },
  WEAK_PASSWORD: {
    status: 422,
    message: "Choose another password: this one is too short or too common.",
    description:
      "Passwords follow NIST SP 800-63B: at least 12 characters (at most 200), no rule about character classes, and common, breached-style or guessable passwords (dictionary words, names, keyboard patterns, repeats, dates, the e-mail address itself) are refused. A passphrase of several unrelated words works well.",
  },
});
