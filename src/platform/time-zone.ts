// Calendar days and wall clocks in an IANA time zone, from the runtime's Intl data. One copy serves the API
// (the payout volume's days, bank-rail cut-offs) and the dashboard (dashboard/src/lib/time.ts imports it: pure
// code without Node or the DOM), so a day on the Home chart, a day typed in a filter and a day the API counts
// mean the same instants, whatever zones PostgreSQL knows.

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone (building one costs far more than using it). Throws for a zone the runtime does not know. */
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

/** Whether the runtime knows `zone` as a time zone (a stored name from a newer database may be unknown to it). */
export function isTimeZone(zone: string): boolean {
  try {
    wallClock(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's wall clock at `ms` (to the second), read as if it were UTC, as an epoch. */
export function wallClockMs(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of wallClock(zone).formatToParts(ms)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
}

/** The instants whose wall clock in `zone` reads `wall` (a UTC-encoded wall time), earliest first. */
export function instantsAt(wall: number, zone: string): [number, number] {
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

/** UTC midnight of a `YYYY-MM-DD` calendar date (epoch ms), or null when `day` is not one. */
export function validDay(day: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const midnight = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== day ? null : midnight;
}

/**
 * The first instant of `day` in `zone` (epoch ms), or null when `day` is not a `YYYY-MM-DD` date. Usually
 * local midnight; where a daylight-saving change skips midnight (America/Santiago, America/Havana) the day
 * starts at the change.
 */
export function dayStartInZone(day: string, zone: string): number | null {
  const midnight = validDay(day);
  if (midnight === null) return null;
  const candidates = instantsAt(midnight, zone);
  return candidates.find((ms) => dayInZone(ms, zone) === day) ?? candidates[1];
}
