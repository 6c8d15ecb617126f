// bankFormFor asks for what validateBankDetails requires, for every country with its usual currency: a form
// built from it never omits a field the validator then reports missing, and never marks as required a field
// the validator does not need.
import countries from "i18n-iso-countries";
import { describe, expect, it } from "vitest";
import { bankFormFor, defaultCurrencyOf, validateBankDetails } from "../../../src/modules/destinations/validation/index.js";

const EVERY_COUNTRY = Object.keys(countries.getAlpha2Codes());

describe("bankFormFor", () => {
  it("names exactly the fields the validator reports missing, for every country in its usual currency", () => {
    const mismatches: string[] = [];
    for (const country of EVERY_COUNTRY) {
      const currency = defaultCurrencyOf(country) ?? "USD";
      const form = bankFormFor(country, currency);
      const result = validateBankDetails({ account_holder_name: "Jane Doe", country, currency });
      const missing = result.ok
        ? []
        : result.failures.filter((failure) => failure.code === "required").map((failure) => failure.field);
      const required = form.fields.filter((field) => field.required).map((field) => field.field);
      // Brazil's alternatives (a Pix key, or branch and account) are all optional on the form; the validator
      // asks for the Pix key when none is given.
      const expected = form.note === undefined ? required : ["pix_key"];
      if ([...missing].sort().join() !== [...expected].sort().join()) {
        mismatches.push(`${country}/${currency}: form ${expected.join("+")} vs validator ${missing.join("+")}`);
      }
      // No form asks for an identifier the validator would call not applicable.
      const asked = Object.fromEntries(form.fields.map((field) => [field.field, "x"]));
      const stray = validateBankDetails({ account_holder_name: "Jane Doe", country, currency, ...asked });
      if (!stray.ok && stray.failures.some((failure) => failure.code === "field_not_applicable")) {
        mismatches.push(`${country}/${currency}: asks for a field the validator does not apply`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("Germany in euro: IBAN, and the BIC optional; Switzerland: the same; Japan: account number and BIC", () => {
    expect(bankFormFor("DE", "EUR")).toEqual({
      scheme: "iban",
      fields: [
        { field: "iban", required: true },
        { field: "swift_bic", required: false },
      ],
    });
    expect(bankFormFor("CH", "CHF").scheme).toBe("iban");
    expect(
      bankFormFor("JP", "JPY")
        .fields.filter((f) => f.required)
        .map((f) => f.field),
    ).toEqual(["account_number", "swift_bic"]);
  });

  it("a UK account in euro is asked for its IBAN; in pounds for sort code and account number", () => {
    expect(bankFormFor("GB", "EUR").scheme).toBe("iban");
    expect(bankFormFor("GB", "GBP")).toMatchObject({
      scheme: "gb_sort_code",
      fields: [
        { field: "routing_code", required: true, name: "sort code" },
        { field: "account_number", required: true, shape: "8 digits" },
      ],
    });
  });

  it("a country's usual currency", () => {
    expect(["DE", "US", "GB", "CH", "MX", "BR", "JP", "CL", "UY"].map(defaultCurrencyOf)).toEqual([
      "EUR",
      "USD",
      "GBP",
      "CHF",
      "MXN",
      "BRL",
      "JPY",
      "CLP",
      "UYU",
    ]);
    expect(defaultCurrencyOf("AQ")).toBeNull();
    expect(defaultCurrencyOf("XX")).toBeNull();
  });
});
