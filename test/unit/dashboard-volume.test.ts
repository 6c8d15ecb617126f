// The Home chart's data: the volume answer as one series per currency covering every day of the window.
import { describe, expect, it } from "vitest";
import { datesBetween, formatDay, volumeSeries } from "../../dashboard/src/lib/volume.js";

describe("dashboard volume series", () => {
  it("lists every UTC day of the window, both ends included, across a month end", () => {
    expect(datesBetween("2026-05-30", "2026-06-02")).toEqual(["2026-05-30", "2026-05-31", "2026-06-01", "2026-06-02"]);
    expect(datesBetween("2026-06-02", "2026-06-02")).toEqual(["2026-06-02"]);
  });

  it("makes one series per currency, alphabetical, with empty days at zero and its total, count and highest day", () => {
    const series = volumeSeries({
      since: "2026-06-01",
      until: "2026-06-03",
      days: [
        { date: "2026-06-01", currency: "USD", count: 1, amount_minor: 500 },
        { date: "2026-06-01", currency: "EUR", count: 2, amount_minor: 1_000 },
        { date: "2026-06-03", currency: "EUR", count: 1, amount_minor: 2_500 },
      ],
    });
    expect(series.map((s) => s.currency)).toEqual(["EUR", "USD"]);
    expect(series[0]).toEqual({
      currency: "EUR",
      days: [
        { date: "2026-06-01", count: 2, amountMinor: 1_000 },
        { date: "2026-06-02", count: 0, amountMinor: 0 },
        { date: "2026-06-03", count: 1, amountMinor: 2_500 },
      ],
      totalMinor: 3_500,
      totalCount: 3,
      maxMinor: 2_500,
    });
    expect(series[1]?.days.map((d) => d.amountMinor)).toEqual([500, 0, 0]);
    expect(volumeSeries({ since: "2026-06-01", until: "2026-06-03", days: [] })).toEqual([]);
  });

  it("names a day in UTC whatever the zone", () => {
    expect(formatDay("2026-06-01", "en-GB")).toBe("1 Jun");
  });
});
