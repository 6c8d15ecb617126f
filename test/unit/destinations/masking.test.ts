import { describe, expect, it } from "vitest";
import { MAX_MASKED_LENGTH, maskLast4, maskPixKey } from "../../../src/modules/destinations/validation/masking.js";

describe("maskLast4", () => {
  it.each([
    ["DE89370400440532013000", "3000"],
    ["GB82WEST12345698765432", "5432"],
    ["002010077777777771", "7771"],
    ["4242424242424242", "4242"],
    ["BR1800360305000010009795493C1", "93C1"],
    ["1234", "1234"],
  ])("%s shows %s", (identifier, shown) => {
    expect(maskLast4(identifier)).toBe(shown);
  });
});

describe("maskPixKey by key type", () => {
  it.each([
    ["cpf", "52998224725", "***.982.247-**"],
    ["cnpj", "11222333000181", "**.222.333/0001-**"],
    ["cnpj", "12ABC34501DE35", "**.ABC.345/01DE-**"],
    ["phone", "+5511987654321", "+55 (11) *****-4321"],
    ["email", "joao.silva@example.com.br", "j***@example.com.br"],
    ["evp", "123e4567-e89b-12d3-a456-426614174000", "********-****-****-****-********4000"],
  ] as const)("%s %s is shown as %s", (type, key, shown) => {
    expect(maskPixKey(key, type)).toBe(shown);
  });

  it.each([
    ["cpf", "52998224725", ["529", "25"]],
    ["phone", "+5511987654321", ["98765"]],
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
    expect(masked).toBe("a***@d***.com");
  });
});
