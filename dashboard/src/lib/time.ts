// Times and calendar days in one time zone: the Business's (its profile's `time_zone`) when set, else the
// browser's, so every member reads the same dates wherever they sit (lib/time-zone.tsx picks the zone).
// The day arithmetic is the API's own (src/platform/time-zone.ts, kept the same here because the dashboard
// is built apart), so a day on the Home chart and a day typed in a filter mean the same instants.
// Pure code without the DOM: the root test suite runs it (test/unit/dashboard-time.test.ts).

/** The browser's own time zone (IANA name). */
export function browserTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Whether the browser knows `zone` (a stored name from a newer time zone database may be unknown to it). */
export function isTimeZone(zone: string): boolean {
  try {
    wallClock(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * `2026-05-27T14:05:00Z` in `zone`, with the zone's short name so nobody takes it for their own clock:
 * `May 27, 2026, 10:05 AM EDT` (en-US), `27 May 2026, 16:05 CEST` (en-GB).
 */
export function formatTime(iso: string, zone: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, {
    timeZone: zone,
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(date);
}

/** The exact UTC value, for a tooltip. */
export function utcTitle(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().replace("T", " ").slice(0, 19)} UTC`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The zone's wall clock at `ms`, read as if it were UTC. */
function wallClockMs(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of wallClock(zone).formatToParts(ms)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
}

/** The instants whose wall clock in `zone` reads `wall` (a UTC-encoded wall time): earliest first. */
function instantsAt(wall: number, zone: string): number[] {
  // The offset is read twice because it may differ between `wall` read as UTC and the instant sought.
  const first = wall - (wallClockMs(wall, zone) - wall);
  const second = wall - (wallClockMs(first, zone) - first);
  return first <= second ? [first, second] : [second, first];
}

/** The day (`YYYY-MM-DD`) the instant `ms` falls on in `zone`. */
export function dayInZone(ms: number, zone: string): string {
  return new Date(wallClockMs(ms, zone)).toISOString().slice(0, 10);
}

/** `day` moved by `count` calendar days. */
export function addDays(day: string, count: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

function validDay(day: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const midnight = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== day ? null : midnight;
}

/**
 * The first instant of `day` in `zone` (epoch ms), or null when `day` is not a `YYYY-MM-DD` date. Usually
 * local midnight; where a daylight-saving change skips midnight (America/Santiago) the day starts at the change.
 */
export function dayStartInZone(day: string, zone: string): number | null {
  const midnight = validDay(day);
  if (midnight === null) return null;
  const candidates = instantsAt(midnight, zone);
  return candidates.find((ms) => dayInZone(ms, zone) === day) ?? candidates[1] ?? midnight;
}

/**
 * A `datetime-local` value (`2026-05-27T14:30`) read as a wall clock in `zone` -> the instant (epoch ms), or
 * null. A time the clocks skip (02:30 on a spring-forward night) is read with the offset before the change.
 */
export function wallTimeInZone(local: string, zone: string): number | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (match === null) return null;
  const midnight = validDay(match[1] ?? "");
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  const seconds = Number(match[4] ?? 0);
  if (midnight === null || hours > 23 || minutes > 59 || seconds > 59) return null;
  const wall = midnight + ((hours * 60 + minutes) * 60 + seconds) * 1000;
  const candidates = instantsAt(wall, zone);
  return candidates.find((ms) => wallClockMs(ms, zone) === wall) ?? candidates[1] ?? wall;
}
