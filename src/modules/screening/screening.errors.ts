// The screening module's error codes. Thrown by their definition (`new AppError(SCREENING_ERRORS.CODE)`); a leaf
// any module may import (the payout creation gates refuse with SANCTIONS_REVIEW_REQUIRED).
import { defineErrorCodes } from "../../platform/errors.js";

export const SCREENING_ERRORS = defineErrorCodes({
  SANCTIONS_REVIEW_REQUIRED: {
    status: 422,
    message: "The Beneficiary's name is close to a name on a sanctions list; a person must review it before it is paid.",
    description:
      "Sanctions screening (destination policy `screening: on`) found the Beneficiary's name close to a listed name (`screening_status: potential_match`, see `screening_match`), or an admin confirmed the match (`confirmed_match`). New payouts are refused and approved payouts not yet sent are held until an admin other than the person who made the screened change clears the hit (`POST /v1/beneficiaries/{id}/screening/clear`).",
  },
  SCREENING_HIT_ALREADY_DECIDED: {
    status: 409,
    message: "The screening hit was already decided.",
    description: "A hit is cleared or confirmed once (also the loser of two decisions at once); read it to see who decided it.",
  },
  SCREENING_NO_OPEN_HIT: {
    status: 409,
    message: "The Beneficiary has no screening hit waiting for a decision.",
    description: "Clear and confirm act on the Beneficiary's open hits; its `screening_status` is not `potential_match`.",
  },
  SCREENING_MAKER_CHECKER_VIOLATION: {
    status: 403,
    message: "The person whose change was screened may not decide its hit.",
    description:
      "A screening hit found on a change of a Beneficiary (its creation, or a change of its name or country) is decided by another admin than the person who made the change, compared by person (membership or user, with any of their keys). An import's hits are the importer's; hits found by a list reload or a collection link may be decided by any admin.",
  },
  SANCTIONS_LIST_INVALID: {
    status: 422,
    message: "The sanctions list files could not be read.",
    description:
      "The operator route names the list (`ofac_sdn`: sdn.csv with optional alt.csv and add.csv; `eu_consolidated`: the EU CSV or XML) and gives each file's format; the message says which file and what was wrong. Nothing was loaded.",
  },
});
