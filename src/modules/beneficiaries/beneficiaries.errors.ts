// The beneficiaries module's error codes (payouts, destinations, collection and enrollment refuse an archived or
// suspended Beneficiary with these too).
// Thrown and declared by their definition (`new AppError(TABLE.CODE)`); see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const BENEFICIARY_ERRORS = defineErrorCodes({
  BENEFICIARY_EMAIL_TAKEN: {
    status: 409,
    message:
      "Another active Beneficiary of this Business and environment has this e-mail address: update that Beneficiary, or archive it first.",
    description:
      "E-mail addresses are unique among the active Beneficiaries of a Business in one environment. Update that Beneficiary, or archive it first.",
  },
  BENEFICIARY_SUSPENDED: {
    status: 409,
    message:
      "The Beneficiary's compliance status is suspended: it cannot be acknowledged or paid until the suspension is lifted.",
    description: "A suspended Beneficiary cannot be acknowledged or paid until the suspension is lifted.",
  },
  BENEFICIARY_ARCHIVED: {
    status: 422,
    message: "The Beneficiary is archived and accepts no new payouts, links or bank details.",
    description: "Archived Beneficiaries stay readable by id but accept no new work.",
  },
});
