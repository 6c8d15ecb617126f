// Cut-off times are wall-clock times in the Business's time zone: the next one after an instant, and the
// calendar date an instant falls on there. Pure (Intl only, through the shared time-zone module), so
// daylight-saving changes are the runtime's.
import { dayInZone, wallClockMs } from "../../platform/time-zone.js";

/** Offset of the zone from UTC at `instant`, in milliseconds. */
function offsetMs(instant: Date, timeZone: string): number {
  return wallClockMs(instant.getTime(), timeZone) - (instant.getTime() - instant.getUTCMilliseconds());
}

/** The instant a wall-clock time of a calendar day is in the zone (a time skipped by a DST jump moves forward). */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [hh, mm] = time.split(":").map(Number) as [number, number];
  const guess = Date.UTC(y, m - 1, d, hh, mm);
  const first = guess - offsetMs(new Date(guess), timeZone);
  return new Date(guess - offsetMs(new Date(first), timeZone));
}

/** The calendar date (YYYY-MM-DD) of `instant` in the zone. */
export function localDateOf(instant: Date, timeZone: string): string {
  return dayInZone(instant.getTime(), timeZone);
}

/** The first cut-off strictly after `after`. */
export function nextCutoff(after: Date, cutoffTimes: readonly string[], timeZone: string): Date {
  const today = localDateOf(after, timeZone);
  let best: Date | null = null;
  for (let offset = 0; offset <= 2; offset++) {
    const day = new Date(Date.parse(`${today}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    for (const time of cutoffTimes) {
      const at = zonedInstant(day, time, timeZone);
      if (at.getTime() > after.getTime() && (best === null || at.getTime() < best.getTime())) best = at;
    }
    if (best !== null) return best;
  }
  throw new Error("no cut-off time configured");
}
