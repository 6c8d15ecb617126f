// The bank-rails module's error codes (SEPA credit transfers and US ACH by bank file): configuring a rail, and
// what a bank file cannot carry (payouts, destinations and collection refuse with these too).
// Thrown and declared by their definition (`new AppError(TABLE.CODE)`); see platform/errors.ts.
import { defineErrorCodes } from "../../platform/errors.js";

export const BANK_RAIL_ERRORS = defineErrorCodes({
  NO_RAIL_FOR_DESTINATION: {
    status: 422,
    message: "None of this Business's bank rails can carry a payout to this destination in this currency.",
    description:
      "Once a Business configured a bank rail (`PUT /v1/bank-rails/sepa` or `/ach`), production payouts go only where a configured rail reaches: EUR to an IBAN in the SEPA zone (sepa), USD to a US bank account with an ABA routing number (ach). Configure the rail that fits, or pay this Beneficiary to another destination. A Business with no bank rail keeps the production simulator.",
  },
  BANK_RAIL_LOCAL_DELIVERY_NOT_ALLOWED: {
    status: 422,
    message: "Delivery to a local directory is not allowed on this service.",
    description:
      "Local-directory delivery writes bank files on the service's own disk; the operator allows it by setting `BANK_RAIL_LOCAL_ROOT`. Use SFTP delivery, or ask the operator.",
  },
  BANK_RAIL_IN_USE: {
    status: 409,
    message: "Payouts are waiting for this rail's next file; it cannot be removed now.",
    description: "Remove the rail after its next cut-off has put the waiting payouts into a file, or cancel them first.",
  },
  BANK_RAIL_HOST_NOT_PUBLIC: {
    status: 422,
    message: "The SFTP host does not resolve to a public address.",
    description:
      "Bank-rail SFTP hosts follow the same address rules as webhook URLs: the host (`delivery.host`) is, or resolves to, an address that is not global unicast (loopback, private, link-local, carrier-grade NAT, unique-local, documentation, reserved…). The message names the host you sent, never the address it resolved to. The operator can allow private bank hosts (`BANK_RAIL_ALLOW_PRIVATE_HOSTS`), for a bank reached over a private link.",
  },
  BANK_RAIL_DEBTOR_ACCOUNT_TAKEN: {
    status: 409,
    message: "Another Business on this service already sends files for this debtor account.",
    description:
      "One debtor account belongs to one Business per environment: the IBAN of a SEPA rail, the ODFI routing number with the Company Identification of an ACH rail. If the account is yours, the operator of this service can tell which configuration holds it.",
  },
  SEPA_ADDRESS_NOT_STRUCTURED: {
    status: 422,
    message: "The Beneficiary's postal address cannot be sent structured (town and country at least).",
    description:
      "Since November 2026 SEPA credit transfers with unstructured addresses are refused. Complete the Beneficiary's `postal_address` (city and country at least), through the API or a collection link, then create the payout again.",
  },
  SEPA_NAME_NOT_REPRESENTABLE: {
    status: 422,
    message: "The account holder's name has no character a SEPA file can carry.",
    description:
      "SEPA files carry the Latin alphabet, digits and a few signs; accented letters are transliterated, and so are Greek and Cyrillic (as the EPC recommends), but a name written only in another script (Chinese, Arabic, …) leaves nothing. Give the account holder's name in Latin script.",
  },
  ACH_NAME_NOT_REPRESENTABLE: {
    status: 422,
    message: "The account holder's name has no character an ACH file can carry.",
    description:
      "NACHA files carry upper-case ASCII; accented letters, Greek and Cyrillic are transliterated, but a name written only in another script leaves nothing. Give the account holder's name in Latin script.",
  },
  SEPA_AMOUNT_OUT_OF_RANGE: {
    status: 422,
    message: "A SEPA credit transfer carries at most 999,999,999.99 EUR.",
    description:
      "The EPC SCT rulebook caps one transfer at 999,999,999.99 EUR (pain.001 `InstdAmt`). `details` names `amount_minor` and the limit. Split the amount into several payouts.",
  },
  ACH_AMOUNT_OUT_OF_RANGE: {
    status: 422,
    message: "An ACH entry carries at most 99,999,999.99 USD.",
    description:
      "The NACHA Entry Detail record's amount field has ten digits of cents (99,999,999.99). `details` names `amount_minor` and the limit. Split the amount into several payouts, or pay by wire.",
  },
  SEPA_FIELD_TOO_LONG: {
    status: 422,
    message: "A text is longer than its field in a SEPA file can carry.",
    description:
      "Measured after transliteration to the SEPA character set: the account holder's name 70 characters (`Cdtr/Nm`), `external_ref` 140 (the remittance information, `RmtInf/Ustrd`), the Beneficiary's `postal_address` line1 70 (`StrtNm`), line2 35 (`BldgNm`; with pain.001.001.03, which has no building name, line1 and line2 share the street name's 70), postal_code 16, city 35, state 35. Nothing is cut: `details` names each field (`code` `too_long`) with its limit and its length. Shorten the text (for a name, as the bank knows it) and try again.",
  },
  ACH_FIELD_TOO_LONG: {
    status: 422,
    message: "A text is longer than its field in an ACH file can carry.",
    description:
      "Measured after transliteration to upper-case ASCII: the account holder's name takes at most 22 characters (Entry Detail record, Individual Name or Receiving Company Name). Nothing is cut: `details` names the field (`code` `too_long`) with its limit and length. Register the account with the name as the receiving bank should see it, at most 22 characters (for example initials for middle names).",
  },
  SEPA_BIC_REQUIRED: {
    status: 422,
    message: "A SEPA credit transfer to this country needs the beneficiary bank's BIC.",
    description:
      "The EPC SCT rulebook makes the BIC mandatory for accounts in SEPA countries outside the EEA: Switzerland, the United Kingdom, Guernsey, Jersey, the Isle of Man, Gibraltar, Monaco, San Marino, the Vatican, Andorra, Saint Pierre and Miquelon, Saint Barthélemy, Albania, Moldova, Montenegro, North Macedonia and Serbia. `details` names `swift_bic`. Register the account again with its `swift_bic`.",
  },
  SEPA_BIC_MISMATCH: {
    status: 422,
    message: "The bank account's BIC is of a bank in another country than its IBAN.",
    description:
      "An account registered before IBAN and BIC were checked against each other. A SEPA file would send both, and the bank would refuse or misroute the payment. Register the account again with the BIC of the bank that holds the IBAN.",
  },
});
