// What a bank file cannot carry, as error codes: no configured bank rail takes the payout, or a field of the
// account, the payee or the payout does not fit the SEPA or NACHA format. The bank-rails module's checks throw
// them (payout creation, account registration, collection submission), and the routes of payouts, destinations
// and collection declare them. They live here, below every module, so those modules declare them without
// importing bank-rails, which builds on payouts and destinations; the bank-rails module contributes them to the
// error-code table (bank-rails.errors.ts). Thrown and declared by their definition; see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const BANK_FILE_REFUSALS = defineErrorCodes({
  NO_RAIL_FOR_DESTINATION: {
    status: 422,
    message:
      "None of this Business's bank rails can carry a payout to this destination in this currency: configure the rail that fits (SEPA for EUR to an IBAN, ACH for USD to a US account), or pay to another destination.",
    description:
      "Once a Business configured a bank rail (`PUT /v1/bank-rails/sepa` or `/ach`), production payouts go only where a configured rail reaches: EUR to an IBAN in the SEPA zone (sepa), USD to a US bank account with an ABA routing number (ach). Configure the rail that fits, or pay this Beneficiary to another destination. A Business with no bank rail keeps the production simulator.",
  },
  SEPA_ADDRESS_NOT_STRUCTURED: {
    status: 422,
    message:
      "The Beneficiary's postal address cannot be sent structured: complete its postal_address (city and country at least), then create the payout again.",
    description:
      "Since November 2026 SEPA credit transfers with unstructured addresses are refused. Complete the Beneficiary's `postal_address` (city and country at least), through the API or a collection link, then create the payout again.",
  },
  SEPA_NAME_NOT_REPRESENTABLE: {
    status: 422,
    message: "The account holder's name has no character a SEPA file can carry: give the name in Latin script.",
    description:
      "SEPA files carry the Latin alphabet, digits and a few signs; accented letters are transliterated, and so are Greek and Cyrillic (as the EPC recommends), but a name written only in another script (Chinese, Arabic, …) leaves nothing. Give the account holder's name in Latin script.",
  },
  ACH_NAME_NOT_REPRESENTABLE: {
    status: 422,
    message: "The account holder's name has no character an ACH file can carry: give the name in Latin script.",
    description:
      "NACHA files carry upper-case ASCII; accented letters, Greek and Cyrillic are transliterated, but a name written only in another script leaves nothing. Give the account holder's name in Latin script.",
  },
  SEPA_AMOUNT_OUT_OF_RANGE: {
    status: 422,
    message: "A SEPA credit transfer carries at most 999,999,999.99 EUR: split the amount into several payouts.",
    description:
      "The EPC SCT rulebook caps one transfer at 999,999,999.99 EUR (pain.001 `InstdAmt`). `details` names `amount_minor` and the limit. Split the amount into several payouts.",
  },
  ACH_AMOUNT_OUT_OF_RANGE: {
    status: 422,
    message: "An ACH entry carries at most 99,999,999.99 USD: split the amount into several payouts.",
    description:
      "The NACHA Entry Detail record's amount field has ten digits of cents (99,999,999.99). `details` names `amount_minor` and the limit. Split the amount into several payouts, or pay by wire.",
  },
  SEPA_FIELD_TOO_LONG: {
    status: 422,
    message: "A text is longer than its field in a SEPA file can carry: shorten the fields named in details and try again.",
    description:
      "Measured after transliteration to the SEPA character set: the account holder's name 70 characters (`Cdtr/Nm`), `external_ref` 140 (the remittance information, `RmtInf/Ustrd`), the Beneficiary's `postal_address` line1 70 (`StrtNm`), line2 35 (`BldgNm`; with pain.001.001.03, which has no building name, line1 and line2 share the street name's 70), postal_code 16, city 35, state 35. Nothing is cut: `details` names each field (`code` `too_long`) with its limit and its length. Shorten the text (for a name, as the bank knows it) and try again.",
  },
  ACH_FIELD_TOO_LONG: {
    status: 422,
    message: "A text is longer than its field in an ACH file can carry: shorten the fields named in details and try again.",
    description:
      "Measured after transliteration to upper-case ASCII: the account holder's name takes at most 22 characters (Entry Detail record, Individual Name or Receiving Company Name). Nothing is cut: `details` names the field (`code` `too_long`) with its limit and length. Register the account with the name as the receiving bank should see it, at most 22 characters (for example initials for middle names).",
  },
  SEPA_BIC_REQUIRED: {
    status: 422,
    message:
      "A SEPA credit transfer to this country needs the beneficiary bank's BIC: register the account again with its swift_bic.",
    description:
      "The EPC SCT rulebook makes the BIC mandatory for accounts in SEPA countries outside the EEA: Switzerland, the United Kingdom, Guernsey, Jersey, the Isle of Man, Gibraltar, Monaco, San Marino, the Vatican, Andorra, Saint Pierre and Miquelon, Saint Barthélemy, Albania, Moldova, Montenegro, North Macedonia and Serbia. `details` names `swift_bic`. Register the account again with its `swift_bic`.",
  },
  SEPA_BIC_MISMATCH: {
    status: 422,
    message:
      "The bank account's BIC is of a bank in another country than its IBAN: register the account again with the BIC of the bank that holds the IBAN.",
    description:
      "An account registered before IBAN and BIC were checked against each other. A SEPA file would send both, and the bank would refuse or misroute the payment. Register the account again with the BIC of the bank that holds the IBAN.",
  },
});
