import { describe, expect, it } from "vitest";
import { currencyExponent, isCountryCode, isCurrencyCode } from "../../../src/modules/destinations/validation/countries.js";

describe("isCountryCode", () => {
  it.each([
    ["DE", true],
    ["GB", true],
    ["XK", true], // Kosovo: user-assigned, but in the table and in IBAN use
    ["BR", true],
    ["de", false], // callers normalise; stored codes have one spelling
    ["DEU", false], // alpha-3 is valid in the library but not a stored code
    ["276", false], // numeric likewise
    ["UK", false], // the UK's ISO code is GB
    ["ZZ", false],
    ["", false],
  ])("%s -> %s", (code, expected) => {
    expect(isCountryCode(code)).toBe(expected);
  });
});

describe("isCurrencyCode", () => {
  it.each([
    ["USD", true],
    ["EUR", true],
    ["XOF", true], // a real currency despite the X
    ["VES", true],
    ["usd", false],
    ["US", false],
    ["ABC", false],
    ["XAU", false], // gold
    ["XTS", false], // testing code
    ["XXX", false], // no currency
  ])("%s -> %s", (code, expected) => {
    expect(isCurrencyCode(code)).toBe(expected);
  });
});

describe("currencyExponent", () => {
  it.each([
    ["JPY", 0],
    ["KRW", 0],
    ["USD", 2],
    ["EUR", 2],
    ["BHD", 3],
    ["KWD", 3],
    ["CLF", 4],
    ["usd", null],
    ["XXX", null],
    ["ABC", null],
  ])("%s -> %s", (code, expected) => {
    expect(currencyExponent(code)).toBe(expected);
  });
});
