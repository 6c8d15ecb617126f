import { describe, expect, it } from "vitest";
import { checkPixKey, isValidCnpj, isValidCpf } from "../../../src/modules/destinations/validation/pix.js";

describe("CPF check digits", () => {
  // Valid ones were computed independently of this code (mod 11, weights 10..2 then 11..2).
  it.each(["52998224725", "11144477735", "12345678909", "93541134780", "00000000191"])("accepts %s", (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  it.each([
    ["first check digit changed", "52998224735"],
    ["second check digit changed", "52998224726"],
    ["body digit changed", "52998224625"],
    ["adjacent digits swapped", "25998224725"],
    ["one repeated digit passes the arithmetic but is never issued", "11111111111"],
    ["all zeros", "00000000000"],
    ["10 digits", "5299822472"],
    ["12 digits", "529982247250"],
    ["punctuation is not stripped here", "529.982.247-25"],
  ])("refuses %s", (_label, cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });
});

describe("CNPJ check digits", () => {
  it.each(["11222333000181", "11444777000161", "12345678000195", "33400000000138", "12ABC34501DE35"])("accepts %s", (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  it.each([
    ["first check digit changed", "11222333000191"],
    ["second check digit changed", "11222333000182"],
    ["body digit changed", "11222333000281"],
    ["alphanumeric body letter changed", "12ABD34501DE35"],
    ["letter in a check digit position", "12ABC34501DE3A"],
    ["lowercase alphanumeric (callers uppercase first)", "12abc34501de35"],
    ["all zeros", "00000000000000"],
    ["13 characters", "1122233300018"],
  ])("refuses %s", (_label, cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });
});

describe("checkPixKey classifies and normalises", () => {
  it.each([
    ["529.982.247-25", "cpf", "52998224725"],
    [" 52998224725 ", "cpf", "52998224725"],
    ["11.222.333/0001-81", "cnpj", "11222333000181"],
    ["12.ABC.345/01DE-35", "cnpj", "12ABC34501DE35"],
    ["Maria@Banco.COM.br", "email", "maria@banco.com.br"],
    ["+55 (21) 99876-5432", "phone", "+5521998765432"],
    ["+5511987654321", "phone", "+5511987654321"],
    ["3F2504E0-4F89-41D3-9A0C-0305E82C3301", "evp", "3f2504e0-4f89-41d3-9a0c-0305e82c3301"],
  ])("%s is a %s key stored as %s", (raw, type, key) => {
    expect(checkPixKey(raw)).toEqual({ ok: true, type, key });
  });

  it.each([
    ["11 digits that fail the CPF check, with a hint about phones", "11987654321", "+55"],
    ["phone with area code starting 0", "+55 01 98765-4321", "mobile"],
    ["phone that is too short", "+55 11 9876-543", "mobile"],
    ["e-mail over 77 characters", `${"a".repeat(70)}@example.com`, "77"],
    ["e-mail with two @", "a@b@example.com", "e-mail"],
    ["a UUID without dashes", "3f2504e04f8941d39a0c0305e82c3301", "random key"],
    ["free text", "my pix key", "random key"],
  ])("refuses %s", (_label, raw, hint) => {
    const result = checkPixKey(raw);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.message).toContain(hint);
  });
});
