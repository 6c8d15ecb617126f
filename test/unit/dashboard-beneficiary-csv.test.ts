// The dashboard's Beneficiary import helper (dashboard/src/lib/beneficiary-csv.ts): flat columns into the import
// API's row shape (the `bank_*` columns into `bank`), and each row's problems by the rules the API states.
import { describe, expect, it } from "vitest";
import { importResultsToCsv, parseImportCsv } from "../../dashboard/src/lib/beneficiary-csv.js";

describe("parseImportCsv", () => {
  it("builds API rows: bank columns nested, country and currency upper-cased, acknowledged as a boolean", () => {
    const file = parseImportCsv(
      "\uFEFF Email ,business_name,acknowledged,bank_account_holder_name,bank_country,bank_currency,bank_account_number,bank_routing_code\n" +
        "acme@example.com,Acme Ltd,TRUE,Acme Ltd,us,usd,7700014417,021000021\n",
    );
    expect(file.fileErrors).toEqual([]);
    expect(file.rows).toEqual([
      {
        index: 0,
        problems: [],
        body: {
          email: "acme@example.com",
          business_name: "Acme Ltd",
          acknowledged: true,
          bank: {
            account_holder_name: "Acme Ltd",
            country: "US",
            currency: "USD",
            account_number: "7700014417",
            routing_code: "021000021",
          },
        },
      },
    ]);
  });

  it("lists every problem of a row, and refuses a file with an unknown column or no rows", () => {
    const file = parseImportCsv("email,first_name,acknowledged\nnot-mail,Ann,yes\n");
    expect(file.rows[0]?.problems).toEqual([
      "email is not an e-mail address",
      "first_name and last_name (a person) or business_name (a business) is required",
      "acknowledged must be true or false",
      "bank_account_holder_name is required",
      "bank_country is required",
      "bank_currency is required",
      "bank_iban or bank_account_number is required",
    ]);
    expect(parseImportCsv("email,iban\n").fileErrors).toEqual(["Unknown column: iban", "The file has no rows"]);
  });
});

describe("importResultsToCsv", () => {
  it("writes one line per row: its number, key cells, the API's result, the Beneficiary id and the error", () => {
    const file = parseImportCsv(
      "email,first_name,last_name,business_name,bank_account_holder_name,bank_country,bank_currency,bank_iban\n" +
        "lin@example.com,Lin,Wu,,Lin Wu,de,eur,DE89370400440532013000\n" +
        "max@example.com,Max,Muster,,Max Muster,DE,EUR,DE00370400440532013000\n" +
        'acme@example.com,,,"=HYPERLINK(""x"")",Acme,DE,EUR,DE89370400440532013000\n',
    );
    const csv = importResultsToCsv(file, [
      { index: 0, status: "created", beneficiary_id: "0193c4a2-0000-7000-8000-000000000001" },
      {
        index: 1,
        status: "failed",
        beneficiary_id: null,
        error: { code: "invalid_iban_checksum", message: 'The IBAN\'s check digits are wrong, "DE00".', field: "bank.iban" },
      },
    ]);
    expect(csv.split("\r\n")).toEqual([
      "row,email,first_name,last_name,business_name,bank_country,bank_currency,result,beneficiary_id,error_field,error_code,error_message",
      "1,lin@example.com,Lin,Wu,,DE,EUR,created,0193c4a2-0000-7000-8000-000000000001,,,",
      '2,max@example.com,Max,Muster,,DE,EUR,failed,,bank.iban,invalid_iban_checksum,"The IBAN\'s check digits are wrong, ""DE00""."',
      // A row without an answer says so; a cell a spreadsheet would run as a formula is defused.
      `3,acme@example.com,,,"'=HYPERLINK(""x"")",DE,EUR,not_sent,,,,`,
    ]);
  });
});
