// Thin wrappers over the maintained ISO tables: i18n-iso-countries (ISO 3166-1) and currency-codes
// (ISO 4217 with the minor-unit exponent). Both packages are CommonJS; under NodeNext the default import
// is their `module.exports` object (i18n-iso-countries assigns `module.exports`, so named imports fail).
import currencyCodes from "currency-codes";
import countries from "i18n-iso-countries";

/**
 * ISO 3166-1 alpha-2 only, capital letters only. The library's `isValid` also accepts alpha-3 ("DEU"),
 * numeric ("276") and lowercase, none of which is a stored country code, so the shape is checked first.
 */
export function isCountryCode(alpha2: string): boolean {
  return /^[A-Z]{2}$/.test(alpha2) && countries.isValid(alpha2);
}

/**
 * ISO 4217 alphabetic code, capital letters only, excluding the entries that are not the currency of any
 * account: precious metals, European bond units, the testing code XTS and "no currency" XXX. The table
 * tags exactly those with pseudo-country names starting "Zz", which keeps this list maintained upstream.
 */
export function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  const entry = currencyCodes.code(code);
  return entry !== undefined && !entry.countries.every((name) => name.startsWith("Zz"));
}

/** Digits after the decimal point in minor units (JPY 0, USD 2, BHD 3); null for a code that is not ISO 4217. */
export function currencyExponent(code: string): number | null {
  if (!isCurrencyCode(code)) return null;
  return currencyCodes.code(code)?.digits ?? null;
}
