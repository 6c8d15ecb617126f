// Limits of card and Pix key validation that a Business would notice: Amex cards in the 34 range, names of
// exactly the rail's 140 characters, and Pix e-mail keys of exactly DICT's 77 characters.
import { describe, expect, it } from "vitest";
import { validateCard } from "../../../src/modules/destinations/validation/card.js";
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
