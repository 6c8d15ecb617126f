// The BAI2 reader: hand-written files (continuations of 03 and 16 records, funds types with their extra fields,
// texts holding commas and slashes, defaulted fields), control totals and record counts checked, and files
// written by the tests' bank read back as written.
import { describe, expect, it } from "vitest";
import { type BankStatement, readBankStatements, StatementParseError } from "../../../src/rails/bank-files/statements.js";
import { writeBai2File } from "../../fixtures/statements/writers.js";

function refusal(content: string): string {
  try {
    readBankStatements(content);
  } catch (error) {
    expect(error).toBeInstanceOf(StatementParseError);
    return (error as Error).message;
  }
  throw new Error("not refused");
}

// Account 1: 03 = 010 +120000, 015 +95000 (on a continuation), 100 10000 count 1, 400 35000 count 2 (funds S).
// Transactions: 10000 + 25000 + 10000 = 45000. Account total: 120000 + 95000 + 10000 + 35000 + 45000 = 305000.
const FILE = [
  "01,121000248,PAYOUTSCO,260402,9999,42,,,2/",
  "02,PAYOUTSCO,121000248,1,260402,2400,USD,2/",
  "03,4455667788,,010,+120000,,,/",
  "88,015,95000,,,100,10000,1,Z,400,35000,2,S,20000,10000,5000/",
  "16,165,10000,0,BR0001,091000010000001,ACH CREDIT, FROM ACME/INC, REF 7/",
  "16,455,25000,V,260403,1200,BR0002,TRACE123,ACH DEBIT SETTLEMENT PAYROLL BATCH",
  "88,0000042 FOR 3 ENTRIES",
  "88,EFFECTIVE 260403",
  "16,495,10000,D,2,0,6000,1,4000,BR0003,,OUTGOING WIRE",
  "49,305000,8/",
  "03,9988,CAD,010,-500,,,015,0/",
  "16,699,500,/",
  "49,0,3/",
  "98,305000,2,13/",
  "99,305000,1,15/",
].join("\n");

describe("BAI2", () => {
  it("reads accounts, balances, transactions, continuations and odd fields", () => {
    const statements = readBankStatements(FILE);
    expect(statements).toHaveLength(2);
    const [first, second] = statements as [BankStatement, BankStatement];
    expect(first).toMatchObject({
      format: "bai2",
      messageVersion: "bai2",
      messageId: "121000248/42/2026-04-02",
      statementId: "42:121000248:2026-04-02:4455667788",
      sequenceNumber: 42,
      account: { iban: null, number: "4455667788", currency: "USD" },
      createdAt: "2026-04-02T23:59:59",
      periodFrom: "2026-04-02",
      periodTo: "2026-04-02",
      openingBookedMinor: 120_000,
      closingBookedMinor: 95_000,
      closingDate: "2026-04-02",
    });
    expect(first.lines).toEqual([
      {
        bankReference: "BR0001",
        status: "booked",
        bookingDate: "2026-04-02",
        valueDate: null,
        direction: "credit",
        amountMinor: 10_000,
        currency: "USD",
        reversal: false,
        bankTransactionCode: "165",
        paymentInformationId: null,
        batchCount: null,
        batchTotalMinor: null,
        achTrace: "091000010000001",
        // The text is the rest of the record, commas and slashes included (its end mark dropped).
        remittance: "ACH CREDIT, FROM ACME/INC, REF 7",
        details: [],
      },
      expect.objectContaining({
        bankReference: "BR0002",
        direction: "debit",
        amountMinor: 25_000,
        valueDate: "2026-04-03",
        achTrace: "TRACE123",
        remittance: "ACH DEBIT SETTLEMENT PAYROLL BATCH 0000042 FOR 3 ENTRIES EFFECTIVE 260403",
      }),
      expect.objectContaining({
        bankReference: "BR0003",
        achTrace: null,
        amountMinor: 10_000,
        bankTransactionCode: "495",
        remittance: "OUTGOING WIRE",
      }),
    ]);
    expect(second).toMatchObject({
      account: { number: "9988", currency: "CAD" },
      openingBookedMinor: -500,
      closingBookedMinor: 0,
      lines: [{ direction: "debit", amountMinor: 500, bankReference: null, achTrace: null, remittance: null }],
    });
  });

  it("reads fixed-length records without line breaks, CRLF, a byte order mark and trailing padding", () => {
    const fixed = FILE.replace("01,121000248,PAYOUTSCO,260402,9999,42,,,2/", "01,121000248,PAYOUTSCO,260402,9999,42,80,,2/");
    const fixedPadded = fixed
      .split("\n")
      .map((record) => record.padEnd(80, " "))
      .join("");
    expect(fixedPadded.length).toBe(80 * 15);
    expect(readBankStatements(fixedPadded)).toEqual(readBankStatements(FILE));
    expect(readBankStatements(`\uFEFF${FILE.replaceAll("\n", "\r\n")}\r\n`)).toEqual(readBankStatements(FILE));
  });

  it("checks the control totals and record counts of 49, 98 and 99, naming the record", () => {
    expect(refusal(FILE.replace("49,305000,8/", "49,305001,8/"))).toMatch(
      /line 10 \(account trailer 49 of account 4455667788\): the control total is 305001, the amounts it covers add up to 305000/,
    );
    expect(refusal(FILE.replace("49,305000,8/", "49,305000,9/"))).toMatch(
      /account trailer 49 .*: it counts 9 records, there are 8/,
    );
    expect(refusal(FILE.replace("98,305000,2,13/", "98,305000,3,13/"))).toMatch(
      /group trailer 98\): it says 3 accounts, the file holds 2/,
    );
    expect(refusal(FILE.replace("98,305000,2,13/", "98,300000,2,13/"))).toMatch(
      /group trailer 98\): the control total is 300000/,
    );
    expect(refusal(FILE.replace("99,305000,1,15/", "99,305000,1,16/"))).toMatch(
      /file trailer 99\): it counts 16 records, there are 15/,
    );
    expect(refusal(FILE.replace("99,305000,1,15/", "99,305000,2,15/"))).toMatch(/it says 2 groups, the file holds 1/);
    // A 16 record dropped: the account's total and count no longer agree.
    expect(refusal(FILE.replace("16,699,500,/\n", ""))).toMatch(/account trailer 49 of account 9988/);
  });

  it("refuses in words what it cannot read", () => {
    expect(refusal(FILE.split("\n").slice(0, -1).join("\n"))).toMatch(/no file trailer \(99\); it looks cut short/);
    expect(refusal(FILE.split("\n").slice(0, 6).join("\n"))).toMatch(/has no account trailer \(49\); the file looks cut short/);
    expect(refusal(FILE.replace("42,,,2/", "42,,,3/"))).toMatch(/version "3"; only BAI version 2 is read \(version 3 is BTRS\)/);
    expect(refusal(FILE.replace("02,PAYOUTSCO,121000248,1,", "02,PAYOUTSCO,121000248,4,"))).toMatch(/test only/);
    expect(refusal(FILE.replace("02,PAYOUTSCO,121000248,1,", "02,PAYOUTSCO,121000248,2,"))).toMatch(/deletion/);
    expect(refusal(FILE.replace("02,PAYOUTSCO,121000248,1,260402", "02,PAYOUTSCO,121000248,1,260231"))).toMatch(
      /as-of date: 260231 is not a calendar date/,
    );
    expect(refusal(FILE.replace("16,165,10000,0,", "16,165,100.00,0,"))).toMatch(
      /line 5 \(transaction 16\), amount: "100\.00" is not an amount/,
    );
    expect(refusal(FILE.replace("16,165,10000,0,", "16,015,10000,0,"))).toMatch(
      /type code 015 is a status \(balance\) code, not a transaction/,
    );
    expect(refusal(FILE.replace("16,165,10000,0,", "16,400,10000,0,"))).toMatch(/type code 400 is a summary total/);
    expect(refusal(FILE.replace("16,165,10000,0,", "16,750,10000,0,"))).toMatch(/outside the BAI2 credit and debit ranges/);
    expect(refusal(FILE.replace("16,165,10000,0,", "16,165,10000,X,"))).toMatch(
      /funds type "X" is not one of 0, 1, 2, S, V, D, Z/,
    );
    expect(refusal(FILE.replace("D,2,0,6000", "D,x,0,6000"))).toMatch(/funds type D: "x" is not a number of distributions/);
    expect(refusal(FILE.replace("03,9988,CAD", "03,9988,QQQ"))).toMatch(/"QQQ" is not an ISO 4217 currency code/);
    expect(refusal(FILE.replace("16,699,500,/", "17,699,500,/"))).toMatch(/record code 17 is not a BAI2 record/);
    expect(refusal(`88,continued\n${FILE}`)).toMatch(/line 1: a continuation \(88\) record with nothing before it/);
    expect(refusal(`02,continued\n${FILE}`)).toMatch(/a BAI2 file starts with a file header \(01\)/);
    expect(refusal(FILE.replace("03,9988,CAD", "16,9988,CAD"))).toMatch(
      /line 11: a 16 record where an account \(03\) or the group trailer \(98\) belongs/,
    );
    expect(refusal(`${FILE}\n16,165,1,0,,,/`)).toMatch(/after the file trailer/);
  });

  it("reads back what the tests' bank writes, long texts in 88 continuations", () => {
    const statement: BankStatement = {
      format: "bai2",
      messageVersion: "bai2",
      messageId: "BANK/7/2026-05-22",
      statementId: "7:BANK:2026-05-22:000123456789",
      sequenceNumber: 7,
      account: { iban: null, number: "000123456789", currency: "USD" },
      createdAt: "2026-05-22T06:30:00",
      periodFrom: "2026-05-22",
      periodTo: "2026-05-22",
      openingBookedMinor: 5_000_000,
      closingBookedMinor: 5_000_000 - 123_456 + 99,
      closingDate: "2026-05-22",
      lines: [
        {
          bankReference: "REF1",
          status: "booked",
          bookingDate: "2026-05-22",
          valueDate: "2026-05-26",
          direction: "debit",
          amountMinor: 123_456,
          currency: "USD",
          reversal: false,
          bankTransactionCode: "455",
          paymentInformationId: null,
          batchCount: null,
          batchTotalMinor: null,
          achTrace: "091000019876543",
          remittance: `ACH ORIGINATION SETTLEMENT COMPANY ID 1234567890 ENTRY DESCRIPTION PAYOUTS BATCH ${"0".repeat(6)}7 ITEMS 12 EFFECTIVE 2026-05-26 AFTER MEMORIAL DAY`,
          details: [],
        },
        {
          bankReference: null,
          status: "booked",
          bookingDate: "2026-05-22",
          valueDate: null,
          direction: "credit",
          amountMinor: 99,
          currency: "USD",
          reversal: false,
          bankTransactionCode: "354",
          paymentInformationId: null,
          batchCount: null,
          batchTotalMinor: null,
          achTrace: null,
          remittance: null,
          details: [],
        },
      ],
    };
    const file = writeBai2File(
      { sender: "BANK", receiver: "PAYOUTSCO", fileId: "7", createdAt: "2026-05-22T06:30", recordLength: 80 },
      [statement],
    );
    expect(file.split("\n").filter((record) => record.startsWith("88,")).length).toBeGreaterThanOrEqual(2);
    expect(file.split("\n").every((record) => record.length <= 80)).toBe(true);
    expect(readBankStatements(file)).toEqual([statement]);
    // Two groups (two as-of dates) and two accounts in the second, totals checked at every level.
    const nextDay = {
      ...statement,
      statementId: "7:BANK:2026-05-26:000123456789",
      periodFrom: "2026-05-26",
      periodTo: "2026-05-26",
      closingDate: "2026-05-26",
      lines: statement.lines.map((l) => ({ ...l, bookingDate: "2026-05-26" })),
    };
    const otherAccount = {
      ...nextDay,
      statementId: "7:BANK:2026-05-26:555",
      account: { iban: null, number: "555", currency: "USD" },
      openingBookedMinor: null,
      closingBookedMinor: null,
      closingDate: null,
      lines: [],
    };
    const both = writeBai2File({ sender: "BANK", receiver: "PAYOUTSCO", fileId: "7", createdAt: "2026-05-22T06:30" }, [
      statement,
      nextDay,
      otherAccount,
    ]);
    expect(both.split("\n").filter((record) => record.startsWith("02,"))).toHaveLength(2);
    expect(readBankStatements(both)).toEqual([statement, nextDay, otherAccount]);
  });

  it("takes the group's currency for an account that names none, and USD when the group names none either", () => {
    const noCurrency = FILE.replace("02,PAYOUTSCO,121000248,1,260402,2400,USD,2/", "02,PAYOUTSCO,121000248,1,260402,2400,,2/");
    expect(readBankStatements(noCurrency)[0]?.account.currency).toBe("USD");
    const euros = FILE.replace("02,PAYOUTSCO,121000248,1,260402,2400,USD,2/", "02,PAYOUTSCO,121000248,1,260402,2400,EUR,2/");
    expect(readBankStatements(euros).map((s) => s.account.currency)).toEqual(["EUR", "CAD"]);
  });
});
