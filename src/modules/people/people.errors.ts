// The people module's error codes: sign-in and its throttle, two-factor, passwords, resets, invitations, the team,
// and a weakened control (refused to API keys; bank rails and payouts answer it too).
// Thrown and declared by their definition (`new AppError(TABLE.CODE)`); see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const PEOPLE_ERRORS = defineErrorCodes({
  CONTROL_WEAKENING_NEEDS_PERSON: {
    status: 403,
    message:
      "Weakening a control needs a person signed in to the dashboard, not an API key: make this change from the dashboard.",
    description:
      "Turning maker-checker off, loosening the approval rules, lifting the two-factor requirement and changing a bank rail's delivery target are refused to API keys: a key is a long-lived machine credential never asked for step-up. Make the change from a dashboard session (with a recent confirmation); every admin is e-mailed and the audit log records `control_weakened`. Strengthening a control with a key is allowed.",
  },
  TWO_FACTOR_ENROLMENT_REQUIRED: {
    status: 403,
    message: "This Business requires two-factor authentication: enrol first (POST /v1/session/two-factor/enrolment).",
    description:
      "The Business's security settings require two-factor authentication of every member. A member without it may sign in, but the session serves only enrolment and sign-out until a code confirms the enrolment.",
  },
  INVALID_CREDENTIALS: {
    status: 401,
    message: "The e-mail address or the password is wrong. Try again, or reset the password.",
    description:
      "Sign-in failed. The answer is the same, in about the same time, whether the address has no account or the password is wrong, so it does not tell who has an account. Repeated failures are throttled (`SIGN_IN_THROTTLED`).",
  },
  SIGN_IN_THROTTLED: {
    status: 429,
    message: "Too many failed sign-ins. Retry after the time given in Retry-After.",
    description:
      "Failed sign-ins are counted per e-mail address (SIGN_IN_FAILURES_PER_ACCOUNT, 5 by default) and per client address (SIGN_IN_FAILURES_PER_ADDRESS, 50 by default) over SIGN_IN_THROTTLE_WINDOW_MINUTES (15 by default). Past either, sign-in is refused, right password or not, until `Retry-After` seconds have passed. A password reset is still possible meanwhile. The same rule holds for every credential a signed-in person gives (second factor, step-up, turning two-factor on or off, password change: counted per person) and for reset tokens; each attempt takes its place before it is checked, so concurrent attempts cannot exceed the limit.",
  },
  INVALID_TWO_FACTOR_CODE: {
    status: 401,
    message:
      "The two-factor code is wrong, expired or was already used: enter the current code from your authenticator app, or a recovery code.",
    description:
      "Codes from the authenticator app are valid for 30 seconds (one step either side is accepted for clock drift) and only once: a code already accepted is refused within its window. A recovery code works once.",
  },
  TWO_FACTOR_PROOF_REQUIRED: {
    status: 422,
    message: "You use two-factor authentication: confirm with a code from your authenticator app or a recovery code.",
    description:
      "Step-up (`POST /v1/session/confirmation`) asks a person who uses two-factor authentication for the factor (`code` or `recovery_code`): a password alone, which one phishing page or one reused password gives away, is refused before it is checked. People without two-factor authentication confirm with their password.",
  },
  INVALID_PASSWORD: {
    status: 401,
    message: "The password is wrong: enter your current password.",
    description: "The current password given to confirm an act (step-up, password change, two-factor changes) is wrong.",
  },
  INVITATION_INVALID: {
    status: 410,
    message: "This invitation is unknown, expired, revoked or already used: ask an admin of the Business for a new one.",
    description: "Invitations work once and for 7 days. Ask an admin of the Business for a new one.",
  },
  PASSWORD_RESET_INVALID: {
    status: 410,
    message: "This password reset link is unknown, expired or already used: ask for a new one.",
    description: "A reset works once and for 1 hour, and a newer reset or a password change voids it. Ask for a new one.",
  },
  ALREADY_A_MEMBER: {
    status: 409,
    message: "This person is already a member of the Business: change the member's role instead.",
    description: "Change the member's role instead (`PATCH /v1/members/{membershipId}`).",
  },
  LAST_ADMIN: {
    status: 409,
    message: "The Business must keep at least one admin: make another member admin first.",
    description: "The last admin cannot be removed or given another role. Make another member admin first.",
  },
  NOT_A_MEMBER: {
    status: 403,
    message: "You are not a member of that Business: choose one of your memberships (GET /v1/session lists them).",
    description:
      "A session switches only to a Business the signed-in person is a member of (see `memberships` of `GET /v1/session`).",
  },
  TWO_FACTOR_ALREADY_ENABLED: {
    status: 409,
    message: "Two-factor authentication is already enabled: turn it off first (with a code) to enrol a new authenticator.",
    description: "Disable it first (with a code) to enrol a new authenticator.",
  },
  TWO_FACTOR_REQUIRED_BY_BUSINESS: {
    status: 409,
    message:
      "A Business you belong to requires two-factor authentication of every member: it cannot be turned off while you are a member there.",
    description:
      "Turning two-factor authentication off is refused while any Business of the person requires it (`require_two_factor` of `PUT /v1/security-settings`); `details` name those Businesses. An admin of each can lift the requirement, or the person can leave the Business. A lost authenticator is not a reason to turn it off: sign in with a recovery code, then regenerate the codes (`POST /v1/session/two-factor/recovery-codes`).",
  },
  TWO_FACTOR_NOT_ENROLLED: {
    status: 409,
    message:
      "No two-factor enrolment is waiting for confirmation: start one (POST /v1/session/two-factor/enrolment), then confirm it with a code.",
    description: "Start an enrolment with `POST /v1/session/two-factor/enrolment`, then confirm it with a code.",
  },
});
