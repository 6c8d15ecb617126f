// The API's and the dashboard's calendar days (src/platform/time-zone.ts) where daylight-saving changes make
// them awkward: a midnight the clocks skip, a midnight that happens twice, and dates that are not dates.
import { describe, expect, it } from "vitest";
import { addDays, dayInZone, dayStartInZone, isTimeZone, validDay } from "../../src/platform/time-zone.js";

describe("calendar days in a time zone", () => {
  it("starts a day whose midnight the clocks skip at the change (Beirut, 29 March 2026, 00:00 -> 01:00)", () => {
    const start = dayStartInZone("2026-03-29", "Asia/Beirut");
    expect(new Date(start ?? 0).toISOString()).toBe("2026-03-28T22:00:00.000Z");
    expect(dayInZone((start ?? 0) - 1, "Asia/Beirut")).toBe("2026-03-28");
  });

  it("starts a day whose midnight happens twice at the first one (Havana, 1 November 2026, 01:00 -> 00:00)", () => {
    const start = dayStartInZone("2026-11-01", "America/Havana");
    expect(new Date(start ?? 0).toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(dayInZone((start ?? 0) - 1, "America/Havana")).toBe("2026-10-31");
  });

  it("gives a plain day's local midnight, and the next day 24 hours later", () => {
    expect(new Date(dayStartInZone("2026-05-27", "Asia/Tokyo") ?? 0).toISOString()).toBe("2026-05-26T15:00:00.000Z");
    expect(dayStartInZone(addDays("2026-05-27", 1), "Asia/Tokyo")).toBe(
      (dayStartInZone("2026-05-27", "Asia/Tokyo") ?? 0) + 86_400_000,
    );
  });

  it("refuses what is not a YYYY-MM-DD calendar date", () => {
    for (const day of ["2026-5-27", "2026-02-30", " 2026-05-27", "2026-05-27x", "x2026-05-27", "27/05/2026"]) {
      expect(validDay(day), day).toBeNull();
      expect(dayStartInZone(day, "UTC"), day).toBeNull();
    }
    expect(validDay("2026-05-27")).toBe(Date.UTC(2026, 4, 27));
  });

  it("knows IANA zone names and nothing else", () => {
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});
