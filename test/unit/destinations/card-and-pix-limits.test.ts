// Card and Pix key validation as a Business meets it: Amex cards in the 34 range, names of
// exactly the rail's 140 characters, and Pix e-mail keys of exactly DICT's 77 characters.
import { describe, expect, it } from "vitest";
import { detectCardNetwork, validateCard } from "../../../src/modules/destinations/validation/card.js";
import { checkPixKey } from "../../../src/modules/destinations/validation/pix.js";

const NOW = new Date("2026-05-15T12:00:00Z");
const base = { expiry_month: 12, expiry_year: 2028, cardholder_name: "Ada Lovelace", country: "US", currency: "USD" };

describe("cards", () => {
  it("an Amex card starting with 34 is accepted as amex", () => {
    const result = validateCard({ ...base, card_number: "3434 343434 34343" }, NOW);
    expect(result).toMatchObject({ ok: true, value: { network: "amex", last4: "4343" } });
  });

  it("an Amex card starting with 34 must have 15 digits", () => {
    // Luhn-valid 16 digits: refused for its length only.
    const result = validateCard({ ...base, card_number: "3434343434343434" }, NOW);
    expect(result.ok ? [] : result.failures.map((f) => `${f.field}:${f.code}`)).toEqual(["card_number:invalid_card_number"]);
  });

  it("accepts a cardholder name of exactly 140 characters", () => {
    const result = validateCard({ ...base, card_number: "4242424242424242", cardholder_name: "A".repeat(140) }, NOW);
    expect(result.ok && result.value.cardholder_name).toBe("A".repeat(140));
  });
});

describe("Pix e-mail keys", () => {
  it("accepts an e-mail key of exactly 77 characters and refuses one of 78", () => {
    const at77 = `${"a".repeat(65)}@example.com`;
    expect(at77).toHaveLength(77);
    expect(checkPixKey(at77)).toEqual({ ok: true, type: "email", key: at77 });
    expect(checkPixKey(`a${at77}`)).toMatchObject({ ok: false });
  });
});

function failures(result: ReturnType<typeof validateCard>): string[] {
  return result.ok ? [] : result.failures.map((f) => `${f.field}:${f.code}: ${f.message}`);
}

describe("card failure messages say what to fix", () => {
  it("names each missing field", () => {
    expect(failures(validateCard({}, NOW))).toEqual([
      "card_number:required: The card number is required.",
      "expiry_month:required: The expiry month is required.",
      "expiry_year:required: The expiry year is required.",
      "cardholder_name:required: The cardholder name is required.",
      "country:required: The country is required.",
      "currency:required: The currency is required.",
    ]);
  });

  it("explains each malformed value", () => {
    const result = validateCard(
      {
        card_number: "3782822463100003",
        expiry_month: 13,
        expiry_year: 2099,
        cardholder_name: "A".repeat(141),
        country: "USA",
        currency: "XTS",
      },
      NOW,
    );
    expect(failures(result)).toEqual([
      "card_number:invalid_card_number: A amex card number does not have 16 digits.",
      "expiry_month:invalid_expiry_month: The expiry month is 1 to 12.",
      "expiry_year:invalid_expiry_year: The expiry year is a 2- or 4-digit year, at most 20 years ahead.",
      "cardholder_name:too_long: At most 140 characters.",
      'country:invalid_country: "USA" is not an ISO 3166-1 alpha-2 country code.',
      'currency:invalid_currency: "XTS" is not the ISO 4217 code of a currency an account can hold.',
    ]);
  });

  it("explains a short number, a mistyped digit and an expired card", () => {
    expect(failures(validateCard({ ...base, card_number: "42424242424" }, NOW))).toEqual([
      "card_number:invalid_card_number: A card number has 12 to 19 digits.",
    ]);
    expect(failures(validateCard({ ...base, card_number: "4242424242424241" }, NOW))).toEqual([
      "card_number:invalid_card_checksum: The card number fails its check digit: a digit is probably mistyped.",
    ]);
    expect(failures(validateCard({ ...base, card_number: "4242424242424242", expiry_month: 4, expiry_year: 2026 }, NOW))).toEqual(
      ["expiry_month:card_expired: The card expired at the end of 4/2026."],
    );
  });
});

describe("card numbers and expiry dates typed oddly", () => {
  it("refuses a card number with a letter in front", () => {
    expect(failures(validateCard({ ...base, card_number: "A4242424242424242" }, NOW))).toEqual([
      "card_number:invalid_card_number: A card number has 12 to 19 digits.",
    ]);
  });

  it.each(["1.5", "1e1", "012"])("refuses the expiry month %s", (expiry_month) => {
    expect(failures(validateCard({ ...base, card_number: "4242424242424242", expiry_month }, NOW))).toEqual([
      "expiry_month:invalid_expiry_month: The expiry month is 1 to 12.",
    ]);
  });

  it.each(["2027.5", "+2027", "027"])("refuses the expiry year %s", (expiry_year) => {
    expect(failures(validateCard({ ...base, card_number: "4242424242424242", expiry_year }, NOW))).toEqual([
      "expiry_year:invalid_expiry_year: The expiry year is a 2- or 4-digit year, at most 20 years ahead.",
    ]);
  });

  it("accepts a four-digit expiry year typed as text", () => {
    expect(validateCard({ ...base, card_number: "4242424242424242", expiry_year: "2027" }, NOW)).toMatchObject({
      ok: true,
      value: { expiry_year: 2027 },
    });
  });

  it("calls a card of 2000 expired, not a typo", () => {
    expect(validateCard({ ...base, card_number: "4242424242424242", expiry_year: "00" }, NOW)).toMatchObject({
      ok: false,
      failures: [{ field: "expiry_year", code: "card_expired" }],
    });
  });
});

describe("Discover ranges at their edges", () => {
  it.each([
    ["6490000000000000", "discover"],
    ["6229250000000000", "discover"],
    ["6600000000000000", "other"],
    ["9000000000000000", "other"],
  ])("%s is %s", (digits, network) => {
    expect(detectCardNetwork(digits)).toBe(network);
  });
});

describe("Pix keys typed with extra characters", () => {
  it("accepts a phone key with spaces around it", () => {
    expect(checkPixKey(" +55 11 98765-4321 ")).toEqual({ ok: true, type: "phone", key: "+5511987654321" });
  });

  it("accepts e-mail keys whose domain has one-letter labels", () => {
    expect(checkPixKey("joao@x.y.com.br")).toEqual({ ok: true, type: "email", key: "joao@x.y.com.br" });
  });

  it.each([
    ["a phone number with an extra digit", "+55 11 98765-43210"],
    ["a phone number after another country code", "+1+5511987654321"],
    ["an e-mail with a comma at the end", "joao@example.com,"],
    ["a random key with a character in front", "x3f2504e0-4f89-41d3-9a0c-0305e82c3301"],
    ["a random key with a character at the end", "3f2504e0-4f89-41d3-9a0c-0305e82c33010"],
  ])("refuses %s", (_label, raw) => {
    expect(checkPixKey(raw).ok).toBe(false);
  });
});
