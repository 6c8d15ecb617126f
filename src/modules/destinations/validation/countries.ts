// The ISO tables live in platform/reference (shared by every module); re-exported for the validators.
export { currencyExponent, defaultCurrencyOf, isCountryCode, isCurrencyCode } from "../../../platform/reference/iso-codes.js";
