// Money as the API gives it: integer minor units of an ISO 4217 currency. Formatting never goes through a
// float: the minor units become an exact decimal string, which Intl formats as given (grouping, symbol).
// Pure code without the DOM: the root test suite runs it (test/unit/dashboard-money.test.ts).

/** ISO 4217 currencies whose minor unit is not 2 digits (the rest, and unknown codes, have 2). */
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

export function currencyExponent(currency: string): number {
  return EXPONENTS[currency.toUpperCase()] ?? 2;
}

/** `12345`, `EUR` -> `"123.45"`; `-5`, `JPY` -> `"-5"`; `7`, `KWD` -> `"0.007"`. Exact for any safe integer. */
export function minorToDecimal(amountMinor: number | bigint, currency: string): string {
  const exponent = currencyExponent(currency);
  const value = BigInt(amountMinor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(exponent + 1, "0");
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${negative ? "-" : ""}${whole}${exponent > 0 ? `.${fraction}` : ""}`;
}

/** `123456`, `EUR`, `en-GB` -> `€1,234.56`; the currency's own number of decimals, whatever the locale's habit. */
export function formatMoney(amountMinor: number | bigint, currency: string, locale?: string): string {
  const exponent = currencyExponent(currency);
  const decimal = minorToDecimal(amountMinor, currency);
  try {
    const format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency: currency.toUpperCase(),
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
    // Intl.NumberFormat formats a decimal string exactly (no float in between).
    return format.format(decimal as unknown as number);
  } catch {
    return `${decimal} ${currency}`;
  }
}

export type ParsedAmount = { ok: true; amountMinor: number } | { ok: false; message: string };

/**
 * What a person typed in the currency's units -> minor units. Accepts `1234.5`, `1,234.50`, ` 12 `; refuses
 * more decimals than the currency has, signs, exponents and amounts beyond a safe integer.
 */
export function parseMoneyInput(input: string, currency: string): ParsedAmount {
  const exponent = currencyExponent(currency);
  const text = input.trim().replace(/[,\s]/g, "");
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (match === null) return { ok: false, message: "Enter an amount such as 1250.00" };
  const whole = match[1] ?? "0";
  const fraction = match[2] ?? "";
  if (fraction.length > exponent) {
    return {
      ok: false,
      message: exponent === 0 ? `${currency} has no decimals` : `${currency} has at most ${exponent} decimals`,
    };
  }
  const minor = BigInt(whole) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, "0") || "0");
  if (minor <= 0n) return { ok: false, message: "The amount must be more than zero" };
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, message: "The amount is too large" };
  return { ok: true, amountMinor: Number(minor) };
}
