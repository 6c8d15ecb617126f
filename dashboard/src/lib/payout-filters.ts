// The payouts list's extra filters (channel, currency, created and updated ranges, amount range) between the
// page's URL and the API. The URL holds the API's own values (ISO instants, minor units) so a shared link
// means the same payouts in every time zone; the form shows them as days of the dashboard's time zone (the
// Business's, else the browser's: "created on the 3rd" is the Business's 3rd) and currency units.
// Pure code without the DOM: the root test suite runs it (test/unit/dashboard-payout-filters.test.ts).
import { minorToDecimal, parseMoneyInput } from "./money.js";
import { addDays, dayInZone, dayStartInZone } from "./time.js";

export const FILTER_PARAMS = [
  "channel",
  "currency",
  "created_from",
  "created_to",
  "updated_from",
  "updated_to",
  "amount_min",
  "amount_max",
] as const;
export type FilterParam = (typeof FILTER_PARAMS)[number];

export interface PayoutFilterQuery {
  channel?: "api" | "csv";
  currency?: string;
  created_from?: string;
  created_to?: string;
  updated_from?: string;
  updated_to?: string;
  amount_min?: number;
  amount_max?: number;
}

const INTEGER = /^\d+$/;

/**
 * The URL's filters as the API's query. Values are passed as they are (the API refuses what is malformed,
 * and the page shows its envelope beside the field), except amounts, which must be integers to be sent.
 */
export function filterQueryFromParams(params: URLSearchParams): PayoutFilterQuery {
  const query: PayoutFilterQuery = {};
  const channel = params.get("channel");
  if (channel === "api" || channel === "csv") query.channel = channel;
  for (const name of ["currency", "created_from", "created_to", "updated_from", "updated_to"] as const) {
    const value = params.get(name);
    if (value !== null && value !== "") query[name] = value;
  }
  for (const name of ["amount_min", "amount_max"] as const) {
    const value = params.get(name);
    if (value !== null && INTEGER.test(value)) query[name] = Number(value);
  }
  return query;
}

/** `2026-05-27` (a day in `zone`) -> the ISO instant that day starts there. */
export function dayStart(day: string, zone: string): string | null {
  const start = dayStartInZone(day, zone);
  return start === null ? null : new Date(start).toISOString();
}

/** `2026-05-27` -> the instant the next day starts in `zone`: the exclusive end of a range that includes the day. */
export function dayEnd(day: string, zone: string): string | null {
  if (dayStartInZone(day, zone) === null) return null;
  return dayStart(addDays(day, 1), zone);
}

/** An ISO instant -> the day it falls on in `zone` (`YYYY-MM-DD`), for a date input; "" when not a time. */
export function dayOf(iso: string | null, zone: string): string {
  if (iso === null || iso === "") return "";
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? "" : dayInZone(ms, zone);
}

/** An exclusive end instant -> the last day in `zone` it includes. */
export function lastDayBefore(iso: string | null, zone: string): string {
  if (iso === null || iso === "") return "";
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? "" : dayInZone(ms - 1, zone);
}

/** The form as a person fills it in: days of the dashboard's zone, amounts in the currency's units. */
export interface FilterDraft {
  channel: string;
  currency: string;
  createdFrom: string;
  createdTo: string;
  updatedFrom: string;
  updatedTo: string;
  amountMin: string;
  amountMax: string;
}

export function draftFromParams(params: URLSearchParams, zone: string): FilterDraft {
  const currency = params.get("currency") ?? "";
  const amount = (name: string) => {
    const value = params.get(name);
    return value !== null && INTEGER.test(value) && currency !== "" ? minorToDecimal(Number(value), currency) : "";
  };
  return {
    channel: params.get("channel") ?? "",
    currency,
    createdFrom: dayOf(params.get("created_from"), zone),
    createdTo: lastDayBefore(params.get("created_to"), zone),
    updatedFrom: dayOf(params.get("updated_from"), zone),
    updatedTo: lastDayBefore(params.get("updated_to"), zone),
    amountMin: amount("amount_min"),
    amountMax: amount("amount_max"),
  };
}

export type DraftResult =
  | { ok: true; params: URLSearchParams }
  | { ok: false; errors: Partial<Record<keyof FilterDraft, string>> };

/**
 * The draft applied to the current URL: the extra filters replaced, every other parameter (status, search…)
 * kept. Only what the form itself can know is checked here (a currency for amounts, amounts it can parse);
 * ranges are the API's to judge.
 */
export function applyDraft(current: URLSearchParams, draft: FilterDraft, zone: string): DraftResult {
  const next = new URLSearchParams(current);
  for (const name of FILTER_PARAMS) next.delete(name);
  const errors: Partial<Record<keyof FilterDraft, string>> = {};
  const currency = draft.currency.trim().toUpperCase();
  if (currency !== "" && !/^[A-Z]{3}$/.test(currency)) errors.currency = "Three letters, such as EUR";
  if (draft.channel === "api" || draft.channel === "csv") next.set("channel", draft.channel);
  if (currency !== "") next.set("currency", currency);
  const days: [keyof FilterDraft, FilterParam, (day: string, zone: string) => string | null][] = [
    ["createdFrom", "created_from", dayStart],
    ["createdTo", "created_to", dayEnd],
    ["updatedFrom", "updated_from", dayStart],
    ["updatedTo", "updated_to", dayEnd],
  ];
  for (const [field, param, toInstant] of days) {
    if (draft[field] === "") continue;
    const instant = toInstant(draft[field], zone);
    if (instant === null) errors[field] = "Pick a day";
    else next.set(param, instant);
  }
  for (const [field, param] of [
    ["amountMin", "amount_min"],
    ["amountMax", "amount_max"],
  ] as const) {
    if (draft[field].trim() === "") continue;
    if (currency === "" || errors.currency !== undefined) {
      errors[field] = "Choose a currency to filter by amount";
      continue;
    }
    const parsed = parseMoneyInput(draft[field], currency);
    if (parsed.ok) next.set(param, String(parsed.amountMinor));
    else errors[field] = parsed.message;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, params: next };
}

/** How many of the extra filters the URL sets (shown on the toggle). */
export function activeFilterCount(params: URLSearchParams): number {
  return FILTER_PARAMS.filter((name) => (params.get(name) ?? "") !== "").length;
}
