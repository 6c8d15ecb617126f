// The destination validation library: pure functions shared by the API, the CSV import and the hosted
// collection pages. See bank-details.ts for the scheme rules and the failure codes.
export {
  BANK_DETAILS_FAILURE_CODES,
  BANK_DETAILS_FIELDS,
  BANK_SCHEMES,
  type BankDetailsFailure,
  type BankDetailsFailureCode,
  type BankDetailsField,
  type BankDetailsInput,
  type BankDetailsResult,
  type BankForm,
  type BankFormField,
  type BankScheme,
  bankFormFor,
  type NormalizedBankDetails,
  validateBankDetails,
} from "./bank-details.js";
export {
  CARD_FAILURE_CODES,
  CARD_FIELDS,
  CARD_NETWORKS,
  type CardFailure,
  type CardFailureCode,
  type CardField,
  type CardInput,
  type CardNetwork,
  type CardResult,
  detectCardNetwork,
  isLuhnValid,
  type NormalizedCard,
  validateCard,
} from "./card.js";
export { currencyExponent, defaultCurrencyOf, isCountryCode, isCurrencyCode } from "./countries.js";
export type { ValidationFailure, ValidationResult } from "./failures.js";
export { isSepaCountry } from "./iban-bic.js";
export { MAX_MASKED_LENGTH, maskIdentifier, maskPixKey, maskStoredDestination, type StoredSensitiveValues } from "./masking.js";
export { checkPixKey, isValidCnpj, isValidCpf, PIX_KEY_TYPES, type PixKeyType } from "./pix.js";
