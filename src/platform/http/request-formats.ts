// Validation rules every request schema gets without asking: a `date-time` format that accepts only what
// PostgreSQL's timestamptz and JavaScript's Date can both hold, and single-line body strings.
import type { Ajv } from "ajv";

/** The accepted range of request date-times: years 0001 to 9999, in UTC. */
export const DATE_TIME_MIN = "0001-01-01T00:00:00Z";
export const DATE_TIME_MAX = "9999-12-31T23:59:59.999Z";
const MIN_MS = Date.parse(DATE_TIME_MIN);
const MAX_MS = Date.parse(DATE_TIME_MAX);

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|([+-])(\d{2}):(\d{2}))$/i;

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * RFC 3339 date-time with a time zone, a real calendar date, no leap second (Date and PostgreSQL refuse
 * second 60) and an instant between 0001-01-01 and 9999-12-31 UTC (year 0000 is not a year to PostgreSQL).
 */
export function isRequestDateTime(value: string): boolean {
  const match = RFC3339.exec(value);
  if (match === null) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (match[9] !== undefined && (Number(match[10]) > 23 || Number(match[11]) > 59)) return false;
  const instant = Date.parse(value.toUpperCase());
  return Number.isFinite(instant) && instant >= MIN_MS && instant <= MAX_MS;
}

/** Messages for formats whose generic "Expected a valid <format>" would not say what to send. */
export const FORMAT_MESSAGES: Readonly<Record<string, string>> = {
  "date-time": `Expected an RFC 3339 date-time with a time zone between ${DATE_TIME_MIN} and 9999-12-31T23:59:59Z, e.g. 2026-05-27T12:00:00Z (seconds 00 to 59).`,
  date: "Expected a calendar date as YYYY-MM-DD, e.g. 1990-04-21.",
  email: "Expected an e-mail address, e.g. ana@example.com.",
  uri: "Expected an absolute URL, e.g. https://example.com/webhooks.",
};

/**
 * A schema with a `pattern` says what it expects in `x-pattern-message` (and may name its own detail code in
 * `x-pattern-code`); both are `x-` extensions, so the OpenAPI document stays standard.
 */
export const PATTERN_MESSAGE_KEYWORD = "x-pattern-message";
export const PATTERN_CODE_KEYWORD = "x-pattern-code";

/** Messages of the patterns used across the API, for schemas that carry no `x-pattern-message`. */
const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  "^[A-Z]{3}$": "Expected an ISO 4217 currency code in capitals, e.g. EUR.",
  "^[A-Z]{2}$": "Expected an ISO 3166-1 alpha-2 country code in capitals, e.g. DE.",
};

/** What a pattern without its own message expects, in words when it is a known one, else the pattern itself. */
export function patternFallbackMessage(pattern: string): string {
  return PATTERN_MESSAGES[pattern] ?? `Expected text matching the regular expression ${pattern}.`;
}

export const SINGLE_LINE_MESSAGE = "Contains a tab or a line break; this field is a single line of text.";

// Values of these keywords are data, not schemas: never rewrite them.
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "example", "required"]);

/**
 * A copy of `schema` in which every plain string (no format, enum or const) carries `singleLine`, unless it
 * says `"x-multiline": true` (free text such as a decision reason). The OpenAPI document keeps the original.
 */
export function withSingleLineStrings<T>(schema: T): T {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = DATA_KEYWORDS.has(key) ? value : visit(value);
    const type = out.type;
    const isString = type === "string" || (Array.isArray(type) && type.includes("string"));
    if (
      isString &&
      out.format === undefined &&
      out.enum === undefined &&
      out.const === undefined &&
      out["x-multiline"] !== true
    ) {
      out.singleLine = true;
    }
    return out;
  };
  return visit(schema) as T;
}

export function addRequestFormats(ajv: Ajv): void {
  ajv.addFormat("date-time", { type: "string", validate: isRequestDateTime });
  ajv.addKeyword({
    keyword: "singleLine",
    type: "string",
    schemaType: "boolean",
    errors: false,
    validate: (enabled: boolean, data: string) => !enabled || !/[\t\n\r]/.test(data),
  });
}
