// The camt.053 / camt.052 statement readers (.001.02 and .001.08): hand-written statements, the genkgo/camt
// samples kept in ../shared/standards/samples (read from there, never copied), and statements written by the
// tests' bank (test/fixtures/statements/writers.ts), each of which validates against its ISO 20022 schema.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type BankStatement,
  readBankStatements,
  StatementParseError,
  statementLineFingerprint,
  statementLineFingerprints,
} from "../../../src/rails/bank-files/statements.js";
import { type CamtVersion, writeCamtStatement } from "../../fixtures/statements/writers.js";
import { expectIsoValid } from "../../helpers/iso-xsd.js";

const SAMPLES = resolve(import.meta.dirname, "../../../../shared/standards/samples");
const samplesPresent = existsSync(resolve(SAMPLES, "genkgo-camt.camt053.v8.xml"));
if (!samplesPresent) console.warn("NOTICE: ../shared/standards/samples is absent: the genkgo/camt sample checks are skipped.");

const IBAN = "DE89370400440532013000";

/** A statement with one of each kind of entry the reconciliation reads. */
function sampleStatement(overrides: Partial<BankStatement> = {}): BankStatement {
  return {
    format: "camt.053",
    messageVersion: "camt.053.001.08",
    messageId: "STMT-20260402-1",
    statementId: "STMT-20260402-DE89",
    sequenceNumber: 57,
    account: { iban: IBAN, number: null, currency: "EUR" },
    createdAt: "2026-04-02T18:00:00+02:00",
    periodFrom: "2026-04-02",
    periodTo: "2026-04-02",
    openingBookedMinor: 1_000_000,
    closingBookedMinor: 1_000_000 - 12_500 - 30_000 + 4_900 + 77_700,
    closingDate: "2026-04-02",
    lines: [
      {
        bankReference: "BOOK-0001",
        status: "booked",
        bookingDate: "2026-04-02",
        valueDate: "2026-04-02",
        direction: "debit",
        amountMinor: 12_500,
        currency: "EUR",
        reversal: false,
        bankTransactionCode: "PMNT/ICDT/ESCT",
        paymentInformationId: "PMTINF-A",
        batchCount: null,
        batchTotalMinor: null,
        achTrace: null,
        remittance: "Invoice 4711",
        details: [
          {
            endToEndId: "E2E-0001",
            instructionId: "INSTR-1",
            paymentInformationId: "PMTINF-A",
            amountMinor: 12_500,
            returnInfo: null,
            remittance: "Invoice 4711",
          },
        ],
      },
      {
        // A batch booking: one line for three payouts, the block's PmtInfId, count and total.
        bankReference: "BOOK-0002",
        status: "booked",
        bookingDate: "2026-04-02",
        valueDate: "2026-04-02",
        direction: "debit",
        amountMinor: 30_000,
        currency: "EUR",
        reversal: false,
        bankTransactionCode: "PMNT/ICDT/ESCT",
        paymentInformationId: "PMTINF-B",
        batchCount: 3,
        batchTotalMinor: 30_000,
        achTrace: null,
        remittance: null,
        details: [
          {
            endToEndId: "E2E-B1",
            instructionId: null,
            paymentInformationId: "PMTINF-B",
            amountMinor: 10_000,
            returnInfo: null,
            remittance: null,
          },
          {
            endToEndId: "E2E-B2",
            instructionId: null,
            paymentInformationId: "PMTINF-B",
            amountMinor: 15_000,
            returnInfo: null,
            remittance: null,
          },
          {
            endToEndId: "E2E-B3",
            instructionId: null,
            paymentInformationId: "PMTINF-B",
            amountMinor: 5_000,
            returnInfo: null,
            remittance: null,
          },
        ],
      },
      {
        // A return: 50.00 sent, 49.00 back, 1.00 charged.
        bankReference: "BOOK-0003",
        status: "booked",
        bookingDate: "2026-04-02",
        valueDate: "2026-04-01",
        direction: "credit",
        amountMinor: 4_900,
        currency: "EUR",
        reversal: false,
        bankTransactionCode: "PMNT/ICDT/RRTN",
        paymentInformationId: null,
        batchCount: null,
        batchTotalMinor: null,
        achTrace: null,
        remittance: null,
        details: [
          {
            endToEndId: null,
            instructionId: null,
            paymentInformationId: null,
            amountMinor: 4_900,
            returnInfo: { originalEndToEndId: "E2E-0000", reasonCode: "AC04", originalAmountMinor: 5_000, feeMinor: 100 },
            remittance: null,
          },
        ],
      },
      {
        // Money nobody announced: no details, words only.
        bankReference: null,
        status: "booked",
        bookingDate: "2026-04-02",
        valueDate: null,
        direction: "credit",
        amountMinor: 77_700,
        currency: "EUR",
        reversal: false,
        bankTransactionCode: "PMNT/RCDT/ESCT",
        paymentInformationId: null,
        batchCount: null,
        batchTotalMinor: null,
        achTrace: null,
        remittance: "Einzahlung & Co <Filiale>",
        details: [],
      },
      {
        bankReference: "BOOK-0005",
        status: "pending",
        bookingDate: null,
        valueDate: "2026-04-03",
        direction: "debit",
        amountMinor: 999,
        currency: "EUR",
        reversal: true,
        bankTransactionCode: "ACMT/MDOP/CHRG",
        paymentInformationId: null,
        batchCount: null,
        batchTotalMinor: null,
        achTrace: null,
        remittance: null,
        details: [],
      },
    ],
    ...overrides,
  };
}

function versionOf(version: CamtVersion, statement: BankStatement): BankStatement {
  return { ...statement, format: version.startsWith("camt.053") ? "camt.053" : "camt.052", messageVersion: version };
}

describe("camt.053 and camt.052 statements, both versions", () => {
  const versions: CamtVersion[] = ["camt.053.001.02", "camt.053.001.08", "camt.052.001.02", "camt.052.001.08"];
  for (const version of versions) {
    it(`${version}: what the bank wrote is what the reader gives, and the file is valid ISO 20022`, async () => {
      const statement = versionOf(version, sampleStatement());
      const xml = await expectIsoValid(
        writeCamtStatement({ version, messageId: statement.messageId, createdAt: statement.createdAt }, [statement]),
      );
      expect(readBankStatements(xml)).toEqual([statement]);
    });
  }

  it("reads several statements (accounts) of one file, each with its own balances", async () => {
    const first = sampleStatement();
    const second = sampleStatement({
      statementId: "STMT-20260402-NL",
      account: { iban: null, number: "0532013001", currency: "EUR" },
      openingBookedMinor: -5_000,
      closingBookedMinor: 0,
      sequenceNumber: null,
      lines: [],
    });
    const xml = await expectIsoValid(
      writeCamtStatement({ version: "camt.053.001.02", messageId: "M-2", createdAt: "2026-04-02T18:00:00" }, [first, second]),
    );
    const read = readBankStatements(xml);
    expect(read.map((s) => [s.account, s.openingBookedMinor, s.closingBookedMinor, s.lines.length])).toEqual([
      [{ iban: IBAN, number: null, currency: "EUR" }, 1_000_000, 1_040_100, 5],
      [{ iban: null, number: "0532013001", currency: "EUR" }, -5_000, 0, 0],
    ]);
  });

  it("reads a hand-written camt.053.001.02: PRCD as opening, NOTPROVIDED as no reference, a batch without details, INFO skipped, a charge on the return entry (one in another currency left out)", () => {
    const xml = `<?xml version="1.0"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
<GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-04-07T06:00:00</CreDtTm></GrpHdr>
<Stmt><Id>S1</Id><LglSeqNb>12</LglSeqNb><CreDtTm>2026-04-07T06:00:00</CreDtTm>
<Acct><Id><IBAN>${IBAN}</IBAN></Id></Acct>
<Bal><Tp><CdOrPrtry><Cd>PRCD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">100.5</Amt><CdtDbtInd>DBIT</CdtDbtInd><Dt><Dt>2026-04-02</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">0.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Dt><DtTm>2026-04-07T23:59:59+02:00</DtTm></Dt></Bal>
<Ntry><Amt Ccy="EUR">70.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-04-07</Dt></BookgDt><BkTxCd><Prtry><Cd>NTRF+116</Cd></Prtry></BkTxCd>
 <NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs></TxDtls></NtryDtls></Ntry>
<Ntry><Amt Ccy="EUR">300.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-04-07</Dt></BookgDt><AcctSvcrRef>R2</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
 <NtryDtls><Btch><PmtInfId>BLOCK-7</PmtInfId><NbOfTxs>2</NbOfTxs><TtlAmt Ccy="EUR">300</TtlAmt></Btch></NtryDtls></Ntry>
<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>INFO</Sts><BkTxCd><Prtry><Cd>X</Cd></Prtry></BkTxCd></Ntry>
<Ntry><Amt Ccy="EUR">25.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-04-07</Dt></BookgDt><AcctSvcrRef>R4</AcctSvcrRef><BkTxCd><Prtry><Cd>RTRN</Cd></Prtry></BkTxCd>
 <Chrgs><Amt Ccy="EUR">2.50</Amt></Chrgs><Chrgs><Amt Ccy="USD">3.00</Amt></Chrgs>
 <NtryDtls><TxDtls><Refs><EndToEndId>E2E-9</EndToEndId><Prtry><Tp>ACH TRACE</Tp><Ref>091000010000001</Ref></Prtry></Refs><RtrInf><Rsn><Prtry>ACCOUNT CLOSED</Prtry></Rsn></RtrInf></TxDtls></NtryDtls>
 <AddtlNtryInf>RETOURE</AddtlNtryInf></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
    const [statement] = readBankStatements(xml);
    expect(statement).toMatchObject({
      sequenceNumber: 12,
      openingBookedMinor: -10_050,
      closingBookedMinor: 0,
      closingDate: "2026-04-07",
      periodFrom: null,
      account: { iban: IBAN, number: null, currency: "EUR" },
    });
    expect(statement?.lines).toHaveLength(3);
    expect(statement?.lines[0]).toMatchObject({
      bankReference: null,
      bankTransactionCode: "NTRF+116",
      details: [{ endToEndId: null }],
    });
    expect(statement?.lines[1]).toMatchObject({
      paymentInformationId: "BLOCK-7",
      batchCount: 2,
      batchTotalMinor: 30_000,
      details: [],
    });
    expect(statement?.lines[2]).toMatchObject({
      direction: "credit",
      achTrace: "091000010000001",
      remittance: "RETOURE",
      details: [
        {
          endToEndId: null,
          returnInfo: { originalEndToEndId: "E2E-9", reasonCode: "ACCOUNT CLOSED", feeMinor: 250, originalAmountMinor: null },
        },
      ],
    });
  });

  it("takes amounts in the currency's own minor units (JPY has none, BHD three)", () => {
    const write = (currency: string, amount: string) => `<?xml version="1.0"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><GrpHdr><MsgId>M</MsgId><CreDtTm>2026-04-07T06:00:00</CreDtTm></GrpHdr>
<Stmt><Id>S</Id><Acct><Id><Othr><Id>1</Id></Othr></Id><Ccy>${currency}</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-04-07</Dt></Dt></Bal></Stmt></BkToCstmrStmt></Document>`;
    expect(readBankStatements(write("JPY", "2700"))[0]?.closingBookedMinor).toBe(2700);
    expect(readBankStatements(write("BHD", "1.234"))[0]?.closingBookedMinor).toBe(1234);
    expect(readBankStatements(write("EUR", "12.50000"))[0]?.closingBookedMinor).toBe(1250);
    expect(() => readBankStatements(write("EUR", "12.505"))).toThrow(
      /12\.505 EUR has more decimals than EUR has minor units \(2\)/,
    );
    expect(() => readBankStatements(write("JPY", "1.5"))).toThrow(StatementParseError);
    expect(() => readBankStatements(write("XYZ", "1"))).toThrow(/"XYZ" is not an ISO 4217 currency code/);
  });

  it("refuses in words what it cannot read", () => {
    const refusal = (content: string) => {
      try {
        readBankStatements(content);
      } catch (error) {
        expect(error).toBeInstanceOf(StatementParseError);
        return (error as Error).message;
      }
      throw new Error("not refused");
    };
    expect(refusal("")).toMatch(/empty/);
    expect(refusal("hello")).toMatch(/neither a camt\.053\/camt\.052 statement \(XML\) nor a BAI2 file/);
    expect(refusal("<Document/>")).toMatch(/without an ISO 20022 namespace/);
    expect(
      refusal('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn/></Document>'),
    ).toMatch(/camt\.054\.001\.08 is not read here \(this message\)/);
    expect(refusal('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"/>')).toMatch(
      /this version of the statement/,
    );
    const good = writeCamtStatement({ version: "camt.053.001.08", messageId: "M", createdAt: "2026-04-02T18:00:00" }, [
      sampleStatement(),
    ]);
    expect(refusal(good.slice(0, good.length / 2))).toMatch(/not well-formed XML.*cut short/);
    expect(refusal(good.replace("<CdtDbtInd>DBIT</CdtDbtInd><Sts>", "<CdtDbtInd>DEBIT</CdtDbtInd><Sts>"))).toMatch(
      /Stmt "STMT-20260402-DE89", entry 1: the credit\/debit indicator is "DEBIT"/,
    );
    expect(refusal(good.replace("<Sts><Cd>BOOK</Cd></Sts>", "<Sts><Cd>BOOKED</Cd></Sts>"))).toMatch(
      /entry 1: the entry status is "BOOKED"/,
    );
    expect(refusal(good.replace('<Amt Ccy="EUR">125.00</Amt>', '<Amt Ccy="USD">125.00</Amt>'))).toMatch(
      /an entry in USD on an account in EUR/,
    );
    expect(refusal(good.replace("<BookgDt><Dt>2026-04-02</Dt>", "<BookgDt><Dt>2026-02-30</Dt>"))).toMatch(
      /2026-02-30 is not a calendar date/,
    );
    expect(refusal(good.replace(/<MsgId>[^<]*<\/MsgId>/, ""))).toMatch(/no message id/);
    expect(refusal(good.replace(/<Acct><Id>.*?<\/Id>/, "<Acct><Id></Id>"))).toMatch(/no account/);
    expect(refusal(good.replace("<ElctrncSeqNb>57</ElctrncSeqNb>", "<ElctrncSeqNb>5.7</ElctrncSeqNb>"))).toMatch(
      /sequence number "5\.7"/,
    );
    expect(refusal(`<!DOCTYPE x [<!ENTITY a "b">]>${good}`)).toMatch(/document type declarations are not accepted/);
    expect(refusal(good.replaceAll("BkToCstmrStmt>", "BkToCstmrAcctRpt>"))).toMatch(/not a camt\.053 statement/);
  });

  it.skipIf(!samplesPresent)("reads the genkgo/camt camt.053.001.02 and .001.08 samples", () => {
    const v2 = readBankStatements(readFileSync(resolve(SAMPLES, "genkgo-camt.camt053.v2.minimal.xml"), "utf8"));
    const v8 = readBankStatements(readFileSync(resolve(SAMPLES, "genkgo-camt.camt053.v8.xml"), "utf8"));
    for (const [read, version] of [
      [v2, "camt.053.001.02"],
      [v8, "camt.053.001.08"],
    ] as const) {
      expect(read).toHaveLength(1);
      expect(read[0]).toMatchObject({
        format: "camt.053",
        messageVersion: version,
        messageId: "CAMT053RIB000000000001",
        statementId: "253EURNL26VAYB8060476890",
        sequenceNumber: 12312,
        periodFrom: "2007-10-18",
        periodTo: "2007-10-18",
        openingBookedMinor: 1815,
        // The samples' CLBD is in SEK on a EUR account: not a balance of this account, so not given.
        closingBookedMinor: null,
      });
      expect(read[0]?.lines).toMatchObject([
        {
          status: "booked",
          direction: "credit",
          amountMinor: 885,
          currency: "EUR",
          bookingDate: "2014-12-31",
          valueDate: "2015-01-02",
        },
      ]);
    }
    expect(v2[0]?.account).toEqual({ iban: "NL26VAYB8060476890", number: null, currency: "EUR" });
    expect(v8[0]?.account).toEqual({ iban: null, number: "NL26VAYB8060476890", currency: "EUR" });
    expect(v8[0]?.lines[0]).toMatchObject({
      bankReference: "AAAASESS-FP-CN_98765/01",
      bankTransactionCode: "PMNT/RCDT/BOOK",
      details: [{ endToEndId: "MUELL/FINP/RA12345", amountMinor: null }],
    });
    expect(v2[0]?.lines[0]).toMatchObject({ bankReference: null, bankTransactionCode: "544" });
    // A notification is not a statement: said so, naming what it is.
    for (const [file, version] of [
      ["genkgo-camt.camt054.v2.xml", "camt.054.001.02"],
      ["genkgo-camt.camt054.v8.xml", "camt.054.001.08"],
    ] as const) {
      expect(() => readBankStatements(readFileSync(resolve(SAMPLES, file), "utf8"))).toThrow(
        `${version} is not read here (this message): statements are read as camt.053.001.02, camt.053.001.08, camt.052.001.02 or camt.052.001.08`,
      );
    }
  });
});

describe("statement line fingerprints", () => {
  it("names a line by the bank's reference, else by its facts, the same in any file that carries it", () => {
    const statement = sampleStatement();
    const again = readBankStatements(
      writeCamtStatement({ version: "camt.052.001.02", messageId: "OTHER", createdAt: "2026-04-02T12:00:00" }, [
        versionOf("camt.052.001.02", { ...statement, statementId: "INTRADAY", lines: statement.lines.slice(2, 4) }),
      ]),
    )[0] as BankStatement;
    const prints = statementLineFingerprints(statement);
    expect(new Set(prints).size).toBe(prints.length);
    expect(statementLineFingerprints(again)).toEqual(prints.slice(2, 4));
    expect(prints[0]).toMatch(/^ref:[0-9a-f]{64}$/);
    expect(prints[3]).toMatch(/^facts:[0-9a-f]{64}$/);
  });

  it("keeps a line's print from the intraday report's pending entry to the statement's booking, reference or not", () => {
    const statement = sampleStatement();
    const booked = statement.lines[3] as BankStatement["lines"][number];
    const pending = { ...booked, status: "pending" as const, bookingDate: null, valueDate: "2026-04-02" };
    const withValueDate = { ...booked, valueDate: "2026-04-02" };
    const intraday = versionOf("camt.052.001.08", { ...statement, lines: [pending] });
    const endOfDay = sampleStatement({ lines: [withValueDate] });
    const [fromReport] = statementLineFingerprints(
      readBankStatements(
        writeCamtStatement({ version: "camt.052.001.08", messageId: "R", createdAt: "2026-04-02T12:00:00" }, [intraday]),
      )[0] as BankStatement,
    );
    const [fromStatement] = statementLineFingerprints(
      readBankStatements(
        writeCamtStatement({ version: "camt.053.001.02", messageId: "S", createdAt: "2026-04-02T22:00:00" }, [endOfDay]),
      )[0] as BankStatement,
    );
    expect(fromReport).toMatch(/^facts:/);
    expect(fromReport).toBe(fromStatement);
  });

  it("tells apart two lines with the same facts and no reference by their order, and a changed fact changes the print", () => {
    const fee = { ...(sampleStatement().lines[3] as BankStatement["lines"][number]), remittance: "Fee" };
    const statement = sampleStatement({ lines: [fee, { ...fee }, { ...fee, amountMinor: fee.amountMinor + 1 }] });
    const [a, b, c] = statementLineFingerprints(statement);
    expect(b).toBe(`${a}#2`);
    expect(c).not.toBe(a);
    expect(statementLineFingerprint(statement, statement.lines[1] as BankStatement["lines"][number])).toBe(b);
    const otherAccount = { ...statement, account: { ...statement.account, iban: "DE02120300000000202051" } };
    expect(statementLineFingerprints(otherAccount)[0]).not.toBe(a);
  });
});
