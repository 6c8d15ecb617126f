// The destinations module's error codes (payout creation refuses an unknown or unusable destination with these too).
// Thrown and declared by their definition (`new AppError(TABLE.CODE)`); see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const DESTINATION_ERRORS = defineErrorCodes({
  BANK_ACCOUNT_NOT_FOUND: {
    status: 404,
    message: "No such destination for this Beneficiary.",
    description: "The bank account or card id does not name a destination of the Beneficiary.",
  },
  BANK_ACCOUNT_NOT_VALIDATED: {
    status: 422,
    message:
      "The destination's routing details are not validated, so it cannot receive payouts: correct them, or register a destination whose details pass validation.",
    description: "Register a destination whose routing details pass validation, or correct this one.",
  },
  BANK_ACCOUNT_REJECTED: {
    status: 422,
    message:
      "The payout rail refused this destination, so it cannot receive payouts: see its rail_rejection_reason and register a corrected destination.",
    description: "See the destination's `rail_rejection_reason`; register a corrected destination.",
  },
  NOTIFICATION_OF_CHANGE_NOT_APPLICABLE: {
    status: 409,
    message:
      "This bank account has no notification of change whose correction can be applied: register the corrected account instead.",
    description:
      "No ACH notification of change was received for the account, it was applied already, or its code corrects nothing the account holds (C08, C09, C13, C14) or it came before corrections were kept: register the corrected account instead.",
  },
  BANK_ACCOUNT_CORRECTION_EXISTS: {
    status: 409,
    message:
      "The corrected bank account is already registered for this Beneficiary: pay that account (and delete this one) instead.",
    description:
      "The notification of change names an account the Beneficiary already has: pay that account (and delete this one) instead of applying the correction.",
  },
  NAME_CHECK_NO_MATCH: {
    status: 422,
    message:
      "The payee name check found that the bank holds this account in another name, and the destination policy blocks such accounts: check the account holder name and the account with the payee, and register the account again.",
    description:
      "The destination's `name_check_result` is `no_match` and the destination policy's `name_check` is `block`. Check the account holder name and the account details with the payee; a corrected registration is checked again.",
  },
  DESTINATION_HAS_PENDING_PAYOUT: {
    status: 409,
    message: "A payout awaiting approval is headed to this destination: reject that payout first, then delete the destination.",
    description: "Reject that payout first (`POST /v1/payouts/{payoutId}/reject`), then delete the destination.",
  },
  DESTINATION_NOT_APPROVED: {
    status: 422,
    message:
      "The destination's bank details wait for approval (or were rejected), so it cannot receive payouts yet: a person other than the one who added them must approve them first.",
    description:
      "The destination policy requires approval of new and changed bank details (`require_approval`). Approve the destination (`POST /v1/beneficiaries/{id}/bank-accounts/{accountId}/approve`, another person than the one who added it), or, when it was rejected, register the right account.",
  },
  DESTINATION_COOLING_OFF: {
    status: 422,
    message: "The destination is in its cooling-off period and cannot receive payouts until details.usable_from.",
    description:
      "The destination policy's `cooling_off_hours` have not passed since the destination was approved (or added, or became the declared destination). `details.usable_from` says when payouts may be created to it.",
  },
  DESTINATION_NOT_PENDING_APPROVAL: {
    status: 409,
    message: "The destination's bank details are not waiting for approval (approved or rejected already).",
    description: "Only a destination whose `approval_status` is `pending_approval` can be approved or rejected.",
  },
  DESTINATION_MAKER_CHECKER_VIOLATION: {
    status: 403,
    message: "The person who added or changed these bank details may not approve them: ask another team member to approve them.",
    description:
      "Bank details are approved by a person other than the one who added them. The maker is the key, the membership and the user that added them: another key of the same person does not count. A collection-link submission has no person behind it: any approver may approve it.",
  },
});
