// The masking rule (src/platform/masking.ts): at most 4 characters shown, never more than half, so a short
// identifier is never shown whole; Pix keys by type within the same budget.
import { describe, expect, it } from "vitest";
import {
  MAX_MASKED_LENGTH,
  maskIdentifier,
  maskPixKey,
  maskStoredDestination,
} from "../../../src/modules/destinations/validation/masking.js";
import { endingIn, maskTrailing, revealedLength } from "../../../src/platform/masking.js";

describe("the masking rule", () => {
  it.each([
    [0, 0],
    [1, 0],
    [2, 1],
    [3, 1],
    [4, 2],
    [5, 2],
    [6, 3],
    [7, 3],
    [8, 4],
    [9, 4],
    [17, 4],
    [34, 4],
  ])("an identifier of %i characters shows %i", (length, shown) => {
    expect(revealedLength(length)).toBe(shown);
    const identifier = "x".repeat(length);
    expect(maskTrailing(identifier)).toHaveLength(shown);
  });

  it.each([
    ["DE89370400440532013000", "3000"],
    ["GB82WEST12345698765432", "5432"],
    ["002010077777777771", "7771"],
    ["4242424242424242", "4242"],
    ["BR1800360305000010009795493C1", "93C1"],
    ["44171209", "1209"],
    ["7654321", "321"],
    ["123456", "456"],
    ["12345", "45"],
    ["1234", "34"],
    ["123", "3"],
    ["12", "2"],
    ["7", ""],
  ])("%s shows %j", (identifier, shown) => {
    expect(maskIdentifier(identifier)).toBe(shown);
  });

  it("never shows a whole identifier, at any length", () => {
    for (let length = 1; length <= 40; length += 1) {
      const identifier = Array.from({ length }, (_, i) => String(i % 10)).join("");
      const shown = maskTrailing(identifier);
      expect(shown.length).toBeLessThan(length);
      expect(shown.length * 2).toBeLessThanOrEqual(length);
      expect(identifier.endsWith(shown)).toBe(true);
    }
  });

  it("sentences name the masked tail, or nothing when none may be shown", () => {
    expect(`the account${endingIn("34")}`).toBe("the account ending in 34");
    expect(`the account${endingIn("")}`).toBe("the account");
  });
});

describe("maskPixKey by key type", () => {
  it.each([
    ["cpf", "52998224725", "***.**2.247-**"],
    ["cnpj", "11222333000181", "**.**2.333/****-**"],
    ["cnpj", "12ABC34501DE35", "**.**C.345/****-**"],
    ["phone", "+5511987654321", "+55 (**) *****-4321"],
    ["email", "joao.silva@example.com.br", "j***@example.com.br"],
    ["email", "a@example.com", "***@example.com"],
    ["evp", "123e4567-e89b-12d3-a456-426614174000", "********-****-****-****-********4000"],
  ] as const)("%s %s is shown as %s", (type, key, shown) => {
    expect(maskPixKey(key, type)).toBe(shown);
  });

  it.each([
    ["cpf", "52998224725", 4],
    ["cnpj", "11222333000181", 4],
    ["phone", "+5511987654321", 4],
    ["evp", "123e4567-e89b-12d3-a456-426614174000", 4],
  ] as const)("a masked %s reveals at most %i of the key's digits or letters", (type, key, most) => {
    const revealed = maskPixKey(key, type)
      .replace(/^\+55/, "")
      .replace(/[^0-9A-Za-z]/g, "");
    expect(revealed.length).toBeLessThanOrEqual(most);
  });

  it.each([
    ["cpf", "52998224725", ["529", "25", "982"]],
    ["phone", "+5511987654321", ["98765", "(11)"]],
    ["email", "joao.silva@example.com.br", ["joao", "silva"]],
    ["evp", "123e4567-e89b-12d3-a456-426614174000", ["123e4567", "4266141"]],
  ] as const)("a masked %s hides the rest of the key", (type, key, hidden) => {
    const masked = maskPixKey(key, type);
    for (const part of hidden) expect(masked).not.toContain(part);
  });

  it("keeps a masked e-mail within the stored column width, even for the longest DICT key", () => {
    const longest = `a@${"d".repeat(70)}.com`;
    expect(longest.length).toBe(76);
    const masked = maskPixKey(longest, "email");
    expect(masked.length).toBeLessThanOrEqual(MAX_MASKED_LENGTH);
    expect(masked).toBe("***@d***.com");
  });
});

describe("maskStoredDestination (the backfill's reading of stored values)", () => {
  it.each([
    [{ iban: "GB29NWBK60161331926819", account_number: "31926819" }, null, "6819"],
    [{ account_number: "1234" }, null, "34"],
    [{ clabe: "002010077777777771" }, null, "7771"],
    [{ card_number: "4242424242424242" }, null, "4242"],
    [{ pix_key: "52998224725" }, "cpf", "***.**2.247-**"],
    [{}, null, null],
  ] as const)("%j -> %j", (values, pixType, shown) => {
    expect(maskStoredDestination(values, pixType)).toBe(shown);
  });
});
