import { describe, expect, it } from "vitest";
import {
  IsoParseError,
  parseDecimalAmountMinor,
  readCamt054,
  readPain002,
  refuseOtherIsoMessage,
} from "../../../src/rails/bank-files/iso-readers.js";
import { achChangeText, achReturnText, isoReasonText } from "../../../src/rails/bank-files/reason-codes.js";
import { bankCamt054, bankPain002 } from "../../helpers/test-bank.js";

describe("pain.002 status reports", () => {
  it("reads a whole-file acceptance", () => {
    const report = readPain002(
      bankPain002({ messageId: "STS-1", originalMessageId: "BF20261124T1500-0001", groupStatus: "ACCP" }),
    );
    expect(report).toMatchObject({
      messageId: "STS-1",
      originalMessageId: "BF20261124T1500-0001",
      groupStatus: "ACCP",
      transactions: [],
    });
  });

  it("reads a partial acceptance with one rejected transaction, its reason code and words", () => {
    const report = readPain002(
      bankPain002({
        messageId: "STS-2",
        originalMessageId: "BF-2",
        groupStatus: "PART",
        paymentInfoId: "BF-2-0001",
        transactions: [
          { endToEndId: "0190f0a0000070008000000000000001", status: "ACCP" },
          {
            endToEndId: "0190f0a0000070008000000000000002",
            status: "RJCT",
            reasonCode: "AC04",
            additionalInfo: "Konto <geschlossen> & gelöscht",
          },
        ],
      }),
    );
    expect(report.groupStatus).toBe("PART");
    expect(report.transactions).toEqual([
      {
        paymentInfoId: "BF-2-0001",
        endToEndId: "0190f0a0000070008000000000000001",
        status: "ACCP",
        reason: { code: null, additionalInfo: null },
        originalAmountMinor: null,
        originalCurrency: null,
      },
      {
        paymentInfoId: "BF-2-0001",
        endToEndId: "0190f0a0000070008000000000000002",
        status: "RJCT",
        reason: { code: "AC04", additionalInfo: "Konto <geschlossen> & gelöscht" },
        originalAmountMinor: null,
        originalCurrency: null,
      },
    ]);
  });

  it("keeps ids as strings with their leading zeros", () => {
    const report = readPain002(
      bankPain002({ messageId: "000123", originalMessageId: "0000000042", groupStatus: "RJCT", groupReasonCode: "FF01" }),
    );
    expect(report.messageId).toBe("000123");
    expect(report.originalMessageId).toBe("0000000042");
    expect(report.groupReason.code).toBe("FF01");
  });

  it("refuses entity declarations, malformed XML and other messages", () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaa">]><Document><CstmrPmtStsRpt><GrpHdr><MsgId>&a;</MsgId></GrpHdr></CstmrPmtStsRpt></Document>`;
    expect(() => readPain002(bomb)).toThrow(/document type/);
    expect(() => readPain002("<Document><CstmrPmtStsRpt><GrpHdr>")).toThrow(IsoParseError);
    expect(() => readPain002("not xml at all")).toThrow(IsoParseError);
  });

  it("says why a file is refused in words: cut short, not XML, a misplaced tag, another message", () => {
    // fast-xml-parser's own words were `Invalid '[ "Document", ... ]' found.:1:1`.
    expect(() => readPain002("<Document><CstmrPmtStsRpt><GrpHdr>")).toThrow(
      "the file is not well-formed XML: it ends (line 1, column 35) with 3 elements left open (<Document> > <CstmrPmtStsRpt> > <GrpHdr>); it looks cut short",
    );
    expect(() => readPain002("not xml at all")).toThrow(
      'the file is not XML: it starts with "not xml at all", not with an element',
    );
    expect(() => readCamt054("<Document>\n<BkToCstmrDbtCdtNtfctn></Document>")).toThrow(
      "the file is not well-formed XML: line 2, column 24: Expected closing tag 'BkToCstmrDbtCdtNtfctn' (opened in line 2, col 1) instead of closing tag 'Document'",
    );
    expect(() =>
      readCamt054(bankPain002({ messageId: "S", originalMessageId: "O", groupStatus: "ACCP", transactions: [] })),
    ).toThrow(
      "not a camt.054 debit/credit notification: the root element is <Document> holding <CstmrPmtStsRpt>, expected <Document> holding <BkToCstmrDbtCdtNtfctn>",
    );
    expect(() => refuseOtherIsoMessage("<Invoice><Id>1</Id></Invoice>")).toThrow(
      "neither a pain.002 status report nor a camt.054 notification: the root element is <Invoice>, expected <Document> holding <CstmrPmtStsRpt> or <BkToCstmrDbtCdtNtfctn>",
    );
    expect(() => readPain002(bankCamt054({ messageId: "N", bookings: [] }))).toThrow(/not a pain.002/);
  });
});

describe("camt.054 notifications", () => {
  for (const version of [2, 8] as const) {
    it(`reads a booked transfer and a return with its reason (version ${version})`, () => {
      const notification = readCamt054(
        bankCamt054({
          messageId: "NTF-1",
          version,
          bookings: [
            { endToEndId: "0190f0a0000070008000000000000001", amount: "1234.5", creditDebit: "DBIT", bookingDate: "2026-11-25" },
            {
              endToEndId: "0190f0a0000070008000000000000003",
              amount: "0010.00",
              creditDebit: "CRDT",
              bookingDate: "2027-01-20",
              returnReasonCode: "MD07",
              returnInfo: "Deceased",
            },
          ],
        }),
      );
      expect(notification.transactions).toEqual([
        {
          endToEndId: "0190f0a0000070008000000000000001",
          amountMinor: 123_450,
          currency: "EUR",
          creditDebit: "DBIT",
          entryStatus: "BOOK",
          bookingDate: "2026-11-25",
          returnReasonCode: null,
          returnAdditionalInfo: null,
        },
        {
          endToEndId: "0190f0a0000070008000000000000003",
          amountMinor: 1000,
          currency: "EUR",
          creditDebit: "CRDT",
          entryStatus: "BOOK",
          bookingDate: "2027-01-20",
          returnReasonCode: "MD07",
          returnAdditionalInfo: "Deceased",
        },
      ]);
    });
  }

  it("refuses amounts that are not decimal money", () => {
    expect(parseDecimalAmountMinor("0.01")).toBe(1);
    expect(parseDecimalAmountMinor("999999999.99")).toBe(99_999_999_999);
    expect(() => parseDecimalAmountMinor("1.001")).toThrow(IsoParseError);
    expect(() => parseDecimalAmountMinor("1e3")).toThrow(IsoParseError);
    expect(() => parseDecimalAmountMinor("-5")).toThrow(IsoParseError);
  });
});

describe("reason words", () => {
  it("says what a code means, keeping the bank's words for codes it does not know", () => {
    expect(isoReasonText("AC04", null)).toBe("AC04: The account is closed.");
    expect(isoReasonText("ZZ99", "Blocked by compliance")).toBe("ZZ99: Blocked by compliance");
    expect(isoReasonText("ZZ99", null)).toBe("ZZ99: The bank gave no explanation.");
    expect(achReturnText("R03")).toBe("R03: No account, or the account could not be located.");
    expect(achChangeText("C01")).toBe("C01: Incorrect account number.");
  });
});
