// Edges of the bank-details rules that a Business would notice: which scheme a foreign-currency account
// falls back to, every ABA prefix range and its boundaries, branch BICs that must stay apart, every
// territory that banks under another country's IBAN, routing codes one character too long, and names at
// exactly the rail's limit.
import { describe, expect, it } from "vitest";
import {
  type BankDetailsInput,
  type BankDetailsResult,
  validateBankDetails,
} from "../../../src/modules/destinations/validation/bank-details.js";

const holder = { account_holder_name: "Ada Lovelace" };

function failureCodes(result: BankDetailsResult): string[] {
  return result.ok ? [] : result.failures.map((f) => `${f.field}:${f.code}`);
}

function accepted(input: BankDetailsInput) {
  const result = validateBankDetails(input);
  if (!result.ok) throw new Error(`expected acceptance, got ${JSON.stringify(result.failures)}`);
  return result.value;
}

describe("an account held in a foreign currency", () => {
  it.each([
    ["Australian", { country: "AU", currency: "USD", swift_bic: "CTBAAU2S" }],
    ["Indian", { country: "IN", currency: "USD", swift_bic: "HDFCINBB" }],
    ["Canadian", { country: "CA", currency: "EUR", swift_bic: "ROYCCAT2" }],
  ])("an %s account in a foreign currency is paid cross-border by account number and BIC", (_label, account) => {
    expect(accepted({ ...holder, ...account, account_number: "123456789" })).toMatchObject({
      scheme: "swift",
      account_number: "123456789",
      swift_bic: account.swift_bic,
    });
  });

  it("an Australian account in a foreign currency needs the BIC, not a BSB", () => {
    expect(failureCodes(validateBankDetails({ ...holder, country: "AU", currency: "USD", account_number: "123456789" }))).toEqual(
      ["swift_bic:required"],
    );
  });

  it("an Indian account in rupees is still paid by IFSC", () => {
    expect(
      accepted({ ...holder, country: "IN", currency: "INR", routing_code: "HDFC0001234", account_number: "50100123456789" }),
    ).toMatchObject({ scheme: "in_ifsc" });
  });
});

describe("ABA routing number prefixes", () => {
  // Every number has a correct check digit, so only the prefix decides.
  it.each([
    ["01", "011000002"],
    ["12", "121000002"],
    ["21 (first thrift prefix)", "211000006"],
    ["32 (last thrift prefix)", "321000006"],
    ["61 (first electronic prefix)", "611000004"],
    ["66 (an electronic prefix)", "661000009"],
    ["72 (last electronic prefix)", "721000004"],
  ])("accepts a routing number starting %s", (_label, routing) => {
    expect(
      accepted({ ...holder, country: "US", currency: "USD", routing_code: routing, account_number: "123456789" }),
    ).toMatchObject({ scheme: "us_aba", routing_code: routing });
  });

  it.each([
    ["13", "131000005"],
    ["20", "201000003"],
    ["33", "331000009"],
    ["60", "601000001"],
    ["73", "731000007"],
  ])("refuses a routing number starting %s, outside every assigned range", (prefix, routing) => {
    const result = validateBankDetails({
      ...holder,
      country: "US",
      currency: "USD",
      routing_code: routing,
      account_number: "123456789",
    });
    expect(failureCodes(result)).toEqual(["routing_code:invalid_routing_code"]);
    expect(result.ok ? "" : result.failures[0]?.message).toBe(`No bank routing number starts with ${prefix}.`);
  });
});

describe("BIC canonicalisation in duplicate detection", () => {
  const jp = { ...holder, country: "JP", currency: "JPY", account_number: "1234567" };

  it("keeps the same account number at two branches of one bank apart", () => {
    const tokyo = accepted({ ...jp, swift_bic: "BOTKJPJT001" });
    const osaka = accepted({ ...jp, swift_bic: "BOTKJPJT002" });
    expect(tokyo.fingerprint_input).toBe("swift:BOTKJPJT001:1234567");
    expect(osaka.fingerprint_input).toBe("swift:BOTKJPJT002:1234567");
  });

  it("treats the head office written with or without XXX as one office, and keeps the BIC as given", () => {
    const head = accepted({ ...jp, swift_bic: "botk jp jt xxx" });
    expect(head.swift_bic).toBe("BOTKJPJTXXX");
    expect(head.fingerprint_input).toBe("swift:BOTKJPJT:1234567");
  });
});

describe("territories that bank under another country's IBAN", () => {
  const french = "FR1420041010050500013M02606";
  const british = "GB29NWBK60161331926819";
  it.each([
    ["AX", "EUR", "FI2112345600000785"],
    ["BL", "EUR", french],
    ["GF", "EUR", french],
    ["GP", "EUR", french],
    ["MF", "EUR", french],
    ["MQ", "EUR", french],
    ["NC", "XPF", french],
    ["PF", "XPF", french],
    ["PM", "EUR", french],
    ["RE", "EUR", french],
    ["TF", "EUR", french],
    ["WF", "XPF", french],
    ["YT", "EUR", french],
    ["GG", "GBP", british],
    ["IM", "GBP", british],
    ["JE", "GBP", british],
  ])("an account in %s with its parent's IBAN is accepted", (country, currency, iban) => {
    expect(accepted({ ...holder, country, currency, iban })).toMatchObject({ scheme: "iban", country, iban });
  });

  it("an Isle of Man account with a German IBAN is a mismatch that names the expected prefix", () => {
    const result = validateBankDetails({ ...holder, country: "IM", currency: "GBP", iban: "DE89370400440532013000" });
    expect(failureCodes(result)).toEqual(["iban:iban_country_mismatch"]);
    expect(result.ok ? "" : result.failures[0]?.message).toContain("expected prefix GB");
  });
});

describe("routing codes one character too long or with a stray character", () => {
  it.each([
    ["a 7-digit sort code", "GB", "GBP", "1234567", "98765432", "routing_code:invalid_sort_code"],
    ["a sort code with a letter in front", "GB", "GBP", "A123456", "98765432", "routing_code:invalid_sort_code"],
    ["a 7-digit BSB", "AU", "AUD", "0620001", "12345678", "routing_code:invalid_routing_code"],
    ["a BSB with a letter in front", "AU", "AUD", "A062000", "12345678", "routing_code:invalid_routing_code"],
    ["a 12-character IFSC", "IN", "INR", "HDFC00012345", "50100123456789", "routing_code:invalid_routing_code"],
    ["an IFSC with a letter in front", "IN", "INR", "XHDFC0001234", "50100123456789", "routing_code:invalid_routing_code"],
    ["a Canadian 6-digit transit", "CA", "CAD", "123456-678", "1234567", "routing_code:invalid_routing_code"],
    ["a Canadian 4-digit institution", "CA", "CAD", "12345-6789", "1234567", "routing_code:invalid_routing_code"],
    ["a Canadian EFT routing of 10 digits", "CA", "CAD", "0678123456", "1234567", "routing_code:invalid_routing_code"],
    ["a Canadian EFT routing not starting with 0", "CA", "CAD", "1067812345", "1234567", "routing_code:invalid_routing_code"],
    ["a Brazilian branch of 6 digits", "BR", "BRL", "123456", "123456", "routing_code:invalid_routing_code"],
    ["a Brazilian branch with a letter", "BR", "BRL", "A1234", "123456", "routing_code:invalid_routing_code"],
  ])("refuses %s", (_label, country, currency, routing_code, account_number, failure) => {
    expect(failureCodes(validateBankDetails({ ...holder, country, currency, routing_code, account_number }))).toEqual([failure]);
  });

  it("stores the EFT form of a Canadian routing number typed with spaces inside", () => {
    expect(
      accepted({ ...holder, country: "CA", currency: "CAD", routing_code: " 12345 - 678 ", account_number: "1234567" }),
    ).toMatchObject({ routing_code: "067812345" });
  });
});

describe("account numbers at the edges of their shapes", () => {
  it.each([
    ["a 9-digit UK account", "GB", "GBP", "123456", "987654321"],
    ["a 13-digit Canadian account", "CA", "CAD", "12345-678", "1234567890123"],
    ["a 4-digit Australian account", "AU", "AUD", "062000", "1234"],
    ["a 10-digit Australian account", "AU", "AUD", "062000", "1234567890"],
    ["an 8-digit Indian account", "IN", "INR", "HDFC0001234", "12345678"],
    ["a 19-digit Indian account", "IN", "INR", "HDFC0001234", "1234567890123456789"],
    ["a 14-character Brazilian account", "BR", "BRL", "0001", "12345678901234"],
    ["a Brazilian account with X before its last digit", "BR", "BRL", "0001", "1234X5"],
  ])("refuses %s", (_label, country, currency, routing_code, account_number) => {
    expect(failureCodes(validateBankDetails({ ...holder, country, currency, routing_code, account_number }))).toEqual([
      "account_number:invalid_account_number",
    ]);
  });

  it("refuses a cross-border account number of 35 characters, with letters only, or with a stray symbol", () => {
    for (const account_number of ["1".repeat(35), "ABCDEF", "12/34"]) {
      expect(
        failureCodes(validateBankDetails({ ...holder, country: "JP", currency: "JPY", account_number, swift_bic: "BOTKJPJT" })),
        account_number,
      ).toEqual(["account_number:invalid_account_number"]);
    }
    expect(
      accepted({ ...holder, country: "JP", currency: "JPY", account_number: "ab-12 34", swift_bic: "BOTKJPJT" }),
    ).toMatchObject({
      account_number: "AB-1234",
    });
  });
});

describe("names at the rail's limit", () => {
  const de = { country: "DE", currency: "EUR", iban: "DE89370400440532013000" };

  it("accepts a holder name and a bank name of exactly 140 characters", () => {
    const value = accepted({ ...de, account_holder_name: "A".repeat(140), bank_name: "B".repeat(140) });
    expect(value.account_holder_name).toHaveLength(140);
    expect(value.bank_name).toHaveLength(140);
  });

  it("counts a name after collapsing its spaces", () => {
    const name = `${"A".repeat(70)}    ${"B".repeat(69)}`;
    expect(accepted({ ...de, account_holder_name: name }).account_holder_name).toHaveLength(140);
  });
});

describe("what a failure says, and what else is reported with it", () => {
  const messages = (input: BankDetailsInput) => {
    const result = validateBankDetails(input);
    return result.ok ? [] : result.failures.map((f) => `${f.field}:${f.code}: ${f.message}`);
  };

  it.each([
    ["US", "USD", "ABA routing number", "123456789"],
    ["GB", "GBP", "sort code", "98765432"],
    ["BR", "BRL", "branch code", "123456"],
    ["AU", "AUD", "BSB", "12345678"],
    ["IN", "INR", "IFSC", "50100123456789"],
    ["CA", "CAD", "transit and institution number", "1234567"],
  ])("a %s account in %s without a routing code is told it needs its %s", (country, currency, name, account_number) => {
    expect(messages({ ...holder, country, currency, account_number })).toEqual([
      `routing_code:required: A ${country} account needs its ${name}.`,
    ]);
  });

  it("a Brazilian branch account in dollars is told domestic transfers are in BRL", () => {
    expect(messages({ ...holder, country: "BR", currency: "USD", routing_code: "0001", account_number: "123456" })).toEqual([
      "currency:currency_not_supported_for_country: Brazilian domestic transfers are always in BRL.",
    ]);
  });

  it("names the sort code or the account number that disagrees with a UK IBAN", () => {
    expect(
      messages({
        ...holder,
        country: "GB",
        currency: "GBP",
        iban: "GB82WEST12345698765432",
        routing_code: "65-43-21",
        account_number: "98765431",
      }),
    ).toEqual([
      "routing_code:conflicts_with_iban: The sort code differs from the one inside the IBAN.",
      "account_number:conflicts_with_iban: The account number differs from the one inside the IBAN.",
    ]);
  });

  it("a mistyped UK IBAN is reported alone, not also as conflicting with the sort code beside it", () => {
    expect(
      failureCodes(
        validateBankDetails({
          ...holder,
          country: "GB",
          currency: "GBP",
          iban: "GB82WEST12345698765433",
          routing_code: "65-43-21",
        }),
      ),
    ).toEqual(["iban:invalid_iban_checksum"]);
  });

  it("a UK IBAN with a malformed account number beside it reports the account number's shape", () => {
    expect(
      failureCodes(
        validateBankDetails({
          ...holder,
          country: "GB",
          currency: "GBP",
          iban: "GB82WEST12345698765432",
          account_number: "1234",
        }),
      ),
    ).toEqual(["account_number:invalid_account_number"]);
  });

  it("an unknown currency is reported once, not also as the wrong currency for the scheme", () => {
    expect(
      failureCodes(
        validateBankDetails({
          ...holder,
          country: "US",
          currency: "EURO",
          routing_code: "021000021",
          account_number: "123456789",
        }),
      ),
    ).toEqual(["currency:invalid_currency"]);
  });

  it("an IBAN of a territory that banks under two prefixes names both", () => {
    const result = validateBankDetails({ ...holder, country: "GP", currency: "EUR", iban: "DE89370400440532013000" });
    expect(result.ok ? "" : result.failures[0]?.message).toBe("The IBAN is from DE; expected prefix GP or FR.");
  });

  it("a BIC of no country names the two letters, any other malformed BIC its shape", () => {
    const de = { ...holder, country: "DE", currency: "EUR", iban: "DE89370400440532013000" };
    expect(messages({ ...de, swift_bic: "DEUTXXFF" })).toEqual([
      'swift_bic:invalid_bic: The BIC is not valid: "XX" in positions 5-6 is not a country code.',
    ]);
    expect(messages({ ...de, swift_bic: "DEUTDEFF50" })).toEqual([
      "swift_bic:invalid_bic: The BIC is not valid: it must be 4 letters, a country code, 2 letters or digits, and an optional 3-character branch.",
    ]);
  });
});

describe("which identifiers decide the scheme", () => {
  it("an Isle of Man account without an IBAN is asked for its IBAN", () => {
    expect(failureCodes(validateBankDetails({ ...holder, country: "IM", currency: "GBP", account_number: "12345678" }))).toEqual([
      "iban:required",
    ]);
  });

  it("a Brazilian account with only an account number is asked for its branch", () => {
    expect(failureCodes(validateBankDetails({ ...holder, country: "BR", currency: "BRL", account_number: "123456" }))).toEqual([
      "routing_code:required",
    ]);
  });

  it("a Brazilian account with a Pix key is paid by Pix even with a branch and account beside it", () => {
    expect(
      accepted({
        ...holder,
        country: "BR",
        currency: "BRL",
        pix_key: "529.982.247-25",
        routing_code: "0001",
        account_number: "123456",
      }),
    ).toMatchObject({ scheme: "br_pix", pix_key: "52998224725", fingerprint_input: "br_pix:52998224725" });
  });

  it("a German IBAN with the bank code beside it is accepted, and only UK IBANs keep such codes", () => {
    const value = accepted({
      ...holder,
      country: "DE",
      currency: "EUR",
      iban: "DE89370400440532013000",
      routing_code: "37040044",
    });
    expect(value).not.toHaveProperty("routing_code");
  });

  it("a cross-border account without a routing code carries none", () => {
    const value = accepted({ ...holder, country: "JP", currency: "JPY", account_number: "1234567", swift_bic: "BOTKJPJT" });
    expect(Object.keys(value)).not.toContain("routing_code");
  });

  it("an IFSC typed with spaces inside is stored without them", () => {
    expect(
      accepted({ ...holder, country: "IN", currency: "INR", routing_code: "HDFC 0001 234", account_number: "50100123456789" }),
    ).toMatchObject({ routing_code: "HDFC0001234" });
  });

  it("a Canadian routing number typed as 8 digits without the dash is read as transit and institution", () => {
    expect(
      accepted({ ...holder, country: "CA", currency: "CAD", routing_code: "12345678", account_number: "1234567" }),
    ).toMatchObject({
      routing_code: "067812345",
    });
  });

  it.each([
    ["10 digits", "0210000210"],
    ["a letter in front", "X021000021"],
  ])("an ABA routing number with %s is refused for its shape only", (_label, routing_code) => {
    expect(
      failureCodes(validateBankDetails({ ...holder, country: "US", currency: "USD", routing_code, account_number: "123456789" })),
    ).toEqual(["routing_code:invalid_routing_code"]);
  });
});
