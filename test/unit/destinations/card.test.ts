import { describe, expect, it } from "vitest";
import {
  CARD_FAILURE_CODES,
  type CardInput,
  type CardResult,
  detectCardNetwork,
  isLuhnValid,
  validateCard,
} from "../../../src/modules/destinations/validation/card.js";

// The tests pin "now"; the validator never reads the clock.
const NOW = new Date("2026-05-15T12:00:00Z");
const base = { expiry_month: 12, expiry_year: 2028, cardholder_name: "Ada Lovelace", country: "US", currency: "USD" };

function failureCodes(result: CardResult): string[] {
  return result.ok ? [] : result.failures.map((f) => `${f.field}:${f.code}`);
}

describe("Luhn", () => {
  it.each([
    "4242424242424242",
    "4111111111111111",
    "5555555555554444",
    "378282246310005",
    "6011111111111117",
    "4222222222222",
    "79927398713", // the textbook example
    "0",
  ])("accepts %s", (digits) => {
    expect(isLuhnValid(digits)).toBe(true);
  });

  it.each([
    "4242424242424241", // last digit changed
    "4242424242424252", // a doubled-position digit changed
    "2424424242424242", // two digits swapped
    "79927398710",
    "1",
  ])("refuses %s", (digits) => {
    expect(isLuhnValid(digits)).toBe(false);
  });
});

describe("network from the IIN", () => {
  it.each([
    ["4242424242424242", "visa"],
    ["4222222222222", "visa"],
    ["5105105105105100", "mastercard"],
    ["5555555555554444", "mastercard"],
    ["2221000000000009", "mastercard"],
    ["2223003122003222", "mastercard"],
    ["2720999999999996", "mastercard"],
    ["2220999999999997", "other"], // just below the 2-series range
    ["2721000000000004", "other"], // just above it
    ["5600000000000003", "other"], // Maestro, not Mastercard
    ["378282246310005", "amex"],
    ["371449635398431", "amex"],
    ["6011111111111117", "discover"],
    ["6445644564456445", "discover"],
    ["6500000000000002", "discover"],
    ["6221260000000000", "discover"],
    ["6229260000000000", "other"], // UnionPay beyond Discover's shared range
    ["3566002020360505", "other"], // JCB
    ["3056930009020004", "other"], // Diners Club International
  ])("%s is %s", (digits, network) => {
    expect(detectCardNetwork(digits)).toBe(network);
  });
});

describe("validateCard: accepted cards", () => {
  it.each([
    ["visa with spaces", "4242 4242 4242 4242", "visa", "4242"],
    ["visa with dashes", "4111-1111-1111-1111", "visa", "1111"],
    ["13-digit visa", "4222222222222", "visa", "2222"],
    ["mastercard 2-series", "2223003122003222", "mastercard", "3222"],
    ["amex", "3782 822463 10005", "amex", "0005"],
    ["discover", "6011000990139424", "discover", "9424"],
    ["JCB", "3566002020360505", "other", "0505"],
  ])("%s", (_label, number, network, last4) => {
    const result = validateCard({ ...base, card_number: number }, NOW);
    if (!result.ok) throw new Error(JSON.stringify(result.failures));
    expect(result.value).toMatchObject({ network, last4 });
    expect(result.value.card_number).toBe(number.replace(/[\s-]/g, ""));
    expect(result.value.fingerprint_input).toBe(result.value.card_number);
  });

  it("normalises text expiry, two-digit years, the name and the codes", () => {
    const result = validateCard(
      {
        card_number: "4242424242424242",
        expiry_month: " 03 ",
        expiry_year: "27",
        cardholder_name: " Ada   Lovelace ",
        country: "us",
        currency: "usd",
      },
      NOW,
    );
    expect(result).toEqual({
      ok: true,
      value: {
        card_number: "4242424242424242",
        fingerprint_input: "4242424242424242",
        network: "visa",
        last4: "4242",
        expiry_month: 3,
        expiry_year: 2027,
        cardholder_name: "Ada Lovelace",
        country: "US",
        currency: "USD",
      },
    });
  });

  it("exposes the full number only under sensitive names", () => {
    const result = validateCard({ ...base, card_number: "4242424242424242" }, NOW);
    if (!result.ok) throw new Error("expected acceptance");
    const holdingNumber = Object.entries(result.value)
      .filter(([, value]) => value === "4242424242424242")
      .map(([key]) => key)
      .sort();
    expect(holdingNumber).toEqual(["card_number", "fingerprint_input"]);
  });
});

describe("validateCard: expiry against the injected now", () => {
  it.each([
    ["this month is still good", 5, 2026, "2026-05-31T23:59:59Z", []],
    ["last month has expired", 4, 2026, "2026-05-01T00:00:00Z", ["expiry_month:card_expired"]],
    ["a past year names the year", 12, 2025, "2026-01-01T00:00:00Z", ["expiry_year:card_expired"]],
    ["the month boundary is taken in UTC", 5, 2026, "2026-06-01T00:00:00Z", ["expiry_month:card_expired"]],
    ["next month is good", 6, 2026, "2026-05-31T23:59:59Z", []],
    ["20 years ahead is allowed", 1, 2046, "2026-05-15T00:00:00Z", []],
    ["21 years ahead is a typo", 1, 2047, "2026-05-15T00:00:00Z", ["expiry_year:invalid_expiry_year"]],
  ] as const)("%s", (_label, month, year, now, expected) => {
    const result = validateCard(
      { ...base, card_number: "4242424242424242", expiry_month: month, expiry_year: year },
      new Date(now),
    );
    expect(failureCodes(result)).toEqual(expected);
  });

  it("the same card is accepted or refused depending only on the date passed in", () => {
    const card = { ...base, card_number: "4242424242424242", expiry_month: 5, expiry_year: 2026 };
    expect(validateCard(card, new Date("2026-05-20T00:00:00Z")).ok).toBe(true);
    expect(validateCard(card, new Date("2026-07-20T00:00:00Z")).ok).toBe(false);
  });
});

describe("validateCard: refused cards name every failed check", () => {
  const invalid: [string, CardInput, string[]][] = [
    ["Luhn failure", { ...base, card_number: "4242424242424241" }, ["card_number:invalid_card_checksum"]],
    ["11 digits", { ...base, card_number: "42424242424" }, ["card_number:invalid_card_number"]],
    ["20 digits", { ...base, card_number: "42424242424242424242" }, ["card_number:invalid_card_number"]],
    ["letters", { ...base, card_number: "4242 4242 4242 424X" }, ["card_number:invalid_card_number"]],
    ["amex with 16 digits (Luhn-valid)", { ...base, card_number: "3782822463100003" }, ["card_number:invalid_card_number"]],
    [
      "mastercard with 15 digits, also failing Luhn",
      { ...base, card_number: "555555555555444" },
      ["card_number:invalid_card_number", "card_number:invalid_card_checksum"],
    ],
    ["month 13", { ...base, card_number: "4242424242424242", expiry_month: 13 }, ["expiry_month:invalid_expiry_month"]],
    ["month 0", { ...base, card_number: "4242424242424242", expiry_month: "0" }, ["expiry_month:invalid_expiry_month"]],
    ["month as a word", { ...base, card_number: "4242424242424242", expiry_month: "May" }, ["expiry_month:invalid_expiry_month"]],
    ["fractional month", { ...base, card_number: "4242424242424242", expiry_month: 5.5 }, ["expiry_month:invalid_expiry_month"]],
    ["3-digit year", { ...base, card_number: "4242424242424242", expiry_year: "202" }, ["expiry_year:invalid_expiry_year"]],
    ["last century", { ...base, card_number: "4242424242424242", expiry_year: 1999 }, ["expiry_year:invalid_expiry_year"]],
    [
      "bad country and currency",
      { ...base, card_number: "4242424242424242", country: "USA", currency: "XTS" },
      ["country:invalid_country", "currency:invalid_currency"],
    ],
    [
      "name over 140 characters",
      { ...base, card_number: "4242424242424242", cardholder_name: "A".repeat(141) },
      ["cardholder_name:too_long"],
    ],
    [
      "nothing at all",
      {},
      [
        "card_number:required",
        "expiry_month:required",
        "expiry_year:required",
        "cardholder_name:required",
        "country:required",
        "currency:required",
      ],
    ],
    [
      "blanks count as missing",
      { card_number: " ", expiry_month: "", expiry_year: null, cardholder_name: "", country: " ", currency: "" },
      [
        "card_number:required",
        "expiry_month:required",
        "expiry_year:required",
        "cardholder_name:required",
        "country:required",
        "currency:required",
      ],
    ],
    [
      "every problem at once",
      {
        card_number: "4242424242424241",
        expiry_month: 1,
        expiry_year: 2026,
        cardholder_name: "Ada",
        country: "XX",
        currency: "USD",
      },
      ["card_number:invalid_card_checksum", "expiry_month:card_expired", "country:invalid_country"],
    ],
  ];

  it.each(invalid)("%s", (_label, input, expected) => {
    expect(failureCodes(validateCard(input, NOW))).toEqual(expected);
  });

  it("uses only documented codes and never echoes the card number", () => {
    for (const [, input] of invalid) {
      const result = validateCard(input, NOW);
      if (result.ok) throw new Error("expected failures");
      for (const failure of result.failures) expect(Object.keys(CARD_FAILURE_CODES)).toContain(failure.code);
      expect(JSON.stringify(result)).not.toContain("4242424242424241");
    }
  });
});
