// One error type and one code table. Only the HTTP layer turns a code into a status; the docs page
// /docs/errors is generated from ERROR_CODES, so a code cannot exist without its documentation.

export interface ErrorCodeInfo {
  readonly status: number;
  /** Default human-readable message; a throw site may give a more specific one. */
  readonly message: string;
  /** When a client meets this code and what to do about it (rendered on /docs/errors). */
  readonly description: string;
}

export const ERROR_CODES = {
  validation_failed: {
    status: 400,
    message: "The request failed validation.",
    description:
      "The body, query or a header did not match the schema. `details` lists each problem with the field path (a JSON path such as `rows[3].external_ref`, a query parameter or a header name), a stable code (required, invalid_type, invalid_uuid, invalid_enum, invalid_format, too_long, too_short, out_of_range, unknown_field, too_many_items, too_few_items, invalid_character, invalid_encoding, `blank` for a name of spaces or invisible characters only: every name field must contain a letter or digit, and `low_contrast` for a brand colour too light for white text) and a message. `invalid_character`: the text holds U+0000, an unpaired surrogate, a control character, or a tab or line break in a single-line field (every field except those documented as free text, and every query parameter and header). `invalid_encoding`: a query parameter or header is not percent-encoded UTF-8. Date-times are RFC 3339 with a time zone, between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, seconds 00 to 59.",
  },
  bad_request: {
    status: 400,
    message: "The request is malformed.",
    description:
      "For example a path id that is not a UUID, a body that is not valid JSON or not valid UTF-8, or a request the HTTP parser refuses (an invalid method or header bytes); the connection is then closed.",
  },
  unauthorized: {
    status: 401,
    message: "A valid API key is required.",
    description:
      "The `Authorization: Bearer <API_KEY>` header is missing, malformed, or names an unknown or revoked key. `actor` is null. Operator endpoints answer the same way for a missing or wrong operator token (`METRICS_TOKEN` for `/metrics`, `SIMULATOR_CONTROL_TOKEN` for the simulator control endpoint).",
  },
  forbidden: {
    status: 403,
    message: "This API key's role cannot make this request.",
    description:
      "The key authenticated, but its role does not allow the call (a `business_read_only` key never writes), or the route exists only in the other environment (the sandbox mailbox, `/v1/sandbox/emails`, answers a production key this way).",
  },
  not_found: {
    status: 404,
    message: "The resource does not exist.",
    description:
      "No such resource for the caller's Business and environment. A resource of another Business or of the other environment answers exactly the same way.",
  },
  method_not_allowed: {
    status: 405,
    message: "This method is not allowed on this path.",
    description: "The path exists but not with this HTTP method; the `Allow` header lists the methods it accepts.",
  },
  LAST_ACTIVE_ADMIN_KEY: {
    status: 409,
    message: "This is the last active business_admin key of this environment and cannot be revoked.",
    description: "Create another business_admin key for the environment first, then revoke this one.",
  },
  BENEFICIARY_EMAIL_TAKEN: {
    status: 409,
    message: "Another active Beneficiary of this Business and environment has this e-mail address.",
    description:
      "E-mail addresses are unique among the active Beneficiaries of a Business in one environment. Update that Beneficiary, or archive it first.",
  },
  BENEFICIARY_SUSPENDED: {
    status: 409,
    message: "The Beneficiary's compliance status is suspended.",
    description: "A suspended Beneficiary cannot be acknowledged or paid until the suspension is lifted.",
  },
  payload_too_large: {
    status: 413,
    message: "The request body is too large.",
    description: "The body exceeds the configured size limit (BODY_LIMIT_BYTES, 2 MiB by default).",
  },
  unsupported_media_type: {
    status: 415,
    message: "The request body must be JSON (Content-Type: application/json).",
    description:
      "A body was sent with a content type other than `application/json`, with a `charset` other than UTF-8, or with a `Content-Encoding` other than `identity` (compressed request bodies are not accepted).",
  },
  request_timeout: {
    status: 408,
    message: "The request was not received in time.",
    description:
      "The headers did not arrive within HEADERS_TIMEOUT_MS (10 s by default) or the whole request within REQUEST_TIMEOUT_MS (30 s by default). The connection is closed; send the request again on a new connection.",
  },
  request_header_too_large: {
    status: 431,
    message: "The request line and headers are too large.",
    description:
      "The request line (URL) and headers together exceed 16 KB. Shorten the URL (fewer or shorter query parameters) or the headers. The connection is closed.",
  },
  BANK_ACCOUNT_NOT_FOUND: {
    status: 404,
    message: "No such destination for this Beneficiary.",
    description: "The bank account or card id does not name a destination of the Beneficiary.",
  },
  BANK_ACCOUNT_NOT_VALIDATED: {
    status: 422,
    message: "The destination's routing details are not validated, so it cannot receive payouts.",
    description: "Register a destination whose routing details pass validation, or correct this one.",
  },
  BANK_ACCOUNT_REJECTED: {
    status: 422,
    message: "The payout rail refused this destination, so it cannot receive payouts.",
    description: "See the destination's `rail_rejection_reason`; register a corrected destination.",
  },
  NOTIFICATION_OF_CHANGE_NOT_APPLICABLE: {
    status: 409,
    message: "This bank account has no notification of change whose correction can be applied.",
    description:
      "No ACH notification of change was received for the account, it was applied already, or its code corrects nothing the account holds (C08, C09, C13, C14) or it came before corrections were kept: register the corrected account instead.",
  },
  BANK_ACCOUNT_CORRECTION_EXISTS: {
    status: 409,
    message: "The corrected bank account is already registered for this Beneficiary.",
    description:
      "The notification of change names an account the Beneficiary already has: pay that account (and delete this one) instead of applying the correction.",
  },
  DESTINATION_HAS_PENDING_PAYOUT: {
    status: 409,
    message: "A payout awaiting approval is headed to this destination.",
    description: "Reject that payout first (`POST /v1/payouts/{payoutId}/reject`), then delete the destination.",
  },
  BENEFICIARY_ARCHIVED: {
    status: 422,
    message: "The Beneficiary is archived and accepts no new payouts, links or bank details.",
    description: "Archived Beneficiaries stay readable by id but accept no new work.",
  },
  RATE_LIMITED: {
    status: 429,
    message: "Too many requests. Retry after the time given in Retry-After.",
    description:
      "The request rate of this Business and environment (or, for registration, of this client address) exceeded the limit. `Retry-After` gives the seconds to wait; `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` describe the window.",
  },
  // Payouts
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: "This idempotency key was already used with a different request.",
    description:
      "Within 24 hours an idempotency key names one payout request. Send the same body to replay it, or use a new key for a new payout.",
  },
  IDEMPOTENCY_KEY_IN_FLIGHT: {
    status: 409,
    message: "A request with this idempotency key is still being processed.",
    description: "Another request with the same key has not finished yet. Retry shortly: it then replays the outcome.",
  },
  UPLOAD_IN_FLIGHT: {
    status: 409,
    message: "A bulk upload with this uploadId is still being processed.",
    description: "The same file is being processed by another request. Retry shortly: it then replays every row.",
  },
  BENEFICIARY_NOT_COMPLIANT: {
    status: 422,
    message: "The Beneficiary's compliance status is not compliant.",
    description: "Acknowledge the Beneficiary (`POST /v1/beneficiaries/{id}/acknowledge`) before paying it.",
  },
  REACKNOWLEDGMENT_REQUIRED: {
    status: 422,
    message: "The Beneficiary must be re-acknowledged before new payouts.",
    description:
      "A trigger identity field changed after the compliance acknowledgment. Re-acknowledge (`POST /v1/beneficiaries/{id}/acknowledge`), then create the payout.",
  },
  BENEFICIARY_ENROLLMENT_REJECTED: {
    status: 422,
    message: "The payout rail refused the Beneficiary's enrollment, so payouts cannot reach them.",
    description: "See `enrollment_failure_detail` on the Beneficiary; correct the details and retry the enrollment.",
  },
  NO_PAYOUT_DESTINATION: {
    status: 422,
    message: "The Beneficiary has no payout-usable destination.",
    description: "Register a destination that passes validation, or name one with `bank_account_id`.",
  },
  DESTINATION_AMBIGUOUS: {
    status: 422,
    message: "The payout names no destination and the Beneficiary has several payout-usable ones.",
    description:
      "Name the destination with `bank_account_id`, or set the Beneficiary's declared destination (`PUT /v1/beneficiaries/{id}/declared-destination`).",
  },
  CURRENCY_MISMATCH: {
    status: 422,
    message: "The payout's currency is not the destination's currency.",
    description: "A payout is sent in the currency of its destination. Use that currency, or another destination.",
  },
  REPLACED_PAYOUT_NOT_FOUND: {
    status: 422,
    message: "`replaces_payout_id` names no payout of this Business and environment.",
    description: "A replacement names the failed payout it recovers, which must belong to the same Business and environment.",
  },
  REPLACED_PAYOUT_NOT_FAILED: {
    status: 422,
    message: "Only a failed payout can be replaced.",
    description: "`replaces_payout_id` must name a payout in status `failed`.",
  },
  REPLACEMENT_BENEFICIARY_MISMATCH: {
    status: 422,
    message: "A replacement must pay the same Beneficiary as the failed payout.",
    description: "Use the failed payout's `beneficiary_id`.",
  },
  PAYOUT_ALREADY_REPLACED: {
    status: 409,
    message: "The failed payout already has a live replacement.",
    description:
      "At most one replacement of a failed payout may be live. A replacement that was rejected, canceled or failed no longer counts.",
  },
  PAYOUT_ALREADY_DECIDED: {
    status: 409,
    message: "The payout already has a different Decision.",
    description: "A payout is decided once. Repeating the same outcome is idempotent; the other outcome is refused.",
  },
  PAYOUT_NOT_CANCELABLE: {
    status: 409,
    message: "The payout can no longer be canceled.",
    description:
      "A Business cancels a production payout only before it is sent to the rail (pending_approval, or approved before dispatch). In sandbox, reject it instead.",
  },
  CONTROL_WEAKENING_NEEDS_PERSON: {
    status: 403,
    message: "Weakening a control needs a person signed in to the dashboard, not an API key.",
    description:
      "Turning maker-checker off, loosening the approval rules, lifting the two-factor requirement and changing a bank rail's delivery target are refused to API keys: a key is a long-lived machine credential never asked for step-up. Make the change from a dashboard session (with a recent confirmation); every admin is e-mailed and the audit log records `control_weakened`. Strengthening a control with a key is allowed.",
  },
  MAKER_CHECKER_VIOLATION: {
    status: 403,
    message: "The person who created this payout may not approve it.",
    description:
      "The approval policy requires a different person (maker-checker). The maker is the key, the membership and the user that created the payout: another key of the same person does not count. Ask another team member to approve.",
  },
  // Registration and mail controls
  REGISTRATION_TOKEN_INVALID: {
    status: 410,
    message: "This verification token is unknown, expired or already used.",
    description:
      "`POST /v1/registration/verification` needs the token from the e-mail `POST /v1/registration` sent, unused and within 24 hours (REGISTRATION_TOKEN_TTL_HOURS). The answer is the same whichever of the three it is. Register again to receive a new token; a token that was used already created its Business, whose keys were in that answer.",
  },
  MAIL_DAILY_LIMIT_REACHED: {
    status: 429,
    message: "This Business reached its daily e-mail limit. Retry after the time given in Retry-After.",
    description:
      "A Business may have at most MAIL_DAILY_LIMIT_PER_BUSINESS e-mails sent in any 24 hours (1,000 by default). An e-mail the request asked for (a collection-link invitation with `send_email: true`) is refused over the limit, and nothing of the request is stored: retry after `Retry-After` seconds, or mint the link without `send_email` and pass its `url` on yourself. E-mail the service owes a Beneficiary (a change of their declared destination) is never refused: it is sent later, when the window allows.",
  },
  BUSINESS_NOT_VERIFIED: {
    status: 403,
    message: "This Business has no verified e-mail address, so no production e-mail is sent for it.",
    description:
      "Production e-mail goes out only for a Business with at least one member whose e-mail address was verified. Every Business created through registration has one; contact the operator of this service.",
  },
  // People: sessions, team, two-factor
  SESSION_EXPIRED: {
    status: 401,
    message: "The session has ended or expired. Sign in again.",
    description:
      "The session cookie names a session that was signed out, ended everywhere, ended by a password change, a change of role or a removal from the Business, or that passed its idle timeout (SESSION_IDLE_MINUTES, 30 by default) or its absolute lifetime (SESSION_ABSOLUTE_HOURS, 12 by default). Sign in again with `POST /v1/session`.",
  },
  SESSION_REQUIRED: {
    status: 401,
    message: "This route is for a signed-in person's session, not an API key.",
    description:
      "Routes about a person's own session, password and two-factor authentication take the session cookie from `POST /v1/session`; an API key is not a person.",
  },
  ENVIRONMENT_REQUIRED: {
    status: 400,
    message: "A session request must name its environment in the X-Environment header.",
    description:
      "An API key carries its environment; a dashboard session does not, so each of its requests names one: `X-Environment: sandbox` or `X-Environment: production`. A missing, empty or unknown value is refused.",
  },
  CSRF_TOKEN_INVALID: {
    status: 403,
    message: "The X-CSRF-Token header is missing or does not match the session.",
    description:
      "Every POST, PUT, PATCH and DELETE made with a session cookie carries the session's CSRF token (`csrf_token` of `POST /v1/session` and `GET /v1/session`) in `X-CSRF-Token`, so another site cannot make the browser act with the cookie.",
  },
  CROSS_SITE_REQUEST: {
    status: 403,
    message: "Cross-site requests are refused.",
    description:
      "The browser marked the request `Sec-Fetch-Site: cross-site` or `same-site`: another site tried to act with the session cookie (or to sign in for the person). Only the dashboard's own pages (`same-origin`) and direct requests (`none`, or no header) are served.",
  },
  STEP_UP_REQUIRED: {
    status: 401,
    message: "Confirm your password or a two-factor code first (POST /v1/session/confirmation).",
    description:
      "Deciding payouts, creating or revoking API keys, rotating the webhook secret, changing the approval policy, the team or the security settings, and enrolling a second factor, from a session needs a confirmation made within the last STEP_UP_WINDOW_MINUTES (5 by default): a two-factor code or recovery code for a person who uses two-factor authentication, else the password. Confirm with `POST /v1/session/confirmation`, then repeat the request. API keys are not asked.",
  },
  TWO_FACTOR_REQUIRED: {
    status: 401,
    message: "Enter a two-factor code to finish signing in (POST /v1/session/two-factor).",
    description:
      "The password was right and the person has two-factor authentication: the session can do nothing but `POST /v1/session/two-factor` with a code from the authenticator app or a recovery code.",
  },
  TWO_FACTOR_ENROLMENT_REQUIRED: {
    status: 403,
    message: "This Business requires two-factor authentication: enrol first (POST /v1/session/two-factor/enrolment).",
    description:
      "The Business's security settings require two-factor authentication of every member. A member without it may sign in, but the session serves only enrolment and sign-out until a code confirms the enrolment.",
  },
  INVALID_CREDENTIALS: {
    status: 401,
    message: "The e-mail address or the password is wrong.",
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
    message: "The two-factor code is wrong, expired or was already used.",
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
    message: "The password is wrong.",
    description: "The current password given to confirm an act (step-up, password change, two-factor changes) is wrong.",
  },
  WEAK_PASSWORD: {
    status: 422,
    message: "Choose another password: this one is too short or too common.",
    description:
      "Passwords follow NIST SP 800-63B: at least 12 characters (at most 200), no rule about character classes, and common, breached-style or guessable passwords (dictionary words, names, keyboard patterns, repeats, dates, the e-mail address itself) are refused. A passphrase of several unrelated words works well.",
  },
  INVITATION_INVALID: {
    status: 410,
    message: "This invitation is unknown, expired, revoked or already used.",
    description: "Invitations work once and for 7 days. Ask an admin of the Business for a new one.",
  },
  PASSWORD_RESET_INVALID: {
    status: 410,
    message: "This password reset link is unknown, expired or already used.",
    description: "A reset works once and for 1 hour, and a newer reset or a password change voids it. Ask for a new one.",
  },
  ALREADY_A_MEMBER: {
    status: 409,
    message: "This person is already a member of the Business.",
    description: "Change the member's role instead (`PATCH /v1/members/{membershipId}`).",
  },
  LAST_ADMIN: {
    status: 409,
    message: "The Business must keep at least one business_admin.",
    description: "The last admin cannot be removed or given another role. Make another member admin first.",
  },
  NOT_A_MEMBER: {
    status: 403,
    message: "You are not a member of that Business.",
    description:
      "A session switches only to a Business the signed-in person is a member of (see `memberships` of `GET /v1/session`).",
  },
  TWO_FACTOR_ALREADY_ENABLED: {
    status: 409,
    message: "Two-factor authentication is already enabled.",
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
    message: "No two-factor enrolment is waiting for confirmation.",
    description: "Start an enrolment with `POST /v1/session/two-factor/enrolment`, then confirm it with a code.",
  },
  internal_error: {
    status: 500,
    message: "An unexpected error occurred. Quote the request_id when contacting support.",
    description: "Something failed on our side. Nothing of the request was stored. Retrying is safe.",
  },
  service_unavailable: {
    status: 503,
    message: "The service is temporarily unavailable.",
    description:
      "The database is unreachable (down, restarting, or not reached yet by a process that is starting), or the process is shutting down. Nothing of the request was kept. Retry shortly.",
  },
  // Webhooks
  WEBHOOK_URL_NOT_PUBLIC: {
    status: 422,
    message: "The webhook URL does not resolve to a public address.",
    description:
      "The URL's host is, or resolves to, an address that is not global unicast: loopback, private, link-local (cloud metadata), carrier-grade NAT, unique-local, multicast, documentation or reserved, or an IPv6 address outside 2000::/3 (IPv4-compatible `::a.b.c.d` and IPv4-mapped `::ffff:a.b.c.d` forms included). The message names the host you sent, never the address it resolved to. Webhooks go only to public HTTPS endpoints.",
  },
  WEBHOOK_URL_UNRESOLVABLE: {
    status: 422,
    message: "The webhook URL's host name does not resolve.",
    description: "No DNS record answers for the host. Check the spelling, or publish the record first.",
  },
  WEBHOOK_URL_REDIRECTS: {
    status: 422,
    message: "The webhook URL answers with a redirect.",
    description:
      "Redirects are never followed, so a redirecting URL would fail every delivery. Subscribe the final URL (the `Location` the endpoint redirects to).",
  },
  WEBHOOK_URL_UNREACHABLE: {
    status: 422,
    message: "The webhook URL could not be reached over HTTPS.",
    description:
      "A test request to the URL (an unsigned POST with the header `X-Service-Endpoint-Check: 1`) failed: connection refused, TLS error or no answer within 10 seconds. Any HTTP status other than a redirect, even 4xx, is accepted.",
  },
  WEBHOOK_DELIVERY_NOT_ABANDONED: {
    status: 409,
    message: "Only an abandoned delivery can be redelivered.",
    description:
      "The delivery succeeded, is still being retried, or was dropped. Only a delivery abandoned after 8 failed attempts is redelivered on request.",
  },
  WEBHOOK_SUBSCRIPTION_INACTIVE: {
    status: 409,
    message: "The webhook subscription is missing, disabled, or does not list this event type.",
    description: "A redelivery goes to the current subscription: create or enable it, and list the event type, first.",
  },
  // Enrollment with the payout rail.
  ENROLLMENT_NOT_ALLOWED: {
    status: 422,
    message: "The Beneficiary cannot be enrolled with the payout rail until it is compliant.",
    description:
      "Enrollment needs `compliance_status` `compliant` and no pending re-acknowledgment. Acknowledge the Beneficiary (`POST /v1/beneficiaries/{id}/acknowledge`); that enrolls it.",
  },
  ENROLLMENT_IN_PROGRESS: {
    status: 409,
    message: "An enrollment attempt for this Beneficiary is still in flight.",
    description:
      "`enrollment_status` is `pending`: wait for the attempt to finish and read the Beneficiary again. An attempt still pending after 60 seconds is considered abandoned and may be retried.",
  },
  RAIL_UNAVAILABLE: {
    status: 503,
    message: "The payout rail did not answer. Nothing was changed; retry shortly.",
    description:
      "The rail could not be reached or failed unexpectedly during the enrollment attempt. The Beneficiary's enrollment state is as it was before the call.",
  },
  // Bank rails (SEPA credit transfers and US ACH by bank file).
  NO_RAIL_FOR_DESTINATION: {
    status: 422,
    message: "None of this Business's bank rails can carry a payout to this destination in this currency.",
    description:
      "Once a Business configured a bank rail (`PUT /v1/bank-rails/sepa` or `/ach`), production payouts go only where a configured rail reaches: EUR to an IBAN in the SEPA zone (sepa), USD to a US bank account with an ABA routing number (ach). Configure the rail that fits, or pay this Beneficiary to another destination. A Business with no bank rail keeps the production simulator.",
  },
  BANK_RAIL_LOCAL_DELIVERY_NOT_ALLOWED: {
    status: 422,
    message: "Delivery to a local directory is not allowed on this service.",
    description:
      "Local-directory delivery writes bank files on the service's own disk; the operator allows it by setting `BANK_RAIL_LOCAL_ROOT`. Use SFTP delivery, or ask the operator.",
  },
  BANK_RAIL_IN_USE: {
    status: 409,
    message: "Payouts are waiting for this rail's next file; it cannot be removed now.",
    description: "Remove the rail after its next cut-off has put the waiting payouts into a file, or cancel them first.",
  },
  BANK_RAIL_HOST_NOT_PUBLIC: {
    status: 422,
    message: "The SFTP host does not resolve to a public address.",
    description:
      "Bank-rail SFTP hosts follow the same address rules as webhook URLs: the host (`delivery.host`) is, or resolves to, an address that is not global unicast (loopback, private, link-local, carrier-grade NAT, unique-local, documentation, reserved…). The message names the host you sent, never the address it resolved to. The operator can allow private bank hosts (`BANK_RAIL_ALLOW_PRIVATE_HOSTS`), for a bank reached over a private link.",
  },
  BANK_RAIL_DEBTOR_ACCOUNT_TAKEN: {
    status: 409,
    message: "Another Business on this service already sends files for this debtor account.",
    description:
      "One debtor account belongs to one Business per environment: the IBAN of a SEPA rail, the ODFI routing number with the Company Identification of an ACH rail. If the account is yours, the operator of this service can tell which configuration holds it.",
  },
  SEPA_ADDRESS_NOT_STRUCTURED: {
    status: 422,
    message: "The Beneficiary's postal address cannot be sent structured (town and country at least).",
    description:
      "Since November 2026 SEPA credit transfers with unstructured addresses are refused. Complete the Beneficiary's `postal_address` (city and country at least), through the API or a collection link, then create the payout again.",
  },
  SEPA_NAME_NOT_REPRESENTABLE: {
    status: 422,
    message: "The account holder's name has no character a SEPA file can carry.",
    description:
      "SEPA files carry the Latin alphabet, digits and a few signs; accented letters are transliterated, and so are Greek and Cyrillic (as the EPC recommends), but a name written only in another script (Chinese, Arabic, …) leaves nothing. Give the account holder's name in Latin script.",
  },
  ACH_NAME_NOT_REPRESENTABLE: {
    status: 422,
    message: "The account holder's name has no character an ACH file can carry.",
    description:
      "NACHA files carry upper-case ASCII; accented letters, Greek and Cyrillic are transliterated, but a name written only in another script leaves nothing. Give the account holder's name in Latin script.",
  },
  SEPA_AMOUNT_OUT_OF_RANGE: {
    status: 422,
    message: "A SEPA credit transfer carries at most 999,999,999.99 EUR.",
    description:
      "The EPC SCT rulebook caps one transfer at 999,999,999.99 EUR (pain.001 `InstdAmt`). `details` names `amount_minor` and the limit. Split the amount into several payouts.",
  },
  ACH_AMOUNT_OUT_OF_RANGE: {
    status: 422,
    message: "An ACH entry carries at most 99,999,999.99 USD.",
    description:
      "The NACHA Entry Detail record's amount field has ten digits of cents (99,999,999.99). `details` names `amount_minor` and the limit. Split the amount into several payouts, or pay by wire.",
  },
  SEPA_FIELD_TOO_LONG: {
    status: 422,
    message: "A text is longer than its field in a SEPA file can carry.",
    description:
      "Measured after transliteration to the SEPA character set: the account holder's name 70 characters (`Cdtr/Nm`), `external_ref` 140 (the remittance information, `RmtInf/Ustrd`), the Beneficiary's `postal_address` line1 70 (`StrtNm`), line2 35 (`BldgNm`; with pain.001.001.03, which has no building name, line1 and line2 share the street name's 70), postal_code 16, city 35, state 35. Nothing is cut: `details` names each field (`code` `too_long`) with its limit and its length. Shorten the text (for a name, as the bank knows it) and try again.",
  },
  ACH_FIELD_TOO_LONG: {
    status: 422,
    message: "A text is longer than its field in an ACH file can carry.",
    description:
      "Measured after transliteration to upper-case ASCII: the account holder's name takes at most 22 characters (Entry Detail record, Individual Name or Receiving Company Name). Nothing is cut: `details` names the field (`code` `too_long`) with its limit and length. Register the account with the name as the receiving bank should see it, at most 22 characters (for example initials for middle names).",
  },
  SEPA_BIC_REQUIRED: {
    status: 422,
    message: "A SEPA credit transfer to this country needs the beneficiary bank's BIC.",
    description:
      "The EPC SCT rulebook makes the BIC mandatory for accounts in SEPA countries outside the EEA: Switzerland, the United Kingdom, Guernsey, Jersey, the Isle of Man, Gibraltar, Monaco, San Marino, the Vatican, Andorra, Saint Pierre and Miquelon, Saint Barthélemy, Albania, Moldova, Montenegro, North Macedonia and Serbia. `details` names `swift_bic`. Register the account again with its `swift_bic`.",
  },
  SEPA_BIC_MISMATCH: {
    status: 422,
    message: "The bank account's BIC is of a bank in another country than its IBAN.",
    description:
      "An account registered before IBAN and BIC were checked against each other. A SEPA file would send both, and the bank would refuse or misroute the payment. Register the account again with the BIC of the bank that holds the IBAN.",
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorDetail {
  readonly field: string;
  readonly code: string;
  readonly message: string;
}

export interface AppErrorOptions {
  readonly message?: string;
  readonly details?: readonly ErrorDetail[];
  /** Extra response headers, e.g. Retry-After for RATE_LIMITED. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

export class AppError extends Error {
  override readonly name = "AppError";
  readonly code: ErrorCode;
  readonly details: readonly ErrorDetail[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? ERROR_CODES[code].message, { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

export function docsAnchor(code: string): string {
  return code.toLowerCase();
}
