// The funding module's error codes. Thrown as `new AppError(FUNDING_ERRORS.CODE)`; see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const FUNDING_ERRORS = defineErrorCodes({
  FUNDING_ACCOUNT_OVERDRAWN: {
    status: 409,
    message: "The funding account's available balance is below what the new settings allow.",
    description:
      "Turning `enforce` on, or lowering `overdraft_limit_minor`, needs `available_minor >= -overdraft_limit_minor` now: credit the account (a top-up) or allow a larger overdraft first. Payouts are never refused retroactively.",
  },
});
