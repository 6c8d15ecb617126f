// Calendar days in an IANA time zone, from the runtime's Intl data (the same data the dashboard's browser
// uses), so a day means the same thing to the API and to the dashboard whatever zones PostgreSQL knows.
// The dashboard keeps its own copy of these few functions (dashboard/src/lib/time.ts): it is built apart.

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

/** Whether the runtime knows `zone` as a time zone. */
export function isTimeZone(zone: string): boolean {
  try {
    wallClock(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's wall clock at `ms`, read as if it were UTC: `[y, m, d, h, min, s]` as a UTC epoch. */
function wallClockMs(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of wallClock(zone).formatToParts(ms)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
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

/**
 * The first instant of `day` in `zone` (epoch ms), or null when `day` is not a `YYYY-MM-DD` date. Usually
 * local midnight; where a daylight-saving change skips midnight (America/Santiago, America/Havana) the day
 * starts at the change.
 */
export function dayStartInZone(day: string, zone: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const midnight = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== day) return null;
  // Local midnight is `midnight` minus the zone's offset then; the offset is read twice because it may differ
  // between UTC midnight and local midnight.
  const first = midnight - (wallClockMs(midnight, zone) - midnight);
  const second = midnight - (wallClockMs(first, zone) - first);
  const candidates = [Math.min(first, second), Math.max(first, second)];
  return candidates.find((ms) => dayInZone(ms, zone) === day) ?? candidates[1] ?? first;
}
