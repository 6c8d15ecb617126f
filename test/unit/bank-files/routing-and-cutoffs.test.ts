import { describe, expect, it } from "vitest";
import { fileBaseDate, localDateOf, nextCutoff, zonedInstant } from "../../../src/modules/bank-rails/bank-rails.cutoff.js";
import { routePayout } from "../../../src/modules/bank-rails/bank-rails.routing.js";

const SEPA_IBAN = { kind: "bank_account", scheme: "iban", country: "FR", sepaZone: true } as const;
const US_ACCOUNT = { kind: "bank_account", scheme: "us_aba", country: "US", sepaZone: false } as const;
const BR_IBAN = { kind: "bank_account", scheme: "iban", country: "BR", sepaZone: false } as const;

describe("routing of production payouts", () => {
  it("keeps the simulator while the Business has no bank rail", () => {
    expect(routePayout("EUR", SEPA_IBAN, new Set())).toEqual({ rail: "simulator" });
    expect(routePayout("MXN", US_ACCOUNT, new Set())).toEqual({ rail: "simulator" });
  });

  it("sends EUR to a SEPA IBAN by SEPA and USD to a US account by ACH, when configured", () => {
    expect(routePayout("EUR", SEPA_IBAN, new Set(["sepa"]))).toEqual({ rail: "sepa" });
    expect(routePayout("USD", US_ACCOUNT, new Set(["ach"]))).toEqual({ rail: "ach" });
    expect(routePayout("USD", US_ACCOUNT, new Set(["sepa", "ach"]))).toEqual({ rail: "ach" });
  });

  it("refuses what no configured rail carries, saying which rails there are", () => {
    const usdToIban = routePayout("USD", SEPA_IBAN, new Set(["sepa"]));
    expect(usdToIban).toMatchObject({ refused: true });
    expect("reason" in usdToIban ? usdToIban.reason : "").toContain("(sepa)");
    expect(routePayout("EUR", BR_IBAN, new Set(["sepa"]))).toMatchObject({ refused: true });
    expect(routePayout("EUR", SEPA_IBAN, new Set(["ach"]))).toMatchObject({ refused: true });
    expect(routePayout("USD", { ...US_ACCOUNT, kind: "card" }, new Set(["ach"]))).toMatchObject({ refused: true });
  });
});

describe("cut-off times in the rail's time zone", () => {
  it("finds the next cut-off, across days and daylight-saving changes", () => {
    expect(nextCutoff(new Date("2026-05-27T12:00:00Z"), ["09:30", "15:00"], "Europe/Berlin").toISOString()).toBe(
      "2026-05-27T13:00:00.000Z",
    );
    expect(nextCutoff(new Date("2026-05-27T13:00:00Z"), ["09:30", "15:00"], "Europe/Berlin").toISOString()).toBe(
      "2026-05-28T07:30:00.000Z",
    );
    expect(nextCutoff(new Date("2026-12-01T12:00:00Z"), ["15:00"], "Europe/Berlin").toISOString()).toBe(
      "2026-12-01T14:00:00.000Z",
    );
    expect(nextCutoff(new Date("2026-05-29T21:00:00Z"), ["16:00"], "America/New_York").toISOString()).toBe(
      "2026-05-30T20:00:00.000Z",
    );
    // 2026-03-08: New York springs forward; 16:00 is then UTC-4.
    expect(nextCutoff(new Date("2026-03-07T22:00:00Z"), ["16:00"], "America/New_York").toISOString()).toBe(
      "2026-03-08T20:00:00.000Z",
    );
  });

  it("gives the local calendar date of an instant and the instant of a local time", () => {
    expect(localDateOf(new Date("2026-05-27T23:30:00Z"), "Europe/Berlin")).toBe("2026-05-28");
    expect(localDateOf(new Date("2026-05-28T02:30:00Z"), "America/New_York")).toBe("2026-05-27");
    expect(zonedInstant("2026-07-28", "17:00", "America/New_York").toISOString()).toBe("2026-07-28T21:00:00.000Z");
    expect(zonedInstant("2026-01-15", "09:30", "Europe/Berlin").toISOString()).toBe("2026-01-15T08:30:00.000Z");
  });

  it("dates a file from its cut-off when on time, from the next cut-off after it is written when late", () => {
    const ny = (iso: string) => new Date(iso);
    const cutoff = ny("2026-12-23T21:00:00Z"); // 16:00 New York, 23 Dec
    // On time, and within the 15 minutes of an ordinary worker delay: the cut-off's own date.
    expect(fileBaseDate(cutoff, ny("2026-12-23T21:00:00Z"), ["16:00"], "America/New_York")).toBe("2026-12-23");
    expect(fileBaseDate(cutoff, ny("2026-12-23T21:15:00Z"), ["16:00"], "America/New_York")).toBe("2026-12-23");
    // Late: the next cut-off at or after the write (24 Dec 17:52 -> 25 Dec 16:00; 24 Dec 10:00 -> 24 Dec 16:00).
    expect(fileBaseDate(cutoff, ny("2026-12-24T22:52:00Z"), ["16:00"], "America/New_York")).toBe("2026-12-25");
    expect(fileBaseDate(cutoff, ny("2026-12-24T15:00:00Z"), ["16:00"], "America/New_York")).toBe("2026-12-24");
    expect(fileBaseDate(cutoff, ny("2026-12-23T21:30:00Z"), ["09:00", "16:00"], "America/New_York")).toBe("2026-12-24");
    // Never before the day it is written: a 23:55 cut-off written at 00:05 counts from the new day.
    expect(fileBaseDate(ny("2026-12-22T04:55:00Z"), ny("2026-12-22T05:05:00Z"), ["23:55"], "America/New_York")).toBe(
      "2026-12-22",
    );
  });
});
