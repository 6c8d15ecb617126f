// Business-day calendars of the two bank-file rails, on calendar dates written `YYYY-MM-DD` (a date, not an
// instant: the cut-off's time zone has already decided which day it is).
//
// TARGET2 (the euro system SEPA credit transfers settle in) is closed on Saturdays, Sundays and six days a
// year: 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December. Holiday libraries do not know this
// calendar, so it is derived here from the date of Easter.
//
// The Federal Reserve (ACH settlement) is closed on weekends and on federal holidays; a holiday on a Sunday is
// observed on the Monday, but a holiday on a Saturday is NOT moved to the Friday (the Federal Reserve stays open
// that Friday), unlike the federal government's own calendar.
import federalHolidays from "@18f/us-federal-holidays";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

function parseIsoDate(date: string): { year: number; month: number; day: number; epochDay: number } {
  const match = ISO_DATE.exec(date);
  if (!match) throw new RangeError(`not a calendar date (YYYY-MM-DD): ${date}`);
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const epochMs = Date.UTC(year, month - 1, day);
  const check = new Date(epochMs);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new RangeError(`not a calendar date (YYYY-MM-DD): ${date}`);
  }
  return { year, month, day, epochDay: epochMs / DAY_MS };
}

function formatEpochDay(epochDay: number): string {
  return new Date(epochDay * DAY_MS).toISOString().slice(0, 10);
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

/** `date` plus `days` calendar days. */
export function addCalendarDays(date: string, days: number): string {
  return formatEpochDay(parseIsoDate(date).epochDay + days);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(date: string): number {
  // 1970-01-01 (epoch day 0) was a Thursday (4).
  return (((parseIsoDate(date).epochDay + 4) % 7) + 7) % 7;
}

function isWeekend(date: string): boolean {
  const weekday = weekdayOf(date);
  return weekday === 0 || weekday === 6;
}

/** Easter Sunday of the Gregorian calendar (the anonymous algorithm of Meeus, Jones and Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

/** The six days a year TARGET2 is closed (besides weekends), in date order. */
export function target2ClosingDays(year: number): string[] {
  const easter = easterSunday(year);
  return [
    `${year}-01-01`,
    addCalendarDays(easter, -2), // Good Friday
    addCalendarDays(easter, 1), // Easter Monday
    `${year}-05-01`,
    `${year}-12-25`,
    `${year}-12-26`,
  ];
}

export function isTarget2BusinessDay(date: string): boolean {
  if (isWeekend(date)) return false;
  return !target2ClosingDays(parseIsoDate(date).year).includes(date);
}

/** The first TARGET2 business day on or after `date`. */
export function target2BusinessDayOnOrAfter(date: string): string {
  let current = date;
  while (!isTarget2BusinessDay(current)) current = addCalendarDays(current, 1);
  return current;
}

/** Federal holidays the Federal Reserve closes for in `year` (Sunday holidays on the Monday, Saturday ones kept). */
export function federalReserveHolidays(year: number): string[] {
  return federalHolidays.allForYear(year, { shiftSaturdayHolidays: false, shiftSundayHolidays: true }).map((holiday) => {
    const [y, m, d] = holiday.dateString.split("-");
    return `${y}-${pad2(Number(m))}-${pad2(Number(d))}`;
  });
}

export function isFederalReserveBusinessDay(date: string): boolean {
  if (isWeekend(date)) return false;
  return !federalReserveHolidays(parseIsoDate(date).year).includes(date);
}

/** The first Federal Reserve business day on or after `date`. */
export function federalReserveBusinessDayOnOrAfter(date: string): string {
  let current = date;
  while (!isFederalReserveBusinessDay(current)) current = addCalendarDays(current, 1);
  return current;
}

/** The first Federal Reserve business day strictly after `date` (the usual effective date of a next-day ACH file). */
export function nextFederalReserveBusinessDay(date: string): string {
  return federalReserveBusinessDayOnOrAfter(addCalendarDays(date, 1));
}

/** The first TARGET2 business day strictly after `date`. */
export function nextTarget2BusinessDay(date: string): string {
  return target2BusinessDayOnOrAfter(addCalendarDays(date, 1));
}
