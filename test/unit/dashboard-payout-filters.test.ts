// The dashboard's payouts filters (dashboard/src/lib/payout-filters.ts): the URL holds the API's values, the
// form shows days of the dashboard's zone (the Business's) and currency units, and applying the form keeps the
// page's other parameters.
import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  applyDraft,
  dayEnd,
  dayOf,
  dayStart,
  draftFromParams,
  type FilterDraft,
  filterQueryFromParams,
  lastDayBefore,
} from "../../dashboard/src/lib/payout-filters.js";

const empty: FilterDraft = {
  channel: "",
  currency: "",
  createdFrom: "",
  createdTo: "",
  updatedFrom: "",
  updatedTo: "",
  amountMin: "",
  amountMax: "",
};

const NY = "America/New_York";

describe("days of the dashboard's zone", () => {
  it("a day starts at the zone's midnight and a range's end is the next midnight there", () => {
    expect(dayStart("2026-05-27", NY)).toBe("2026-05-27T04:00:00.000Z");
    expect(dayEnd("2026-05-27", NY)).toBe("2026-05-28T04:00:00.000Z");
    expect(dayStart("2026-05-27", "Europe/Berlin")).toBe("2026-05-26T22:00:00.000Z");
    expect(dayOf("2026-05-27T04:00:00.000Z", NY)).toBe("2026-05-27");
    expect(dayOf("2026-05-27T03:59:59.999Z", NY)).toBe("2026-05-26");
    expect(lastDayBefore("2026-05-28T04:00:00.000Z", NY)).toBe("2026-05-27");
    expect(dayStart("27/05/2026", NY)).toBeNull();
    expect(dayEnd("2026-13-01", NY)).toBeNull();
    expect(dayOf("nonsense", NY)).toBe("");
  });

  it("a day that changes the clocks ends 23 or 25 hours after it starts", () => {
    // New York springs forward on 8 March 2026 and falls back on 1 November 2026.
    expect(dayStart("2026-03-08", NY)).toBe("2026-03-08T05:00:00.000Z");
    expect(dayEnd("2026-03-08", NY)).toBe("2026-03-09T04:00:00.000Z");
    expect(dayEnd("2026-11-01", NY)).toBe("2026-11-02T05:00:00.000Z");
    expect(lastDayBefore(dayEnd("2026-11-01", NY), NY)).toBe("2026-11-01");
  });
});

describe("applyDraft and draftFromParams", () => {
  it("writes API values to the URL, keeps other parameters, and reads them back as the form showed them", () => {
    const current = new URLSearchParams("status=failed&amount_min=1");
    const result = applyDraft(
      current,
      {
        ...empty,
        channel: "csv",
        currency: "jpy",
        createdFrom: "2026-05-01",
        createdTo: "2026-05-31",
        amountMin: "1,000",
        amountMax: "5000",
      },
      NY,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const params = result.params;
    expect(params.get("status")).toBe("failed");
    expect(params.get("currency")).toBe("JPY");
    expect(params.get("amount_min")).toBe("1000");
    expect(params.get("amount_max")).toBe("5000");
    // "Created from the 1st to the 31st" is New York's 1st to 31st, whatever zone the browser is in.
    expect(params.get("created_from")).toBe("2026-05-01T04:00:00.000Z");
    expect(params.get("created_to")).toBe("2026-06-01T04:00:00.000Z");
    expect(params.has("updated_from")).toBe(false);
    expect(activeFilterCount(params)).toBe(6);
    expect(draftFromParams(params, NY)).toEqual({
      ...empty,
      channel: "csv",
      currency: "JPY",
      createdFrom: "2026-05-01",
      createdTo: "2026-05-31",
      amountMin: "1000",
      amountMax: "5000",
    });
    expect(filterQueryFromParams(params)).toMatchObject({ channel: "csv", currency: "JPY", amount_min: 1000, amount_max: 5000 });
  });

  it("converts amounts by the currency's exponent", () => {
    const result = applyDraft(new URLSearchParams(), { ...empty, currency: "EUR", amountMin: "12.5" }, NY);
    expect(result.ok && result.params.get("amount_min")).toBe("1250");
    const kwd = applyDraft(new URLSearchParams(), { ...empty, currency: "KWD", amountMax: "1.234" }, NY);
    expect(kwd.ok && kwd.params.get("amount_max")).toBe("1234");
  });

  it("refuses amounts without a currency or with too many decimals, beside the field", () => {
    expect(applyDraft(new URLSearchParams(), { ...empty, amountMin: "10" }, NY)).toEqual({
      ok: false,
      errors: { amountMin: "Choose a currency to filter by amount" },
    });
    const jpy = applyDraft(new URLSearchParams(), { ...empty, currency: "JPY", amountMax: "1.5" }, NY);
    expect(jpy).toEqual({ ok: false, errors: { amountMax: "JPY has no decimals" } });
    expect(applyDraft(new URLSearchParams(), { ...empty, currency: "EURO" }, NY)).toMatchObject({
      ok: false,
      errors: { currency: expect.any(String) },
    });
  });

  it("clearing the form removes every extra filter", () => {
    const result = applyDraft(new URLSearchParams("channel=api&currency=EUR&amount_min=5&status=approved"), empty, NY);
    expect(result.ok && result.params.toString()).toBe("status=approved");
  });

  it("passes only integer amounts and known channels from a hand-edited URL", () => {
    expect(filterQueryFromParams(new URLSearchParams("channel=fax&amount_min=1.5&amount_max=20"))).toEqual({ amount_max: 20 });
  });
});
