// @ts-check
// Calendar days and wall clocks in an IANA time zone, from the runtime's Intl data. One copy serves the service
// (the payout volume's days, bank-rail cut-offs; src/platform/time-zone.ts re-exports it) and the dashboard
// (dashboard/src/lib/time.ts), so a day on the Home chart, a day typed in a filter and a day the API counts mean
// the same instants, whatever zones PostgreSQL knows. Pure code, without Node or the DOM.
//
// Plain JavaScript (typed for TypeScript callers by time-zone.d.ts, checked against its JSDoc by
// `npm run typecheck`): Node.js 20 runs it as it is and Vite bundles it as it is, so the service's build, the
// tests that run the built service, the container image and the dashboard's build need no step for it.

/** @type {Map<string, Intl.DateTimeFormat>} */
const formatters = new Map();

/**
 * One formatter per zone (building one costs far more than using it). Throws for a zone the runtime does not know.
 * @param {string} zone
 * @returns {Intl.DateTimeFormat}
 */
function wallClock(zone) {
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

/**
 * Whether the runtime knows `zone` as a time zone (a stored name from a newer database may be unknown to it).
 * @param {string} zone
 * @returns {boolean}
 */
export function isTimeZone(zone) {
  try {
    wallClock(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone's wall clock at `ms` (to the second), read as if it were UTC, as an epoch.
 * @param {number} ms
 * @param {string} zone
 * @returns {number}
 */
export function wallClockMs(ms, zone) {
  /** @type {Record<string, number>} */
  const parts = {};
  for (const part of wallClock(zone).formatToParts(ms)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
}

/**
 * The instants whose wall clock in `zone` reads `wall` (a UTC-encoded wall time), earliest first.
 * @param {number} wall
 * @param {string} zone
 * @returns {[number, number]}
 */
export function instantsAt(wall, zone) {
  // The offset is read twice because it may differ between `wall` read as UTC and the instant sought.
  const first = wall - (wallClockMs(wall, zone) - wall);
  const second = wall - (wallClockMs(first, zone) - first);
  return first <= second ? [first, second] : [second, first];
}

/**
 * The day (`YYYY-MM-DD`) the instant `ms` falls on in `zone`.
 * @param {number} ms
 * @param {string} zone
 * @returns {string}
 */
export function dayInZone(ms, zone) {
  return new Date(wallClockMs(ms, zone)).toISOString().slice(0, 10);
}

/**
 * `day` moved by `count` calendar days.
 * @param {string} day
 * @param {number} count
 * @returns {string}
 */
export function addDays(day, count) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

/**
 * UTC midnight of a `YYYY-MM-DD` calendar date (epoch ms), or null when `day` is not one.
 * @param {string} day
 * @returns {number | null}
 */
export function validDay(day) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const midnight = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== day ? null : midnight;
}

/**
 * The first instant of `day` in `zone` (epoch ms), or null when `day` is not a `YYYY-MM-DD` date. Usually
 * local midnight; where a daylight-saving change skips midnight (America/Santiago, America/Havana) the day
 * starts at the change.
 * @param {string} day
 * @param {string} zone
 * @returns {number | null}
 */
export function dayStartInZone(day, zone) {
  const midnight = validDay(day);
  if (midnight === null) return null;
  const candidates = instantsAt(midnight, zone);
  return candidates.find((ms) => dayInZone(ms, zone) === day) ?? candidates[1];
}
