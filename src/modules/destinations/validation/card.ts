// Validation of a card destination (push-to-card payouts). Pure: the current time is a parameter, never
// read here, so expiry is decided against the caller's injected clock and tests can pin it.
//
// The full card number only leaves this module in `card_number` and `fingerprint_input`, whose names say
// what they are; the only displayable parts are `last4` and `network`.
import { BLANK_NAME_MESSAGE, isVisibleName } from "../../../platform/names.js";
import { isCountryCode, isCurrencyCode } from "./countries.js";
import { collapseSpaces, MAX_NAME_LENGTH, readText, type ValidationFailure, type ValidationResult } from "./failures.js";
import { maskIdentifier } from "./masking.js";

export const CARD_FAILURE_CODES = {
  required: "The field is missing or blank.",
  blank: "The cardholder name holds no letter or digit (only spaces or invisible characters).",
  too_long: "The cardholder name is longer than 140 characters.",
  invalid_card_number: "The card number is not 12 to 19 digits, or not a length its network issues.",
  invalid_card_checksum: "The card number fails the Luhn check: a digit is probably mistyped.",
  invalid_expiry_month: "The expiry month is not 1 to 12.",
  invalid_expiry_year: "The expiry year is not a 2- or 4-digit year within the next 20 years.",
  card_expired: "The card expired before the current month.",
  invalid_country: "Not an ISO 3166-1 alpha-2 country code.",
  invalid_currency: "Not an ISO 4217 code of a currency an account can hold (metal, bond-unit and test codes are refused).",
} as const;

export type CardFailureCode = keyof typeof CARD_FAILURE_CODES;

export const CARD_FIELDS = ["card_number", "expiry_month", "expiry_year", "cardholder_name", "country", "currency"] as const;
export type CardField = (typeof CARD_FIELDS)[number];

export interface CardInput {
  readonly card_number?: string | null | undefined;
  /** 1-12, as a number or text ("03"). */
  readonly expiry_month?: number | string | null | undefined;
  /** Four digits, or two meaning 20YY. */
  readonly expiry_year?: number | string | null | undefined;
  readonly cardholder_name?: string | null | undefined;
  readonly country?: string | null | undefined;
  readonly currency?: string | null | undefined;
}

export const CARD_NETWORKS = ["visa", "mastercard", "amex", "discover", "other"] as const;
export type CardNetwork = (typeof CARD_NETWORKS)[number];

export interface NormalizedCard {
  /** Sensitive: the full number, digits only. Encrypt it; never serialize it. */
  card_number: string;
  /** Sensitive: what the keyed fingerprint hash is computed over (the number alone, so a renewed card matches). */
  fingerprint_input: string;
  network: CardNetwork;
  last4: string;
  expiry_month: number;
  expiry_year: number;
  cardholder_name: string;
  country: string;
  currency: string;
}

export type CardFailure = ValidationFailure<CardField, CardFailureCode>;
export type CardResult = ValidationResult<NormalizedCard, CardField, CardFailureCode>;

/** How far ahead an expiry date may be; issuers print at most a few years, 20 catches typos like 2206. */
const MAX_YEARS_AHEAD = 20;

export function validateCard(input: CardInput, now: Date): CardResult {
  const failures: CardFailure[] = [];
  const number = checkCardNumber(input.card_number, failures);
  const month = checkExpiryMonth(input.expiry_month, failures);
  const year = checkExpiryYear(input.expiry_year, now, failures);
  if (month !== undefined && year !== undefined && isExpired(month, year, now)) {
    // Name the field to correct: the year when it is past, else the month within this year.
    const field = year < now.getUTCFullYear() ? "expiry_year" : "expiry_month";
    failures.push({ field, code: "card_expired", message: `The card expired at the end of ${month}/${year}.` });
  }
  const name = checkCardholderName(input.cardholder_name, failures);
  const country = checkCode(input.country, "country", isCountryCode, failures);
  const currency = checkCode(input.currency, "currency", isCurrencyCode, failures);
  if (failures.length > 0 || number === undefined || month === undefined || year === undefined) return { ok: false, failures };
  if (name === undefined || country === undefined || currency === undefined) return { ok: false, failures };
  return {
    ok: true,
    value: {
      card_number: number.digits,
      fingerprint_input: number.digits,
      network: number.network,
      last4: maskIdentifier(number.digits),
      expiry_month: month,
      expiry_year: year,
      cardholder_name: name,
      country,
      currency,
    },
  };
}

/** Spaces and dashes are how people group the digits; anything else makes it not a card number. */
function checkCardNumber(
  raw: string | null | undefined,
  failures: CardFailure[],
): { digits: string; network: CardNetwork } | undefined {
  const text = readText(raw);
  if (text === undefined) {
    failures.push({ field: "card_number", code: "required", message: "The card number is required." });
    return undefined;
  }
  const digits = text.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(digits)) {
    failures.push({ field: "card_number", code: "invalid_card_number", message: "A card number has 12 to 19 digits." });
    return undefined;
  }
  const network = detectCardNetwork(digits);
  const lengthOk = NETWORK_LENGTHS[network].includes(digits.length);
  if (!lengthOk) {
    failures.push({
      field: "card_number",
      code: "invalid_card_number",
      message: `A ${network} card number does not have ${digits.length} digits.`,
    });
  }
  const luhnOk = isLuhnValid(digits);
  if (!luhnOk) {
    failures.push({
      field: "card_number",
      code: "invalid_card_checksum",
      message: "The card number fails its check digit: a digit is probably mistyped.",
    });
  }
  return lengthOk && luhnOk ? { digits, network } : undefined;
}

/** Luhn (mod 10): double every second digit from the right, subtract 9 from results above 9, sum to 0 mod 10. */
export function isLuhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Card lengths each network issues; "other" (Maestro, JCB, UnionPay, …) spans the whole ISO 7812 range. */
const NETWORK_LENGTHS: Readonly<Record<CardNetwork, readonly number[]>> = {
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  discover: [16, 17, 18, 19],
  other: [12, 13, 14, 15, 16, 17, 18, 19],
};

/**
 * Network from the issuer identification number (the leading digits). Ranges from the networks' published
 * tables: Visa 4; Mastercard 51-55 and 2221-2720; Amex 34, 37; Discover 6011, 644-649, 65 and the
 * 622126-622925 range it shares with UnionPay. Everything else is "other".
 */
export function detectCardNetwork(digits: string): CardNetwork {
  const prefix = (length: number) => Number(digits.slice(0, length));
  if (digits.startsWith("4")) return "visa";
  if (digits.startsWith("34") || digits.startsWith("37")) return "amex";
  if ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720)) return "mastercard";
  if (digits.startsWith("6011") || digits.startsWith("65") || (prefix(3) >= 644 && prefix(3) <= 649)) return "discover";
  if (prefix(6) >= 622126 && prefix(6) <= 622925) return "discover";
  return "other";
}

function checkExpiryMonth(raw: number | string | null | undefined, failures: CardFailure[]): number | undefined {
  const value = readInteger(raw, /^\d{1,2}$/);
  if (value === "missing") {
    failures.push({ field: "expiry_month", code: "required", message: "The expiry month is required." });
    return undefined;
  }
  if (value !== undefined && value >= 1 && value <= 12) return value;
  failures.push({ field: "expiry_month", code: "invalid_expiry_month", message: "The expiry month is 1 to 12." });
  return undefined;
}

/** "27" means 2027: cards print two-digit years, and none issued this century expires in the 1900s. */
function checkExpiryYear(raw: number | string | null | undefined, now: Date, failures: CardFailure[]): number | undefined {
  const value = readInteger(raw, /^(\d{2}|\d{4})$/);
  if (value === "missing") {
    failures.push({ field: "expiry_year", code: "required", message: "The expiry year is required." });
    return undefined;
  }
  const year = value !== undefined && value < 100 ? 2000 + value : value;
  if (year !== undefined && year >= 2000 && year <= now.getUTCFullYear() + MAX_YEARS_AHEAD) return year;
  failures.push({
    field: "expiry_year",
    code: "invalid_expiry_year",
    message: "The expiry year is a 2- or 4-digit year, at most 20 years ahead.",
  });
  return undefined;
}

/** A whole number from a number or digit text; "missing" for blank, undefined for anything malformed. */
function readInteger(raw: number | string | null | undefined, shape: RegExp): number | "missing" | undefined {
  if (raw === undefined || raw === null) return "missing";
  if (typeof raw === "number") return Number.isInteger(raw) ? raw : undefined;
  const text = raw.trim();
  if (text === "") return "missing";
  return shape.test(text) ? Number(text) : undefined;
}

/**
 * A card is good through the last day of its expiry month. The issuer's time zone is unknown, so the month
 * is compared in UTC; at worst a card is accepted or refused a few hours early at a month's edge.
 */
function isExpired(month: number, year: number, now: Date): boolean {
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return year * 12 + (month - 1) < current;
}

function checkCardholderName(raw: string | null | undefined, failures: CardFailure[]): string | undefined {
  const text = readText(raw);
  if (text === undefined) {
    failures.push({ field: "cardholder_name", code: "required", message: "The cardholder name is required." });
    return undefined;
  }
  const name = collapseSpaces(text);
  if (!isVisibleName(name)) {
    failures.push({ field: "cardholder_name", code: "blank", message: BLANK_NAME_MESSAGE });
    return undefined;
  }
  if (name.length <= MAX_NAME_LENGTH) return name;
  failures.push({ field: "cardholder_name", code: "too_long", message: `At most ${MAX_NAME_LENGTH} characters.` });
  return undefined;
}

function checkCode(
  raw: string | null | undefined,
  field: "country" | "currency",
  isValid: (code: string) => boolean,
  failures: CardFailure[],
): string | undefined {
  const text = readText(raw);
  if (text === undefined) {
    failures.push({ field, code: "required", message: `The ${field} is required.` });
    return undefined;
  }
  const code = text.toUpperCase();
  if (isValid(code)) return code;
  const standard =
    field === "country" ? "an ISO 3166-1 alpha-2 country code" : "the ISO 4217 code of a currency an account can hold";
  failures.push({
    field,
    code: field === "country" ? "invalid_country" : "invalid_currency",
    message: `"${text}" is not ${standard}.`,
  });
  return undefined;
}
