// The payout-limits module's error codes (refusals of payout creation and approval, issue 29). A leaf: the payouts
// module throws them from its gates and its Decisions.
import { defineErrorCodes } from "../../platform/errors.js";

export const PAYOUT_LIMIT_ERRORS = defineErrorCodes({
  PAYOUT_LIMIT_EXCEEDED: {
    status: 422,
    message: "The amount is above the per-payout limit for its currency.",
    description:
      "The Business set a per-payout limit for this currency (GET /v1/payout-limits). `details` names `amount_minor` with the limit (`limit_minor`). Split the payment, or have an admin raise the limit (with maker-checker on, a second admin must approve the raise). In a bulk upload each row over the limit is refused on its own.",
  },
  DAILY_LIMIT_EXCEEDED: {
    status: 409,
    message: "Approving this payout would exceed the daily limit for its currency.",
    description:
      "The approvals of one day (in the Business's time zone, GET /v1/business `time_zone`, UTC when unset) may total at most the daily limit of the currency. The payout stays `pending_approval`: approve it another day, or have an admin raise the limit. `details` carries the limit (`limit_minor`) and what the day already took (`used_minor`). A payout canceled or failed after its approval gives its amount back to the day it was counted in.",
  },
});
