// The emails module's error codes: the daily mail limit and production mail for an unverified Business.
// Thrown and declared by their definition (`new AppError(TABLE.CODE)`); see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const EMAIL_ERRORS = defineErrorCodes({
  MAIL_DAILY_LIMIT_REACHED: {
    status: 429,
    message: "This Business reached its daily e-mail limit. Retry after the time given in Retry-After.",
    description:
      "A Business may have at most MAIL_DAILY_LIMIT_PER_BUSINESS e-mails sent in any 24 hours (1,000 by default). An e-mail the request asked for (a collection-link invitation with `send_email: true`) is refused over the limit, and nothing of the request is stored: retry after `Retry-After` seconds, or mint the link without `send_email` and pass its `url` on yourself. E-mail the service owes a Beneficiary (a change of their declared destination) is never refused: it is sent later, when the window allows.",
  },
  BUSINESS_NOT_VERIFIED: {
    status: 403,
    message:
      "This Business has no verified e-mail address, so no production e-mail is sent for it: contact the operator of this service.",
    description:
      "Production e-mail goes out only for a Business with at least one member whose e-mail address was verified. Every Business created through registration has one; contact the operator of this service.",
  },
});
