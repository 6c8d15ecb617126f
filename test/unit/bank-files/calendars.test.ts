import { describe, expect, it } from "vitest";
import {
  addCalendarDays,
  easterSunday,
  federalReserveBusinessDayOnOrAfter,
  federalReserveHolidays,
  isFederalReserveBusinessDay,
  isTarget2BusinessDay,
  nextFederalReserveBusinessDay,
  nextTarget2BusinessDay,
  target2BusinessDayOnOrAfter,
  target2ClosingDays,
  weekdayOf,
} from "../../../src/rails/bank-files/calendars.js";

describe("Easter and the TARGET2 calendar", () => {
  it("derives Easter Sunday for years whose date is published", () => {
    // Western Easter, as published (including the earliest and latest possible dates).
    expect(easterSunday(2024)).toBe("2024-03-31");
    expect(easterSunday(2025)).toBe("2025-04-20");
    expect(easterSunday(2026)).toBe("2026-04-05");
    expect(easterSunday(2027)).toBe("2027-03-28");
    expect(easterSunday(2038)).toBe("2038-04-25");
    expect(easterSunday(2285)).toBe("2285-03-22");
    expect(easterSunday(2000)).toBe("2000-04-23");
    expect(easterSunday(2019)).toBe("2019-04-21");
  });

  it("closes on the six TARGET2 holidays of a year", () => {
    expect(target2ClosingDays(2026)).toEqual([
      "2026-01-01",
      "2026-04-03",
      "2026-04-06",
      "2026-05-01",
      "2026-12-25",
      "2026-12-26",
    ]);
    expect(target2ClosingDays(2027)).toEqual([
      "2027-01-01",
      "2027-03-26",
      "2027-03-29",
      "2027-05-01",
      "2027-12-25",
      "2027-12-26",
    ]);
  });

  it("counts weekdays outside those holidays as business days", () => {
    expect(isTarget2BusinessDay("2026-04-02")).toBe(true); // Maundy Thursday: open
    expect(isTarget2BusinessDay("2026-04-03")).toBe(false); // Good Friday
    expect(isTarget2BusinessDay("2026-04-06")).toBe(false); // Easter Monday
    expect(isTarget2BusinessDay("2026-12-24")).toBe(true);
    expect(isTarget2BusinessDay("2026-11-28")).toBe(false); // Saturday
    expect(isTarget2BusinessDay("2026-10-03")).toBe(false); // a Saturday that is a German holiday, closed as a weekend
    expect(isTarget2BusinessDay("2026-10-05")).toBe(true);
  });

  it("moves an execution date past the Easter weekend and Christmas", () => {
    expect(target2BusinessDayOnOrAfter("2026-04-03")).toBe("2026-04-07");
    expect(nextTarget2BusinessDay("2026-04-02")).toBe("2026-04-07");
    expect(nextTarget2BusinessDay("2026-12-24")).toBe("2026-12-28");
    expect(nextTarget2BusinessDay("2026-12-31")).toBe("2027-01-04");
    expect(target2BusinessDayOnOrAfter("2026-11-25")).toBe("2026-11-25");
  });
});

describe("the Federal Reserve calendar", () => {
  it("keeps a Saturday holiday on the Saturday: the Friday before is a business day", () => {
    // Independence Day 2026 is a Saturday; the federal government observes it on Friday 3 July, the Fed does not.
    expect(federalReserveHolidays(2026)).toContain("2026-07-04");
    expect(federalReserveHolidays(2026)).not.toContain("2026-07-03");
    expect(isFederalReserveBusinessDay("2026-07-03")).toBe(true);
    expect(isFederalReserveBusinessDay("2027-12-24")).toBe(true); // Christmas 2027 is a Saturday
  });

  it("observes a Sunday holiday on the Monday", () => {
    expect(isFederalReserveBusinessDay("2027-07-05")).toBe(false); // 4 July 2027 is a Sunday
    expect(isFederalReserveBusinessDay("2027-07-06")).toBe(true);
  });

  it("closes on Thanksgiving, Juneteenth, Columbus Day and weekends", () => {
    expect(isFederalReserveBusinessDay("2026-11-26")).toBe(false);
    expect(isFederalReserveBusinessDay("2026-06-19")).toBe(false);
    expect(isFederalReserveBusinessDay("2026-10-12")).toBe(false);
    expect(isFederalReserveBusinessDay("2026-11-29")).toBe(false);
    expect(isFederalReserveBusinessDay("2026-11-27")).toBe(true);
  });

  it("finds the next effective entry date", () => {
    expect(nextFederalReserveBusinessDay("2026-11-25")).toBe("2026-11-27");
    expect(nextFederalReserveBusinessDay("2026-11-27")).toBe("2026-11-30");
    expect(nextFederalReserveBusinessDay("2026-12-24")).toBe("2026-12-28");
    expect(federalReserveBusinessDayOnOrAfter("2027-07-03")).toBe("2027-07-06");
  });
});

describe("calendar dates", () => {
  it("adds days across months and years and knows the weekday", () => {
    expect(addCalendarDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addCalendarDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(weekdayOf("2026-11-24")).toBe(2);
    expect(weekdayOf("1970-01-01")).toBe(4);
  });

  it("refuses what is not a calendar date", () => {
    expect(() => isTarget2BusinessDay("2026-02-30")).toThrow(RangeError);
    expect(() => isFederalReserveBusinessDay("20261124")).toThrow(RangeError);
  });
});
