// The top-ups module's error codes. Thrown by their definition (`new AppError(TOP_UP_ERRORS.CODE)`).
import { defineErrorCodes } from "../../platform/errors.js";

export const TOP_UP_ERRORS = defineErrorCodes({
  TOP_UP_ALREADY_DECIDED: {
    status: 409,
    message: "The top-up was already decided.",
    description:
      "A top-up is approved or rejected once; any later approval or rejection (also the loser of two at once) is refused, and the money is credited once. Read the top-up to see who decided it.",
  },
  TOP_UP_MAKER_CHECKER_VIOLATION: {
    status: 403,
    message: "The person who recorded this top-up may not approve it.",
    description:
      "A top-up credits a funding account only when a different person approves it. The maker is the key, the membership and the user that recorded it: another key of the same person does not count. Ask another approver or admin.",
  },
});
