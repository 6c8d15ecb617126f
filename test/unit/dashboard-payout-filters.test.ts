// The dashboard's payouts filters (dashboard/src/lib/payout-filters.ts): the URL holds the API's values, the
// form shows local days and currency units, and applying the form keeps the page's other parameters.
import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  applyDraft,
  draftFromParams,
  type FilterDraft,
  filterQueryFromParams,
  localDayEnd,
  localDayOf,
  localDayStart,
  localLastDayBefore,
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

describe("local days", () => {
  it("a day starts at local midnight and a range's end is the next local midnight", () => {
    const start = localDayStart("2026-05-27");
    expect(start).not.toBeNull();
    expect(new Date(start as string).getHours()).toBe(0);
    expect(new Date(start as string).getDate()).toBe(27);
    const end = localDayEnd("2026-05-27") as string;
    expect(new Date(end).getDate()).toBe(28);
    expect(localDayOf(start)).toBe("2026-05-27");
    expect(localLastDayBefore(end)).toBe("2026-05-27");
    expect(localDayStart("27/05/2026")).toBeNull();
    expect(localDayOf("nonsense")).toBe("");
  });
});

describe("applyDraft and draftFromParams", () => {
  it("writes API values to the URL, keeps other parameters, and reads them back as the form showed them", () => {
    const current = new URLSearchParams("status=failed&amount_min=1");
    const result = applyDraft(current, {
      ...empty,
      channel: "csv",
      currency: "jpy",
      createdFrom: "2026-05-01",
      createdTo: "2026-05-31",
      amountMin: "1,000",
      amountMax: "5000",
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const params = result.params;
    expect(params.get("status")).toBe("failed");
    expect(params.get("currency")).toBe("JPY");
    expect(params.get("amount_min")).toBe("1000");
    expect(params.get("amount_max")).toBe("5000");
    expect(params.get("created_from")).toBe(localDayStart("2026-05-01"));
    expect(params.get("created_to")).toBe(localDayEnd("2026-05-31"));
    expect(params.has("updated_from")).toBe(false);
    expect(activeFilterCount(params)).toBe(6);
    expect(draftFromParams(params)).toEqual({
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
    const result = applyDraft(new URLSearchParams(), { ...empty, currency: "EUR", amountMin: "12.5" });
    expect(result.ok && result.params.get("amount_min")).toBe("1250");
    const kwd = applyDraft(new URLSearchParams(), { ...empty, currency: "KWD", amountMax: "1.234" });
    expect(kwd.ok && kwd.params.get("amount_max")).toBe("1234");
  });

  it("refuses amounts without a currency or with too many decimals, beside the field", () => {
    expect(applyDraft(new URLSearchParams(), { ...empty, amountMin: "10" })).toEqual({
      ok: false,
      errors: { amountMin: "Choose a currency to filter by amount" },
    });
    const jpy = applyDraft(new URLSearchParams(), { ...empty, currency: "JPY", amountMax: "1.5" });
    expect(jpy).toEqual({ ok: false, errors: { amountMax: "JPY has no decimals" } });
    expect(applyDraft(new URLSearchParams(), { ...empty, currency: "EURO" })).toMatchObject({
      ok: false,
      errors: { currency: expect.any(String) },
    });
  });

  it("clearing the form removes every extra filter", () => {
    const result = applyDraft(new URLSearchParams("channel=api&currency=EUR&amount_min=5&status=approved"), empty);
    expect(result.ok && result.params.toString()).toBe("status=approved");
  });

  it("passes only integer amounts and known channels from a hand-edited URL", () => {
    expect(filterQueryFromParams(new URLSearchParams("channel=fax&amount_min=1.5&amount_max=20"))).toEqual({ amount_max: 20 });
  });
});
