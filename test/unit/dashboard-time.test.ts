// The dashboard's times and days in one time zone (dashboard/src/lib/time.ts): the Business's zone, whatever
// zone this process runs in. Days across daylight-saving changes and day boundaries.
import { describe, expect, it } from "vitest";
import {
  addDays,
  dayInZone,
  dayStartInZone,
  formatTime,
  isTimeZone,
  utcTitle,
  wallTimeInZone,
} from "../../dashboard/src/lib/time.js";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe("formatTime", () => {
  it("shows the instant on the zone's clock with the zone's short name", () => {
    expect(formatTime("2026-05-27T12:00:00Z", "America/New_York", "en-US")).toBe("May 27, 2026, 8:00 AM EDT");
    expect(formatTime("2026-05-27T12:00:00Z", "Europe/Berlin", "en-GB")).toBe("27 May 2026, 14:00 CEST");
    // Winter: the other offset and name.
    expect(formatTime("2026-01-15T12:00:00Z", "America/New_York", "en-US")).toBe("Jan 15, 2026, 7:00 AM EST");
  });

  it("names the zone's day, not UTC's, near midnight", () => {
    // 03:30 UTC on the 3rd is still the 2nd in New York, already the 3rd in Tokyo.
    expect(formatTime("2026-06-03T03:30:00Z", "America/New_York", "en-US")).toBe("Jun 2, 2026, 11:30 PM EDT");
    expect(formatTime("2026-06-03T03:30:00Z", "Asia/Tokyo", "en-US")).toBe("Jun 3, 2026, 12:30 PM GMT+9");
  });

  it("leaves what is not a time as it is, and gives the exact UTC value for the tooltip", () => {
    expect(formatTime("soon", "UTC")).toBe("soon");
    expect(utcTitle("2026-05-27T12:00:00.123Z")).toBe("2026-05-27 12:00:00 UTC");
  });

  it("knows the runtime's zones only", () => {
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});

describe("days in a zone", () => {
  it("puts an instant on the zone's day", () => {
    expect(dayInZone(at("2026-06-03T03:30:00Z"), "America/New_York")).toBe("2026-06-02");
    expect(dayInZone(at("2026-06-03T03:30:00Z"), "UTC")).toBe("2026-06-03");
    expect(dayInZone(at("2026-06-02T22:30:00Z"), "Europe/Berlin")).toBe("2026-06-03");
    expect(dayInZone(at("2026-06-02T21:59:59.999Z"), "Europe/Berlin")).toBe("2026-06-02");
  });

  it("starts a day at the zone's midnight, whatever the offset that day", () => {
    expect(iso(dayStartInZone("2026-06-03", "America/New_York"))).toBe("2026-06-03T04:00:00.000Z");
    expect(iso(dayStartInZone("2026-01-03", "America/New_York"))).toBe("2026-01-03T05:00:00.000Z");
    expect(iso(dayStartInZone("2026-06-03", "Asia/Kolkata"))).toBe("2026-06-02T18:30:00.000Z");
  });

  it("spans 23 hours on a spring-forward day and 25 on a fall-back day", () => {
    const hours = (day: string, zone: string) =>
      ((dayStartInZone(addDays(day, 1), zone) ?? 0) - (dayStartInZone(day, zone) ?? 0)) / 3_600_000;
    // Europe/Berlin: 29 March 2026 and 25 October 2026; America/New_York: 8 March and 1 November 2026.
    expect(iso(dayStartInZone("2026-03-29", "Europe/Berlin"))).toBe("2026-03-28T23:00:00.000Z");
    expect(iso(dayStartInZone("2026-03-30", "Europe/Berlin"))).toBe("2026-03-29T22:00:00.000Z");
    expect(hours("2026-03-29", "Europe/Berlin")).toBe(23);
    expect(hours("2026-10-25", "Europe/Berlin")).toBe(25);
    expect(hours("2026-03-08", "America/New_York")).toBe(23);
    expect(hours("2026-11-01", "America/New_York")).toBe(25);
    expect(hours("2026-06-03", "America/New_York")).toBe(24);
    // The hour the clocks skip or repeat is on the right day.
    expect(dayInZone(at("2026-03-08T07:30:00Z"), "America/New_York")).toBe("2026-03-08");
    expect(dayInZone(at("2026-11-01T05:30:00Z"), "America/New_York")).toBe("2026-11-01");
    expect(dayInZone(at("2026-11-01T06:30:00Z"), "America/New_York")).toBe("2026-11-01");
  });

  it("starts a day whose midnight the clocks skip at the change", () => {
    // America/Santiago moves from -04 to -03 at midnight on 6 September 2026: the day starts at 01:00 (04:00 UTC).
    const start = dayStartInZone("2026-09-06", "America/Santiago");
    expect(iso(start)).toBe("2026-09-06T04:00:00.000Z");
    expect(dayInZone((start ?? 0) - 1, "America/Santiago")).toBe("2026-09-05");
  });

  it("moves by calendar days across month and year ends, and refuses what is not a date", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(dayStartInZone("2026-02-30", "UTC")).toBeNull();
    expect(dayStartInZone("27/05/2026", "UTC")).toBeNull();
  });

  it("reads a typed date and time on the zone's clock", () => {
    expect(iso(wallTimeInZone("2026-06-03T09:15", "America/New_York"))).toBe("2026-06-03T13:15:00.000Z");
    expect(iso(wallTimeInZone("2026-01-03T09:15", "America/New_York"))).toBe("2026-01-03T14:15:00.000Z");
    expect(iso(wallTimeInZone("2026-06-03T00:00:30", "Europe/Berlin"))).toBe("2026-06-02T22:00:30.000Z");
    // 02:30 does not exist in New York on 8 March 2026: read with the offset before the change (EST).
    expect(iso(wallTimeInZone("2026-03-08T02:30", "America/New_York"))).toBe("2026-03-08T07:30:00.000Z");
    // 01:30 happens twice on 1 November 2026: the first one (EDT).
    expect(iso(wallTimeInZone("2026-11-01T01:30", "America/New_York"))).toBe("2026-11-01T05:30:00.000Z");
    expect(wallTimeInZone("2026-06-03T24:00", "UTC")).toBeNull();
    expect(wallTimeInZone("", "UTC")).toBeNull();
  });
});
