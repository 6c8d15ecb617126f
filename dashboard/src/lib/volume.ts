// The payout volume answer (GET /v1/payouts/volume: days with payouts, per currency, in the time zone asked
// for) as one series per currency with every day of the window, empty days at zero, for the Home chart and its
// table. Days are calendar dates (`YYYY-MM-DD`) already cut in that zone, so they are counted and named here
// without any zone.
// Pure code without the DOM: the root test suite runs it (test/unit/dashboard-volume.test.ts).

export interface VolumeAnswer {
  readonly since: string;
  readonly until: string;
  readonly time_zone?: string;
  readonly days: readonly { date: string; currency: string; count: number; amount_minor: number }[];
}

export interface VolumeDay {
  readonly date: string;
  readonly count: number;
  readonly amountMinor: number;
}

export interface VolumeSeries {
  readonly currency: string;
  readonly days: readonly VolumeDay[];
  readonly totalMinor: number;
  readonly totalCount: number;
  readonly maxMinor: number;
}

const DAY_MS = 24 * 3600 * 1000;

/** Every calendar date from `since` to `until`, both included (`YYYY-MM-DD`). */
export function datesBetween(since: string, until: string): string[] {
  const start = Date.parse(`${since}T00:00:00Z`);
  const end = Date.parse(`${until}T00:00:00Z`);
  const dates: string[] = [];
  for (let t = start; t <= end && dates.length < 400; t += DAY_MS) dates.push(new Date(t).toISOString().slice(0, 10));
  return dates;
}

/** One series per currency (alphabetical), each with every day of the window. */
export function volumeSeries(answer: VolumeAnswer): VolumeSeries[] {
  const dates = datesBetween(answer.since, answer.until);
  const currencies = [...new Set(answer.days.map((d) => d.currency))].sort();
  return currencies.map((currency) => {
    const byDate = new Map(answer.days.filter((d) => d.currency === currency).map((d) => [d.date, d]));
    const days = dates.map((date) => {
      const found = byDate.get(date);
      return { date, count: found?.count ?? 0, amountMinor: found?.amount_minor ?? 0 };
    });
    return {
      currency,
      days,
      totalMinor: days.reduce((sum, d) => sum + d.amountMinor, 0),
      totalCount: days.reduce((sum, d) => sum + d.count, 0),
      maxMinor: days.reduce((max, d) => Math.max(max, d.amountMinor), 0),
    };
  });
}

/** `2026-05-27` -> `27 May` in the person's locale (a calendar date: formatted in UTC, so no zone moves it). */
export function formatDay(date: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00Z`),
  );
}
