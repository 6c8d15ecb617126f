import { describe, expect, it } from "vitest";
import {
  BANK_DETAILS_FAILURE_CODES,
  type BankDetailsInput,
  type BankDetailsResult,
  validateBankDetails,
} from "../../../src/modules/destinations/validation/bank-details.js";

const holder = { account_holder_name: "Ada Lovelace" };

/** "field:code" for each failure, in order; [] when the details were accepted. */
function failureCodes(result: BankDetailsResult): string[] {
  return result.ok ? [] : result.failures.map((f) => `${f.field}:${f.code}`);
}

function accepted(input: BankDetailsInput) {
  const result = validateBankDetails(input);
  if (!result.ok) throw new Error(`expected acceptance, got ${JSON.stringify(result.failures)}`);
  return result.value;
}

describe("validateBankDetails: accepted details, normalised", () => {
  // [label, input, the fields the normalised value must carry]
  const valid: [string, BankDetailsInput, Record<string, unknown>][] = [
    // IBAN and BIC of one bank; territories using another country's IBANs count as that country.
    [
      "Jersey account: GB IBAN, BIC of the bank's Jersey office",
      { ...holder, country: "JE", currency: "EUR", iban: "GB29NWBK60161331926819", swift_bic: "NWBKJESH" },
      { scheme: "iban", swift_bic: "NWBKJESH" },
    ],
    [
      "Réunion account: FR IBAN, BIC in RE",
      { ...holder, country: "RE", currency: "EUR", iban: "FR1420041010050500013M02606", swift_bic: "BNPARERX" },
      { scheme: "iban", swift_bic: "BNPARERX" },
    ],
    [
      "French IBAN, a bank code the BIC does not carry: the country is compared only",
      { ...holder, country: "FR", currency: "EUR", iban: "FR1420041010050500013M02606", swift_bic: "BNPAFRPP" },
      { scheme: "iban", swift_bic: "BNPAFRPP" },
    ],
    [
      "Swiss IBAN with a Swiss BIC",
      { ...holder, country: "CH", currency: "EUR", iban: "CH9300762011623852957", swift_bic: "UBSWCHZH80A" },
      { scheme: "iban", swift_bic: "UBSWCHZH80A" },
    ],
    // IBAN scheme: published example IBANs.
    [
      "DE IBAN",
      { ...holder, country: "DE", currency: "EUR", iban: "DE89370400440532013000" },
      { scheme: "iban", iban: "DE89370400440532013000", last4: "3000", fingerprint_input: "iban:DE89370400440532013000" },
    ],
    [
      "DE IBAN typed in lowercase with spaces, country and currency in lowercase",
      { ...holder, country: " de ", currency: "eur", iban: " de89 3704 0044 0532 0130 00 " },
      { scheme: "iban", country: "DE", currency: "EUR", iban: "DE89370400440532013000" },
    ],
    [
      "FR IBAN with a letter in the BBAN",
      { ...holder, country: "FR", currency: "EUR", iban: "FR1420041010050500013M02606" },
      { scheme: "iban", iban: "FR1420041010050500013M02606", last4: "2606" },
    ],
    [
      "NL IBAN with a lowercase BIC",
      { ...holder, country: "NL", currency: "EUR", iban: "NL91ABNA0417164300", swift_bic: "abna nl 2a" },
      { scheme: "iban", iban: "NL91ABNA0417164300", swift_bic: "ABNANL2A" },
    ],
    ["ES IBAN", { ...holder, country: "ES", currency: "EUR", iban: "ES9121000418450200051332" }, { last4: "1332" }],
    ["IT IBAN", { ...holder, country: "IT", currency: "EUR", iban: "IT60X0542811101000000123456" }, { last4: "3456" }],
    ["BE IBAN", { ...holder, country: "BE", currency: "EUR", iban: "BE68539007547034" }, { last4: "7034" }],
    ["CH IBAN in CHF", { ...holder, country: "CH", currency: "CHF", iban: "CH9300762011623852957" }, { currency: "CHF" }],
    ["NO IBAN (15 characters)", { ...holder, country: "NO", currency: "NOK", iban: "NO9386011117947" }, { last4: "7947" }],
    [
      "PL IBAN (28 characters)",
      { ...holder, country: "PL", currency: "PLN", iban: "PL61109010140000071219812874" },
      { last4: "2874" },
    ],
    [
      "GB IBAN",
      { ...holder, country: "GB", currency: "GBP", iban: "GB82WEST12345698765432" },
      { scheme: "iban", iban: "GB82WEST12345698765432", last4: "5432" },
    ],
    [
      "GB IBAN with the matching sort code and account number beside it",
      {
        ...holder,
        country: "GB",
        currency: "GBP",
        iban: "GB82WEST12345698765432",
        routing_code: "12-34-56",
        account_number: "9876 5432",
      },
      { scheme: "iban", routing_code: "123456", account_number: "98765432" },
    ],
    [
      "GB IBAN for a EUR account",
      { ...holder, country: "GB", currency: "EUR", iban: "GB29NWBK60161331926819" },
      { currency: "EUR" },
    ],
    [
      "Guadeloupe account with a French IBAN",
      { ...holder, country: "GP", currency: "EUR", iban: "FR1420041010050500013M02606" },
      { scheme: "iban", country: "GP" },
    ],
    [
      "Jersey account with a British IBAN",
      { ...holder, country: "JE", currency: "GBP", iban: "GB29NWBK60161331926819" },
      { country: "JE" },
    ],
    [
      "AE IBAN with its BIC (outside SEPA)",
      { ...holder, country: "AE", currency: "AED", iban: "AE070331234567890123456", swift_bic: "EBILAEAD" },
      { scheme: "iban", swift_bic: "EBILAEAD" },
    ],
    [
      "SA IBAN with its BIC",
      { ...holder, country: "SA", currency: "SAR", iban: "SA0380000000608010167519", swift_bic: "RJHISARI" },
      { scheme: "iban" },
    ],
    [
      "BR IBAN for a USD account",
      { ...holder, country: "BR", currency: "USD", iban: "BR1800360305000010009795493C1", swift_bic: "ITAUBRSP" },
      { scheme: "iban", last4: "93C1" },
    ],
    // US ABA.
    [
      "US ABA (JPMorgan Chase NY)",
      { ...holder, country: "US", currency: "USD", routing_code: "021000021", account_number: "123456789" },
      { scheme: "us_aba", routing_code: "021000021", account_number: "123456789", last4: "6789" },
    ],
    [
      "US ABA (Fed Boston) with a dashed account number",
      { ...holder, country: "US", currency: "USD", routing_code: "011000015", account_number: "0001-2345-6789" },
      { routing_code: "011000015", account_number: "000123456789", fingerprint_input: "us_aba:011000015:000123456789" },
    ],
    [
      "US ABA with a 4-digit account and a BIC",
      { ...holder, country: "US", currency: "USD", routing_code: "121000358", account_number: "1234", swift_bic: "CHASUS33" },
      { account_number: "1234", last4: "34", swift_bic: "CHASUS33" },
    ],
    [
      "US ABA thrift prefix, 17-digit account",
      { ...holder, country: "us", currency: "usd", routing_code: "322271627", account_number: "12345678901234567" },
      { routing_code: "322271627" },
    ],
    // UK sort code.
    [
      "GB sort code with dashes",
      { ...holder, country: "GB", currency: "GBP", routing_code: "12-34-56", account_number: "98765432" },
      { scheme: "gb_sort_code", routing_code: "123456", account_number: "98765432", last4: "5432" },
    ],
    [
      "GB sort code and account with spaces",
      { ...holder, country: "GB", currency: "GBP", routing_code: "60 16 13", account_number: "3192 6819" },
      { routing_code: "601613", account_number: "31926819" },
    ],
    // Mexico CLABE.
    [
      "MX CLABE (Banamex)",
      { ...holder, country: "MX", currency: "MXN", clabe: "002010077777777771" },
      { scheme: "mx_clabe", clabe: "002010077777777771", last4: "7771", fingerprint_input: "mx_clabe:002010077777777771" },
    ],
    [
      "MX CLABE (BBVA) with spaces",
      { ...holder, country: "MX", currency: "MXN", clabe: "012 180 00118359719 8" },
      { clabe: "012180001183597198" },
    ],
    [
      "MX CLABE of a bank code missing from the library's table",
      { ...holder, country: "MX", currency: "MXN", clabe: "146180000000000004" },
      { clabe: "146180000000000004" },
    ],
    // Brazil Pix and branch + account.
    [
      "BR Pix CPF with punctuation",
      { ...holder, country: "BR", currency: "BRL", pix_key: "529.982.247-25" },
      { scheme: "br_pix", pix_key: "52998224725", pix_key_type: "cpf", last4: "***.**2.247-**" },
    ],
    ["BR Pix CPF bare", { ...holder, country: "BR", currency: "BRL", pix_key: "11144477735" }, { pix_key_type: "cpf" }],
    [
      "BR Pix CNPJ",
      { ...holder, country: "BR", currency: "BRL", pix_key: "11.222.333/0001-81" },
      { pix_key: "11222333000181", pix_key_type: "cnpj", last4: "**.**2.333/****-**" },
    ],
    [
      "BR Pix alphanumeric CNPJ (Receita Federal example)",
      { ...holder, country: "BR", currency: "BRL", pix_key: "12.abc.345/01de-35" },
      { pix_key: "12ABC34501DE35", pix_key_type: "cnpj" },
    ],
    [
      "BR Pix e-mail in mixed case",
      { ...holder, country: "BR", currency: "BRL", pix_key: "Joao.Silva@Example.com.br" },
      { pix_key: "joao.silva@example.com.br", pix_key_type: "email", last4: "j***@example.com.br" },
    ],
    [
      "BR Pix mobile phone written with punctuation",
      { ...holder, country: "BR", currency: "BRL", pix_key: "+55 (11) 98765-4321" },
      { pix_key: "+5511987654321", pix_key_type: "phone", last4: "+55 (**) *****-4321" },
    ],
    [
      "BR Pix random key in uppercase",
      { ...holder, country: "BR", currency: "BRL", pix_key: "123E4567-E89B-12D3-A456-426614174000" },
      { pix_key: "123e4567-e89b-12d3-a456-426614174000", pix_key_type: "evp" },
    ],
    [
      "BR branch and account with check digits",
      { ...holder, country: "BR", currency: "BRL", routing_code: "1234-5", account_number: "12345-6" },
      { scheme: "br_bank_account", routing_code: "12345", account_number: "123456" },
    ],
    [
      "BR branch and an account whose check digit is X",
      { ...holder, country: "BR", currency: "BRL", routing_code: "0001", account_number: "9876-x" },
      { account_number: "9876X" },
    ],
    // Domestic extras.
    [
      "CA transit-institution in cheque form",
      { ...holder, country: "CA", currency: "CAD", routing_code: "12345-678", account_number: "1234567" },
      { scheme: "ca_eft", routing_code: "067812345" },
    ],
    [
      "CA routing in EFT form",
      { ...holder, country: "CA", currency: "CAD", routing_code: "0678 12345", account_number: "123456789012" },
      { scheme: "ca_eft", routing_code: "067812345" },
    ],
    [
      "AU BSB with a dash",
      { ...holder, country: "AU", currency: "AUD", routing_code: "062-000", account_number: "12345678" },
      { scheme: "au_bsb", routing_code: "062000" },
    ],
    [
      "IN IFSC in lowercase",
      { ...holder, country: "IN", currency: "INR", routing_code: "hdfc0001234", account_number: "50100123456789" },
      { scheme: "in_ifsc", routing_code: "HDFC0001234" },
    ],
    // Generic cross-border.
    [
      "JP account + BIC with XXX branch",
      { ...holder, country: "JP", currency: "JPY", account_number: "1234567", swift_bic: "BOTKJPJTXXX" },
      { scheme: "swift", account_number: "1234567", swift_bic: "BOTKJPJTXXX", fingerprint_input: "swift:BOTKJPJT:1234567" },
    ],
    [
      "CN account with spaces + BIC",
      { ...holder, country: "CN", currency: "CNY", account_number: "6222 0212 3456 7890", swift_bic: "ICBKCNBJ" },
      { scheme: "swift", account_number: "6222021234567890", last4: "7890" },
    ],
    [
      "CA account paid in USD goes cross-border",
      { ...holder, country: "CA", currency: "USD", account_number: "1234567", swift_bic: "ROYCCAT2", routing_code: "12345-678" },
      { scheme: "swift", routing_code: "12345-678" },
    ],
  ];

  it.each(valid)("%s", (_label, input, expected) => {
    expect(accepted(input)).toMatchObject(expected);
  });

  it("trims the holder name, collapses inner spaces and keeps the bank name", () => {
    const value = accepted({
      account_holder_name: "  Ada   Lovelace ",
      country: "DE",
      currency: "EUR",
      iban: "DE89370400440532013000",
      bank_name: " Commerzbank ",
    });
    expect(value.account_holder_name).toBe("Ada Lovelace");
    expect(value.bank_name).toBe("Commerzbank");
  });

  it("leaves absent optional fields out of the value instead of setting them to undefined", () => {
    const value = accepted({ ...holder, country: "DE", currency: "EUR", iban: "DE89370400440532013000", bank_name: "  " });
    expect(Object.keys(value).sort()).toEqual(
      ["account_holder_name", "country", "currency", "fingerprint_input", "iban", "last4", "scheme"].sort(),
    );
  });

  it("gives one fingerprint input for spelling variants of one account", () => {
    const a = accepted({ ...holder, country: "DE", currency: "EUR", iban: "DE89 3704 0044 0532 0130 00" });
    const b = accepted({ ...holder, country: "de", currency: "eur", iban: "de89370400440532013000" });
    expect(a.fingerprint_input).toBe(b.fingerprint_input);
    const c = accepted({ ...holder, country: "JP", currency: "JPY", account_number: "1234567", swift_bic: "BOTKJPJT" });
    const d = accepted({ ...holder, country: "JP", currency: "JPY", account_number: "1234567", swift_bic: "BOTKJPJTXXX" });
    expect(c.fingerprint_input).toBe(d.fingerprint_input);
  });
});

describe("validateBankDetails: refused details name every failed check", () => {
  const de = { ...holder, country: "DE", currency: "EUR" };
  const us = { ...holder, country: "US", currency: "USD" };
  const gb = { ...holder, country: "GB", currency: "GBP" };
  const mx = { ...holder, country: "MX", currency: "MXN" };
  const br = { ...holder, country: "BR", currency: "BRL" };

  // [label, input, the exact failures as "field:code", in order]
  const invalid: [string, BankDetailsInput, string[]][] = [
    // IBAN
    ["IBAN with its last digit changed", { ...de, iban: "DE89370400440532013001" }, ["iban:invalid_iban_checksum"]],
    ["IBAN with two digits swapped", { ...de, iban: "DE89370400440532031000" }, ["iban:invalid_iban_checksum"]],
    ["IBAN check digits changed", { ...de, iban: "DE88370400440532013000" }, ["iban:invalid_iban_checksum"]],
    [
      "IBAN one character short",
      { ...de, iban: "DE8937040044053201300" },
      ["iban:invalid_iban_length", "iban:invalid_iban_checksum"],
    ],
    [
      "IBAN one character long",
      { ...de, iban: "DE893704004405320130000" },
      ["iban:invalid_iban_length", "iban:invalid_iban_checksum"],
    ],
    [
      "IBAN with a letter where DE has digits",
      { ...de, iban: "DE89370400440532O13000" },
      ["iban:invalid_iban_format", "iban:invalid_iban_checksum"],
    ],
    ["French IBAN for a German account", { ...de, iban: "FR1420041010050500013M02606" }, ["iban:iban_country_mismatch"]],
    [
      "French IBAN for a German account, also mistyped",
      { ...de, iban: "FR1420041010050500013M02607" },
      ["iban:iban_country_mismatch", "iban:invalid_iban_checksum"],
    ],
    ["IBAN of no IBAN country", { ...de, iban: "XX89370400440532013000" }, ["iban:invalid_iban"]],
    ["not an IBAN at all", { ...de, iban: "hello" }, ["iban:invalid_iban"]],
    ["German account without an IBAN", { ...de, account_number: "0532013000", swift_bic: "COBADEFF" }, ["iban:required"]],
    [
      "IBAN with a BIC of no country",
      { ...de, iban: "DE89370400440532013000", swift_bic: "DEUTXXFF" },
      ["swift_bic:invalid_bic"],
    ],
    [
      "IBAN with a 10-character BIC",
      { ...de, iban: "DE89370400440532013000", swift_bic: "DEUTDEFF50" },
      ["swift_bic:invalid_bic"],
    ],
    ["Swiss QR-IBAN", { ...holder, country: "CH", currency: "CHF", iban: "CH4431999123000889012" }, ["iban:qr_iban_not_allowed"]],
    // An IBAN and a BIC given together must name one bank.
    [
      "German IBAN with a French bank's BIC",
      { ...de, iban: "DE89370400440532013000", swift_bic: "BNPAFRPP" },
      ["swift_bic:bic_country_mismatch"],
    ],
    [
      "Swiss IBAN with a German bank's BIC",
      { ...holder, country: "CH", currency: "EUR", iban: "CH9300762011623852957", swift_bic: "COBADEFFXXX" },
      ["swift_bic:bic_country_mismatch"],
    ],
    [
      "UK IBAN (bank code NWBK) with Barclays' BIC",
      { ...gb, currency: "EUR", iban: "GB29NWBK60161331926819", swift_bic: "BARCGB22" },
      ["swift_bic:bic_bank_mismatch"],
    ],
    [
      "Dutch IBAN (bank code ABNA) with ING's BIC",
      { ...holder, country: "NL", currency: "EUR", iban: "NL91ABNA0417164300", swift_bic: "INGBNL2A" },
      ["swift_bic:bic_bank_mismatch"],
    ],
    [
      "UAE IBAN without a BIC (outside SEPA)",
      { ...holder, country: "AE", currency: "AED", iban: "AE070331234567890123456" },
      ["swift_bic:required"],
    ],
    [
      "Turkish account with no IBAN and no BIC",
      { ...holder, country: "TR", currency: "TRY" },
      ["iban:required", "swift_bic:required"],
    ],
    [
      "UK IBAN with a different account number beside it",
      { ...gb, iban: "GB82WEST12345698765432", account_number: "98765431" },
      ["account_number:conflicts_with_iban"],
    ],
    [
      "UK IBAN with a different sort code beside it",
      { ...gb, iban: "GB82WEST12345698765432", routing_code: "65-43-21" },
      ["routing_code:conflicts_with_iban"],
    ],
    [
      "UK IBAN with a malformed sort code beside it",
      { ...gb, iban: "GB82WEST12345698765432", routing_code: "12-34-5" },
      ["routing_code:invalid_sort_code"],
    ],
    // US
    [
      "ABA with its last digit changed",
      { ...us, routing_code: "021000022", account_number: "123456789" },
      ["routing_code:invalid_aba_checksum"],
    ],
    [
      "ABA with 8 digits",
      { ...us, routing_code: "02100002", account_number: "123456789" },
      ["routing_code:invalid_routing_code"],
    ],
    [
      "ABA with a letter",
      { ...us, routing_code: "02100002A", account_number: "123456789" },
      ["routing_code:invalid_routing_code"],
    ],
    [
      "ABA with an unassigned prefix but a good check digit",
      { ...us, routing_code: "131000005", account_number: "123456789" },
      ["routing_code:invalid_routing_code"],
    ],
    [
      "ABA of all zeros",
      { ...us, routing_code: "000000000", account_number: "123456789" },
      ["routing_code:invalid_routing_code"],
    ],
    [
      "ABA with an unassigned prefix and a bad check digit",
      { ...us, routing_code: "801000004", account_number: "123456789" },
      ["routing_code:invalid_routing_code", "routing_code:invalid_aba_checksum"],
    ],
    [
      "US account of 3 digits",
      { ...us, routing_code: "021000021", account_number: "123" },
      ["account_number:invalid_account_number"],
    ],
    [
      "US account of 18 digits",
      { ...us, routing_code: "021000021", account_number: "123456789012345678" },
      ["account_number:invalid_account_number"],
    ],
    [
      "US account with letters",
      { ...us, routing_code: "021000021", account_number: "12AB5678" },
      ["account_number:invalid_account_number"],
    ],
    [
      "US account in EUR",
      { ...us, currency: "EUR", routing_code: "021000021", account_number: "123456789" },
      ["currency:currency_not_supported_for_country"],
    ],
    ["US account without routing or account number", { ...us }, ["routing_code:required", "account_number:required"]],
    [
      "US account given an IBAN",
      { ...us, routing_code: "021000021", account_number: "123456789", iban: "DE89370400440532013000" },
      ["iban:field_not_applicable"],
    ],
    // UK
    ["sort code of 5 digits", { ...gb, routing_code: "12-34-5", account_number: "98765432" }, ["routing_code:invalid_sort_code"]],
    [
      "UK account of 7 digits",
      { ...gb, routing_code: "123456", account_number: "8765432" },
      ["account_number:invalid_account_number"],
    ],
    [
      "UK sort code account in USD",
      { ...gb, currency: "USD", routing_code: "123456", account_number: "98765432" },
      ["currency:currency_not_supported_for_country"],
    ],
    ["UK account with nothing to route by", { ...gb }, ["routing_code:required", "account_number:required"]],
    // Mexico
    ["CLABE with its check digit changed", { ...mx, clabe: "002010077777777772" }, ["clabe:invalid_clabe_checksum"]],
    ["CLABE with an account digit changed", { ...mx, clabe: "002010077777777871" }, ["clabe:invalid_clabe_checksum"]],
    ["CLABE of 17 digits", { ...mx, clabe: "00201007777777777" }, ["clabe:invalid_clabe"]],
    ["CLABE with a letter", { ...mx, clabe: "00201007777777777A" }, ["clabe:invalid_clabe"]],
    ["CLABE in USD", { ...mx, currency: "USD", clabe: "002010077777777771" }, ["currency:currency_not_supported_for_country"]],
    ["Mexican account without a CLABE", { ...mx, account_number: "07777777777" }, ["clabe:required"]],
    [
      "Mexican account with a CLABE and a Pix key",
      { ...mx, clabe: "002010077777777771", pix_key: "52998224725" },
      ["pix_key:field_not_applicable"],
    ],
    // Brazil
    ["CPF with its last digit changed", { ...br, pix_key: "529.982.247-24" }, ["pix_key:invalid_pix_key"]],
    ["CPF with a body digit changed", { ...br, pix_key: "529.982.248-25" }, ["pix_key:invalid_pix_key"]],
    ["CPF of one repeated digit", { ...br, pix_key: "111.111.111-11" }, ["pix_key:invalid_pix_key"]],
    ["CNPJ with its last digit changed", { ...br, pix_key: "11.222.333/0001-82" }, ["pix_key:invalid_pix_key"]],
    ["phone key outside Brazil", { ...br, pix_key: "+1 415 555 0100" }, ["pix_key:invalid_pix_key"]],
    ["phone key of a landline", { ...br, pix_key: "+55 11 3765-4321" }, ["pix_key:invalid_pix_key"]],
    ["e-mail key without a domain dot", { ...br, pix_key: "joao@localhost" }, ["pix_key:invalid_pix_key"]],
    ["random key one character short", { ...br, pix_key: "123e4567-e89b-12d3-a456-42661417400" }, ["pix_key:invalid_pix_key"]],
    ["Pix in USD", { ...br, currency: "USD", pix_key: "52998224725" }, ["currency:currency_not_supported_for_country"]],
    ["Brazilian account with nothing to pay to", { ...br }, ["pix_key:required"]],
    ["Brazilian branch without an account", { ...br, routing_code: "0001" }, ["account_number:required"]],
    [
      "Brazilian branch of 3 digits",
      { ...br, routing_code: "001", account_number: "123456" },
      ["routing_code:invalid_routing_code"],
    ],
    [
      "Brazilian account given a CLABE",
      { ...br, pix_key: "52998224725", clabe: "002010077777777771" },
      ["clabe:field_not_applicable"],
    ],
    // Domestic extras
    [
      "Canadian transit of 4 digits",
      { ...holder, country: "CA", currency: "CAD", routing_code: "1234-567", account_number: "1234567" },
      ["routing_code:invalid_routing_code"],
    ],
    [
      "Canadian account of 6 digits",
      { ...holder, country: "CA", currency: "CAD", routing_code: "12345-678", account_number: "123456" },
      ["account_number:invalid_account_number"],
    ],
    [
      "Australian BSB of 5 digits",
      { ...holder, country: "AU", currency: "AUD", routing_code: "06200", account_number: "12345678" },
      ["routing_code:invalid_routing_code"],
    ],
    [
      "Indian IFSC without the reserved zero",
      { ...holder, country: "IN", currency: "INR", routing_code: "HDFC1001234", account_number: "50100123456789" },
      ["routing_code:invalid_routing_code"],
    ],
    // Generic cross-border
    [
      "cross-border without a BIC",
      { ...holder, country: "JP", currency: "JPY", account_number: "1234567" },
      ["swift_bic:required"],
    ],
    [
      "cross-border without an account number",
      { ...holder, country: "JP", currency: "JPY", swift_bic: "BOTKJPJT" },
      ["account_number:required"],
    ],
    [
      "cross-border account of punctuation only",
      { ...holder, country: "JP", currency: "JPY", account_number: "--", swift_bic: "BOTKJPJT" },
      ["account_number:invalid_account_number"],
    ],
    [
      "cross-border with a malformed BIC",
      { ...holder, country: "JP", currency: "JPY", account_number: "1234567", swift_bic: "BOTK1PJT" },
      ["swift_bic:invalid_bic"],
    ],
    // Shared fields
    ["unknown country", { ...holder, country: "XX", currency: "EUR" }, ["country:invalid_country"]],
    [
      "alpha-3 country",
      { ...holder, country: "DEU", currency: "EUR", iban: "DE89370400440532013000" },
      ["country:invalid_country"],
    ],
    [
      "UK is not the ISO code of the United Kingdom",
      { ...gb, country: "UK", iban: "GB82WEST12345698765432" },
      ["country:invalid_country"],
    ],
    [
      "unknown country still gets its IBAN judged",
      { ...holder, country: "ZZ", currency: "EUR", iban: "DE89370400440532013001" },
      ["country:invalid_country", "iban:invalid_iban_checksum"],
    ],
    ["unknown currency", { ...de, currency: "EURO", iban: "DE89370400440532013000" }, ["currency:invalid_currency"]],
    ["ISO test currency", { ...de, currency: "XTS", iban: "DE89370400440532013000" }, ["currency:invalid_currency"]],
    [
      "gold is not an account currency",
      { ...de, currency: "XAU", iban: "DE89370400440532013000" },
      ["currency:invalid_currency"],
    ],
    ["nothing at all", {}, ["account_holder_name:required", "country:required", "currency:required"]],
    [
      "blank cells count as missing",
      { account_holder_name: "  ", country: "", currency: " ", iban: "" },
      ["account_holder_name:required", "country:required", "currency:required"],
    ],
    [
      "nulls count as missing",
      { account_holder_name: null, country: null, currency: null },
      ["account_holder_name:required", "country:required", "currency:required"],
    ],
    [
      "holder name over 140 characters",
      { ...de, account_holder_name: "A".repeat(141), iban: "DE89370400440532013000" },
      ["account_holder_name:too_long"],
    ],
    [
      "bank name over 140 characters",
      { ...de, bank_name: "B".repeat(141), iban: "DE89370400440532013000" },
      ["bank_name:too_long"],
    ],
    [
      "every problem of one row at once",
      {
        country: "US",
        currency: "EUR",
        routing_code: "021000022",
        account_number: "12",
        swift_bic: "CHAS1S33",
        clabe: "002010077777777771",
      },
      [
        "account_holder_name:required",
        "currency:currency_not_supported_for_country",
        "routing_code:invalid_aba_checksum",
        "account_number:invalid_account_number",
        "swift_bic:invalid_bic",
        "clabe:field_not_applicable",
      ],
    ],
  ];

  it.each(invalid)("%s", (_label, input, expected) => {
    expect(failureCodes(validateBankDetails(input))).toEqual(expected);
  });

  it("uses only documented codes, each failure with a message", () => {
    for (const [, input] of invalid) {
      const result = validateBankDetails(input);
      if (result.ok) throw new Error("expected failures");
      for (const failure of result.failures) {
        expect(Object.keys(BANK_DETAILS_FAILURE_CODES)).toContain(failure.code);
        expect(failure.message.length).toBeGreaterThan(10);
      }
    }
  });

  it("says which country an IBAN belongs to and how long it should be", () => {
    const mismatch = validateBankDetails({ ...de, iban: "FR1420041010050500013M02606" });
    expect(mismatch.ok ? "" : mismatch.failures[0]?.message).toContain("FR");
    const short = validateBankDetails({ ...de, iban: "DE8937040044053201300" });
    expect(short.ok ? "" : short.failures[0]?.message).toContain("22");
  });

  it("never echoes an account identifier in a failure message", () => {
    const result = validateBankDetails({ ...us, routing_code: "021000022", account_number: "12AB5678" });
    expect(JSON.stringify(result)).not.toContain("12AB5678");
  });
});
