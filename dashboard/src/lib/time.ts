// Times and calendar days in one time zone: the Business's (its profile's `time_zone`) when set, else the
// browser's, so every member reads the same dates wherever they sit (lib/time-zone.tsx picks the zone).
// The day arithmetic is the one the API uses (the workspace package packages/time-zone, re-exported here), so a
// day on the Home chart, a day typed in a filter and a day the API counts mean the same instants. The dashboard
// imports nothing from the service's src/ (the layer rules check it: npm run layers).
// Pure code without the DOM: the root test suite runs it (test/unit/dashboard-time.test.ts).
import { instantsAt, validDay, wallClockMs } from "@payout-orchestration/time-zone";

export { addDays, dayInZone, dayStartInZone, isTimeZone } from "@payout-orchestration/time-zone";

/** The browser's own time zone (IANA name). */
export function browserTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
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
  return candidates.find((ms) => wallClockMs(ms, zone) === wall) ?? candidates[1];
}
