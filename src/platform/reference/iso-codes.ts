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

/**
 * ISO 4217 names some countries differently from ISO 3166 (and from every alias i18n-iso-countries knows),
 * so the name lookup below misses them; these are the ones a payee is likely to live in. The last four list
 * a fund or accounting unit (CHE, CLF, UYI, CUC) before the currency people hold.
 */
const CURRENCY_NAME_MISSES: Readonly<Record<string, string>> = {
  CH: "CHF",
  CL: "CLP",
  UY: "UYU",
  CU: "CUP",
  GB: "GBP",
  KR: "KRW",
  TR: "TRY",
  VN: "VND",
  TW: "TWD",
  TZ: "TZS",
  MD: "MDL",
  BO: "BOB",
  VE: "VES",
  CV: "CVE",
  IR: "IRR",
  LA: "LAK",
  RE: "EUR",
  VA: "EUR",
  XK: "EUR",
  VG: "USD",
  VI: "USD",
  FM: "USD",
};

/**
 * The currency a country's accounts usually hold (what a form pre-selects; the payee may change it), or
 * null when unknown. Found by the country's English names in the ISO 4217 table; with several (USD and
 * USN, CHF and its fund codes) the one whose code starts with the country's code wins, else the first.
 */
export function defaultCurrencyOf(alpha2: string): string | null {
  if (!isCountryCode(alpha2)) return null;
  const known = CURRENCY_NAME_MISSES[alpha2];
  if (known !== undefined) return known;
  const names = countries.getName(alpha2, "en", { select: "all" }) ?? [];
  for (const name of names) {
    for (const spelling of [name.toLowerCase(), `${name.toLowerCase()} (the)`]) {
      const codes = currencyCodes
        .country(spelling)
        .map((entry) => entry.code)
        .filter(isCurrencyCode);
      if (codes.length > 0) return codes.find((code) => code.startsWith(alpha2)) ?? codes[0] ?? null;
    }
  }
  return null;
}

let currencyListCache: ReadonlyArray<readonly [string, string]> | null = null;

/** Every currency an account can hold, by code, with its English name: [code, name]. */
export function listCurrencies(): ReadonlyArray<readonly [string, string]> {
  if (currencyListCache === null) {
    currencyListCache = currencyCodes
      .codes()
      .filter(isCurrencyCode)
      .sort()
      .map((code) => [code, currencyCodes.code(code)?.currency ?? code] as const);
  }
  return currencyListCache;
}
