// The dashboard's money helpers (dashboard/src/lib/money.ts): minor units shown by the currency's ISO 4217
// exponent without a float in between, and amounts typed by a person turned into minor units.
import { describe, expect, it } from "vitest";
import { currencyExponent, formatMoney, minorToDecimal, parseMoneyInput } from "../../dashboard/src/lib/money.js";

describe("minorToDecimal", () => {
  it("places the decimal point by the currency's exponent", () => {
    expect(minorToDecimal(123456, "EUR")).toBe("1234.56");
    expect(minorToDecimal(5, "EUR")).toBe("0.05");
    expect(minorToDecimal(123456, "JPY")).toBe("123456");
    expect(minorToDecimal(7, "KWD")).toBe("0.007");
    expect(minorToDecimal(-250, "usd")).toBe("-2.50");
    expect(minorToDecimal(0, "CLF")).toBe("0.0000");
  });

  it("is exact for the largest safe integer (a float would round it)", () => {
    expect(minorToDecimal(Number.MAX_SAFE_INTEGER, "EUR")).toBe("90071992547409.91");
  });
});

/** Intl separates with no-break spaces; compare them as plain spaces. */
const plain = (text: string) => text.replace(/\s/g, " ");

describe("formatMoney", () => {
  it("formats with the currency's symbol and exactly its number of decimals", () => {
    expect(formatMoney(125000, "EUR", "en-GB")).toBe("€1,250.00");
    expect(formatMoney(125000, "JPY", "en-US")).toBe("¥125,000");
    expect(plain(formatMoney(1234, "BHD", "en-US"))).toBe("BHD 1.234");
    expect(plain(formatMoney(125000, "EUR", "de-DE"))).toBe("1.250,00 €");
  });

  it("shows the last cent of very large amounts", () => {
    expect(formatMoney(Number.MAX_SAFE_INTEGER, "USD", "en-US")).toBe("$90,071,992,547,409.91");
  });

  it("falls back to the code for a currency Intl does not know", () => {
    expect(formatMoney(1050, "X1Z", "en-US")).toBe("10.50 X1Z");
  });
});

describe("parseMoneyInput", () => {
  it("turns what a person types into minor units", () => {
    expect(parseMoneyInput("1250", "EUR")).toEqual({ ok: true, amountMinor: 125000 });
    expect(parseMoneyInput(" 1,250.5 ", "EUR")).toEqual({ ok: true, amountMinor: 125050 });
    expect(parseMoneyInput("0.01", "EUR")).toEqual({ ok: true, amountMinor: 1 });
    expect(parseMoneyInput("500", "JPY")).toEqual({ ok: true, amountMinor: 500 });
    expect(parseMoneyInput("1.234", "KWD")).toEqual({ ok: true, amountMinor: 1234 });
  });

  it("refuses more decimals than the currency has, signs, zero, words and unsafe amounts", () => {
    expect(parseMoneyInput("1.234", "EUR")).toMatchObject({ ok: false, message: "EUR has at most 2 decimals" });
    expect(parseMoneyInput("1.5", "JPY")).toMatchObject({ ok: false, message: "JPY has no decimals" });
    expect(parseMoneyInput("-5", "EUR").ok).toBe(false);
    expect(parseMoneyInput("0", "EUR")).toMatchObject({ ok: false, message: "The amount must be more than zero" });
    expect(parseMoneyInput("1e5", "EUR").ok).toBe(false);
    expect(parseMoneyInput("", "EUR").ok).toBe(false);
    expect(parseMoneyInput("90071992547409.92", "EUR")).toMatchObject({ ok: false, message: "The amount is too large" });
  });

  it("knows the exponents that are not 2", () => {
    expect([currencyExponent("JPY"), currencyExponent("KWD"), currencyExponent("CLF"), currencyExponent("EUR")]).toEqual([
      0, 3, 4, 2,
    ]);
  });
});
