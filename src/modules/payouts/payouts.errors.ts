// The payouts module's error codes: idempotency, the gates a payout passes at creation, replacements, decisions.
// Thrown and declared by their definition (`new AppError(TABLE.CODE)`); see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const PAYOUT_ERRORS = defineErrorCodes({
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message:
      "This idempotency key was already used with a different request: send the same body to replay it, or use a new key for a new payout.",
    description:
      "Within 24 hours an idempotency key names one payout request. Send the same body to replay it, or use a new key for a new payout.",
  },
  IDEMPOTENCY_KEY_IN_FLIGHT: {
    status: 409,
    message: "A request with this idempotency key is still being processed: retry shortly to receive its outcome.",
    description: "Another request with the same key has not finished yet. Retry shortly: it then replays the outcome.",
  },
  UPLOAD_IN_FLIGHT: {
    status: 409,
    message: "A bulk upload with this uploadId is still being processed: retry shortly to receive every row's outcome.",
    description: "The same file is being processed by another request. Retry shortly: it then replays every row.",
  },
  BENEFICIARY_NOT_COMPLIANT: {
    status: 422,
    message:
      "The Beneficiary is not acknowledged for compliance, so it cannot be paid yet: acknowledge it first (POST /v1/beneficiaries/{id}/acknowledge, or Acknowledge on its dashboard page), then create the payout again.",
    description: "Acknowledge the Beneficiary (`POST /v1/beneficiaries/{id}/acknowledge`) before paying it.",
  },
  REACKNOWLEDGMENT_REQUIRED: {
    status: 422,
    message:
      "The Beneficiary's identity changed after it was acknowledged: acknowledge it again (POST /v1/beneficiaries/{id}/acknowledge), then create the payout.",
    description:
      "A trigger identity field changed after the compliance acknowledgment. Re-acknowledge (`POST /v1/beneficiaries/{id}/acknowledge`), then create the payout.",
  },
  BENEFICIARY_ENROLLMENT_REJECTED: {
    status: 422,
    message:
      "The payout rail refused the Beneficiary's enrollment, so payouts cannot reach them: see enrollment_failure_detail on the Beneficiary, correct the details and retry the enrollment.",
    description: "See `enrollment_failure_detail` on the Beneficiary; correct the details and retry the enrollment.",
  },
  NO_PAYOUT_DESTINATION: {
    status: 422,
    message:
      "The Beneficiary has no payout-usable destination: register a bank account that passes validation, or name one with bank_account_id.",
    description: "Register a destination that passes validation, or name one with `bank_account_id`.",
  },
  DESTINATION_AMBIGUOUS: {
    status: 422,
    message:
      "The payout names no destination and the Beneficiary has several payout-usable ones: name one with bank_account_id, or set the Beneficiary's declared destination.",
    description:
      "Name the destination with `bank_account_id`, or set the Beneficiary's declared destination (`PUT /v1/beneficiaries/{id}/declared-destination`).",
  },
  CURRENCY_MISMATCH: {
    status: 422,
    message: "The payout's currency is not the destination's currency: use the destination's currency, or another destination.",
    description: "A payout is sent in the currency of its destination. Use that currency, or another destination.",
  },
  REPLACED_PAYOUT_NOT_FOUND: {
    status: 422,
    message:
      "`replaces_payout_id` names no payout of this Business and environment: give the id of the failed payout this one replaces.",
    description: "A replacement names the failed payout it recovers, which must belong to the same Business and environment.",
  },
  REPLACED_PAYOUT_NOT_FAILED: {
    status: 422,
    message:
      "Only a failed payout can be replaced: give the id of a payout in status failed, or create a new payout without replaces_payout_id.",
    description: "`replaces_payout_id` must name a payout in status `failed`.",
  },
  REPLACEMENT_BENEFICIARY_MISMATCH: {
    status: 422,
    message: "A replacement must pay the same Beneficiary as the failed payout: use the failed payout's beneficiary_id.",
    description: "Use the failed payout's `beneficiary_id`.",
  },
  PAYOUT_ALREADY_REPLACED: {
    status: 409,
    message: "The failed payout already has a live replacement: follow that payout instead of creating another.",
    description:
      "At most one replacement of a failed payout may be live. A replacement that was rejected, canceled or failed no longer counts.",
  },
  PAYOUT_ALREADY_DECIDED: {
    status: 409,
    message: "The payout already has a different Decision, and a payout is decided once: read the payout to see its Decision.",
    description: "A payout is decided once. Repeating the same outcome is idempotent; the other outcome is refused.",
  },
  PAYOUT_NOT_CANCELABLE: {
    status: 409,
    message: "The payout can no longer be canceled: it was already sent to the rail, or has reached a final status.",
    description:
      "A Business cancels a production payout only before it is sent to the rail (pending_approval, or approved before dispatch). In sandbox, reject it instead.",
  },
  POLICY_RULE_NEVER_MATCHES: {
    status: 422,
    message: "An approval rule's range is empty, so the rule could never match: make its minimum at most its maximum.",
    description:
      "A rule whose `min_amount_minor` is greater than its `max_amount_minor` (or whose `min_beneficiary_age_hours` is greater than its `max_beneficiary_age_hours`) matches no payout, so it would silently do nothing. `details` names each such field (`rules[i].min_amount_minor`, code `out_of_range`) with the maximum it must not exceed. Swap the two values, or drop one of them.",
  },
  MAKER_CHECKER_VIOLATION: {
    status: 403,
    message: "The person who created this payout may not approve it (maker-checker): ask another team member to approve it.",
    description:
      "The approval policy requires a different person (maker-checker). The maker is the key, the membership and the user that created the payout: another key of the same person does not count. Ask another team member to approve.",
  },
});
