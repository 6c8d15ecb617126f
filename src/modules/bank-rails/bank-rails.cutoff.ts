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

/**
 * A cut-off job that starts this long after its instant is late (the service was down, or the worker far
 * behind); before that, it is the worker's ordinary delay and the file keeps its cut-off's date.
 */
export const LATE_CUTOFF_AFTER_MS = 15 * 60_000;

/**
 * The local date a file's dates are counted from (SEPA's requested execution date is the first TARGET2 day on
 * or after it, ACH's effective date the first Federal Reserve day after it). On time, the cut-off's own date.
 * Written late, the file reaches the bank in the window of the next cut-off after it is written, so it is
 * dated as that cut-off's file: a file written on 24 December at 17:52 New York time for the 16:00 cut-off of
 * 23 December counts from 25 December (effective date Monday 28 December), never from a date already gone.
 */
export function fileBaseDate(cutoffAt: Date, writtenAt: Date, cutoffTimes: readonly string[], timeZone: string): string {
  const writtenOn = localDateOf(writtenAt, timeZone);
  const base =
    writtenAt.getTime() - cutoffAt.getTime() <= LATE_CUTOFF_AFTER_MS
      ? localDateOf(cutoffAt, timeZone)
      : // The first cut-off at or after the write (nextCutoff is strictly after its argument).
        localDateOf(nextCutoff(new Date(writtenAt.getTime() - 1), cutoffTimes, timeZone), timeZone);
  // Never before the day the file is written (a 23:55 cut-off written at 00:05 counts from the new day).
  return base < writtenOn ? writtenOn : base;
}
