// The enrollment module's error codes: enrollment with the payout rail.
// Thrown and declared by their definition (`new AppError(TABLE.CODE)`); see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const ENROLLMENT_ERRORS = defineErrorCodes({
  ENROLLMENT_NOT_ALLOWED: {
    status: 422,
    message:
      "The Beneficiary cannot be enrolled with the payout rail until it is compliant: acknowledge it (POST /v1/beneficiaries/{id}/acknowledge, or Acknowledge on its dashboard page), which enrolls it.",
    description:
      "Enrollment needs `compliance_status` `compliant` and no pending re-acknowledgment. Acknowledge the Beneficiary (`POST /v1/beneficiaries/{id}/acknowledge`); that enrolls it.",
  },
  ENROLLMENT_IN_PROGRESS: {
    status: 409,
    message:
      "An enrollment attempt for this Beneficiary is still in flight: wait for it to finish and read the Beneficiary again.",
    description:
      "`enrollment_status` is `pending`: wait for the attempt to finish and read the Beneficiary again. An attempt still pending after 60 seconds is considered abandoned and may be retried.",
  },
  RAIL_UNAVAILABLE: {
    status: 503,
    message: "The payout rail did not answer. Nothing was changed; retry shortly.",
    description:
      "The rail could not be reached or failed unexpectedly during the enrollment attempt. The Beneficiary's enrollment state is as it was before the call.",
  },
});
