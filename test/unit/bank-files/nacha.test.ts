import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { type NachaFile, NachaParseError, readNachaFile } from "../../../src/rails/bank-files/nacha-reader.js";
import {
  AchFileError,
  abaCheckDigit,
  buildNachaFile,
  checkAchCredit,
  isAbaRoutingNumber,
  traceNumber,
} from "../../../src/rails/bank-files/nacha-writer.js";
import { bankAchReturnFile } from "../../helpers/test-bank.js";
import { ACH_ORIGINATOR, achCredit, GOLDEN_ACH } from "./fixtures.js";

const golden = readFileSync(resolve(import.meta.dirname, "golden", "nacha-credits.ach"), "utf8");

/** What the file's own control records claim, recomputed from the entries the reader found. */
function recomputedTotals(file: NachaFile) {
  const entries = file.batches.flatMap((b) => b.entries);
  return {
    entries: entries.length,
    credit: entries.reduce((sum, e) => sum + e.amountMinor, 0),
    hash: String(entries.reduce((sum, e) => sum + Number(e.receivingRouting.slice(0, 8)), 0) % 10_000_000_000).padStart(10, "0"),
  };
}

describe("NACHA credits file", () => {
  it("writes the golden file byte for byte", () => {
    expect(buildNachaFile(GOLDEN_ACH).content).toBe(golden);
  });

  it("reads back with the independent reader: control totals, hash, blocking", () => {
    const built = buildNachaFile(GOLDEN_ACH);
    const file = readNachaFile(built.content);
    expect(file.control).toEqual({
      batchCount: 3,
      blockCount: 2,
      entryAddendaCount: 3,
      entryHash: "0015410518",
      totalDebitMinor: 0,
      totalCreditMinor: 10_000_123_456,
    });
    expect(recomputedTotals(file)).toEqual({ entries: 3, credit: 10_000_123_456, hash: "0015410518" });
    expect(file.recordCount).toBe(20); // 11 records, filled to two blocks of ten with 9s
    expect(built.totalCreditMinor).toBe(10_000_123_456);
    expect(file.immediateDestination).toBe("091000019");
    expect(file.fileIdModifier).toBe("A");
    expect(file.creationDate).toBe("2026-11-25");
  });

  it("puts persons in PPD, businesses in CCD, wages under PAYROLL, each in its own batch", () => {
    const file = readNachaFile(buildNachaFile(GOLDEN_ACH).content);
    expect(file.batches.map((b) => [b.secCode, b.entryDescription, b.effectiveDate, b.entries.length])).toEqual([
      ["CCD", "PAYOUT", "2026-11-27", 1],
      ["PPD", "PAYOUT", "2026-11-27", 1],
      ["PPD", "PAYROLL", "2026-11-27", 1],
    ]);
    const entries = file.batches.flatMap((b) => b.entries);
    expect(entries.map((e) => [e.transactionCode, e.receivingRouting, e.accountNumber, e.amountMinor, e.name])).toEqual([
      ["22", "122105155", "9876543210123", 9_999_999_999, "GLOBEX CORP. WORLDWIDE"],
      ["22", "021000021", "123456789", 123_456, "JOSE NUNEZ-O'BRIEN"],
      ["32", "011000015", "00012345", 1, "MARY SMITH"],
    ]);
  });

  it("gives each entry a unique trace number under the ODFI, returned to the caller", () => {
    const built = buildNachaFile(GOLDEN_ACH);
    const file = readNachaFile(built.content);
    const traces = file.batches.flatMap((b) => b.entries.map((e) => e.traceNumber));
    expect(traces).toEqual(["091000010000001", "091000010000002", "091000010000003"]);
    expect(built.traces.map((t) => t.traceNumber)).toEqual(traces);
    expect(built.traces[0]?.payoutId).toBe("0190f0a0-0000-7000-8000-000000000013");
    // The next file continues the originator's sequence (kept by the caller), whatever its modifier or day.
    const second = buildNachaFile({ ...GOLDEN_ACH, fileIdModifier: "B", firstTraceSequence: 4 });
    expect(second.traces.map((t) => t.traceNumber)).toEqual(["091000010000004", "091000010000005", "091000010000006"]);
  });

  it("names each batch by its file's date and modifier and its number, in the batch header's discretionary data", () => {
    const built = buildNachaFile({ ...GOLDEN_ACH, fileIdModifier: "C" });
    const file = readNachaFile(built.content);
    expect(file.batches.map((b) => [b.batchNumber, b.companyDiscretionaryData])).toEqual([
      [1, "261125C0000001"],
      [2, "261125C0000002"],
      [3, "261125C0000003"],
    ]);
    // Each entry's batch reference is the batch it went in (what bank_file_items.payment_info_id keeps).
    const inFile = file.batches.flatMap((b) => b.entries.map((e) => [e.traceNumber, b.companyDiscretionaryData]));
    expect(built.traces.map((t) => [t.traceNumber, t.batchReference])).toEqual(inFile);
  });

  it("wraps the trace sequence after 9,999,999 and refuses a sequence below 1", () => {
    expect(traceNumber("09100001", 9_999_999)).toBe("091000019999999");
    expect(traceNumber("09100001", 10_000_000)).toBe("091000010000001");
    expect(traceNumber("09100001", 2 * 9_999_999 + 5)).toBe("091000010000005");
    const across = buildNachaFile({ ...GOLDEN_ACH, firstTraceSequence: 9_999_998 });
    expect(across.traces.map((t) => t.traceNumber)).toEqual(["091000019999998", "091000019999999", "091000010000001"]);
    expect(readNachaFile(across.content).batches.flatMap((b) => b.entries.map((e) => e.traceNumber))).toEqual(
      across.traces.map((t) => t.traceNumber),
    );
    expect(() => traceNumber("09100001", 0)).toThrow(RangeError);
  });

  it("fills exactly to a multiple of ten records", () => {
    for (const count of [1, 5, 6, 7, 16, 95]) {
      const credits = Array.from({ length: count }, (_, i) =>
        achCredit({ payoutId: `0190f0a0-0000-7000-8000-${String(i).padStart(12, "0")}`, amountMinor: i + 1 }),
      );
      const file = readNachaFile(buildNachaFile({ ...GOLDEN_ACH, credits }).content);
      const records = count + 4; // file header, batch header, batch control, file control
      expect(file.recordCount).toBe(Math.ceil(records / 10) * 10);
      expect(file.control.blockCount).toBe(Math.ceil(records / 10));
      expect(file.control.totalCreditMinor).toBe((count * (count + 1)) / 2);
    }
  });

  it("zero-pads amounts and blank-pads text to the field", () => {
    const line =
      buildNachaFile(GOLDEN_ACH)
        .content.split("\r\n")
        .find((l) => l.includes("MARY SMITH")) ?? "";
    expect(line).toHaveLength(94);
    expect(line.slice(29, 39)).toBe("0000000001");
    expect(line.slice(12, 29)).toBe("00012345         ");
  });
});

describe("routing numbers and what an ACH file cannot carry", () => {
  it("computes ABA check digits", () => {
    expect(abaCheckDigit("02100002")).toBe(1);
    expect(isAbaRoutingNumber("021000021")).toBe(true);
    expect(isAbaRoutingNumber("021000022")).toBe(false);
    expect(isAbaRoutingNumber("02100002")).toBe(false);
  });

  it("refuses a wrong routing number, an amount over ten digits, a name with nothing left", () => {
    const credit = achCredit({ payoutId: "0190f0a0-0000-7000-8000-000000000099" });
    expect(checkAchCredit(credit)).toBeNull();
    expect(checkAchCredit({ ...credit, routingNumber: "021000022" })).toBe("ACH_ACCOUNT_INVALID");
    expect(checkAchCredit({ ...credit, accountNumber: "1".repeat(18) })).toBe("ACH_ACCOUNT_INVALID");
    expect(checkAchCredit({ ...credit, amountMinor: 10_000_000_000 })).toBe("ACH_AMOUNT_OUT_OF_RANGE");
    expect(checkAchCredit({ ...credit, receiverName: "王小明" })).toBe("ACH_NAME_NOT_REPRESENTABLE");
    // Cyrillic is transliterated, not dropped.
    expect(checkAchCredit({ ...credit, receiverName: "Иван" })).toBeNull();
    expect(() => buildNachaFile({ ...GOLDEN_ACH, credits: [{ ...credit, amountMinor: 0 }] })).toThrow(AchFileError);
    expect(() => buildNachaFile({ ...GOLDEN_ACH, originator: { ...ACH_ORIGINATOR, odfiRoutingNumber: "123" } })).toThrow(
      /originator/,
    );
  });
});

describe("the NACHA reader refuses inconsistent files", () => {
  const lines = golden.split("\r\n");
  const replaceLine = (index: number, line: string) => lines.map((l, i) => (i === index ? line : l)).join("\r\n");

  it("a changed amount breaks the batch totals", () => {
    const entry = lines[2] ?? "";
    const tampered = `${entry.slice(0, 29)}9999999998${entry.slice(39)}`;
    expect(() => readNachaFile(replaceLine(2, tampered))).toThrow(/dollar totals/);
  });

  it("a wrong check digit, a short record, a missing file control, a broken hash", () => {
    const entry = lines[2] ?? "";
    expect(() => readNachaFile(replaceLine(2, `${entry.slice(0, 11)}6${entry.slice(12)}`))).toThrow(/check digit/);
    expect(() => readNachaFile(replaceLine(2, entry.slice(0, 93)))).toThrow(NachaParseError);
    expect(() => readNachaFile(lines.slice(0, 10).join("\r\n"))).toThrow(/file control/);
    const control = lines[3] ?? "";
    expect(() => readNachaFile(replaceLine(3, `${control.slice(0, 10)}0000000000${control.slice(20)}`))).toThrow(/entry hash/);
    expect(() => readNachaFile("")).toThrow(/empty/);
  });

  it("reads records sent without line breaks", () => {
    const unbroken = golden.replaceAll("\r\n", "");
    expect(readNachaFile(unbroken).control.totalCreditMinor).toBe(10_000_123_456);
  });
});

describe("returns and notifications of change", () => {
  it("reads an R-code return and a C-code correction with the original trace numbers", () => {
    const text = bankAchReturnFile({
      companyIdentification: "1234567890",
      odfiIdentification: "09100001",
      returns: [
        {
          originalTrace: "091000010000002",
          receivingRouting: "021000021",
          accountNumber: "123456789",
          amountMinor: 123_456,
          name: "Jose Nunez",
          accountType: "checking",
          code: "R03",
        },
      ],
      changes: [
        {
          originalTrace: "091000010000003",
          receivingRouting: "011000015",
          accountNumber: "00012345",
          amountMinor: 0,
          name: "Mary Smith",
          accountType: "savings",
          code: "C01",
          correctedData: "00012346",
        },
      ],
    });
    const file = readNachaFile(text);
    const entries = file.batches.flatMap((b) => b.entries);
    expect(file.batches.map((b) => b.secCode)).toEqual(["PPD", "COR"]);
    expect(entries[0]?.returnInfo).toEqual({
      code: "R03",
      originalTrace: "091000010000002",
      originalReceivingDfi: "02100002",
      information: "",
    });
    expect(entries[0]?.transactionCode).toBe("21");
    expect(entries[1]?.changeInfo).toMatchObject({ code: "C01", originalTrace: "091000010000003", correctedData: "00012346" });
    expect(file.control.entryAddendaCount).toBe(4);
  });
});
