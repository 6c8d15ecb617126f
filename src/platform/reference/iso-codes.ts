// ISO reference data from maintained tables: countries (ISO 3166-1 alpha-2, i18n-iso-countries) and
// currencies (ISO 4217 with their minor-unit exponent, currency-codes).
import currencyCodes from "currency-codes";
import countries from "i18n-iso-countries";

/** Capital letters only: `de` is refused so stored codes have one spelling. */
export function isCountryCode(value: string): boolean {
  return /^[A-Z]{2}$/.test(value) && countries.isValid(value);
}

export function isCurrencyCode(value: string): boolean {
  return /^[A-Z]{3}$/.test(value) && currencyCodes.code(value) !== undefined;
}

/** Digits after the decimal point (USD 2, JPY 0, BHD 3); null for an unknown code. */
export function currencyExponent(code: string): number | null {
  const entry = currencyCodes.code(code);
  return entry === undefined ? null : entry.digits;
}
