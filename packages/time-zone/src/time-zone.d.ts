// The types of time-zone.js, for the TypeScript that imports it. The JavaScript's JSDoc states the same types, and
// `npm run typecheck` checks the JavaScript against its JSDoc: a change of signature changes both files.

/** Whether the runtime knows `zone` as a time zone (a stored name from a newer database may be unknown to it). */
export function isTimeZone(zone: string): boolean;

/** The zone's wall clock at `ms` (to the second), read as if it were UTC, as an epoch. */
export function wallClockMs(ms: number, zone: string): number;

/** The instants whose wall clock in `zone` reads `wall` (a UTC-encoded wall time), earliest first. */
export function instantsAt(wall: number, zone: string): [number, number];

/** The day (`YYYY-MM-DD`) the instant `ms` falls on in `zone`. */
export function dayInZone(ms: number, zone: string): string;

/** `day` moved by `count` calendar days. */
export function addDays(day: string, count: number): string;

/** UTC midnight of a `YYYY-MM-DD` calendar date (epoch ms), or null when `day` is not one. */
export function validDay(day: string): number | null;

/**
 * The first instant of `day` in `zone` (epoch ms), or null when `day` is not a `YYYY-MM-DD` date. Usually
 * local midnight; where a daylight-saving change skips midnight (America/Santiago, America/Havana) the day
 * starts at the change.
 */
export function dayStartInZone(day: string, zone: string): number | null;
