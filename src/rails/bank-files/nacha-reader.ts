// A reader of NACHA files, written from the record layouts and sharing no code with nacha-writer.ts: it reads
// the bank's return and notification-of-change files, and the tests read back every file the writer makes.
// Positions below are the 1-based, inclusive column ranges of the NACHA Operating Rules' record formats.
// It checks what a receiving ACH operator checks: record lengths and order, batch and file control counts,
// entry hashes and dollar totals, block count, and routing-number check digits.

export interface NachaEntry {
  readonly transactionCode: string;
  /** The receiving DFI's eight-digit identification and its check digit (nine digits together). */
  readonly receivingRouting: string;
  readonly accountNumber: string;
  readonly amountMinor: number;
  readonly identification: string;
  readonly name: string;
  readonly traceNumber: string;
  readonly addendaIndicator: string;
  /**
   * Return entry detail (addenda type 99): the R-code, the original entry's trace number, the original
   * receiving DFI identification (its eight digits, positions 28-35) and the RDFI's words.
   */
  readonly returnInfo: {
    readonly code: string;
    readonly originalTrace: string;
    readonly originalReceivingDfi: string;
    readonly information: string;
  } | null;
  /** Notification of change (addenda type 98), with the same original trace and receiving DFI fields. */
  readonly changeInfo: {
    readonly code: string;
    readonly originalTrace: string;
    readonly originalReceivingDfi: string;
    readonly correctedData: string;
  } | null;
}

export interface NachaBatch {
  readonly serviceClassCode: string;
  readonly companyName: string;
  /** Company Discretionary Data (positions 21-40): our writer puts the batch's reference there. */
  readonly companyDiscretionaryData: string;
  readonly companyIdentification: string;
  readonly secCode: string;
  readonly entryDescription: string;
  readonly effectiveDate: string;
  readonly odfiIdentification: string;
  readonly batchNumber: number;
  readonly entries: readonly NachaEntry[];
  readonly control: {
    readonly entryAddendaCount: number;
    readonly entryHash: string;
    readonly totalDebitMinor: number;
    readonly totalCreditMinor: number;
  };
}

export interface NachaFile {
  readonly immediateDestination: string;
  readonly immediateOrigin: string;
  readonly creationDate: string;
  readonly creationTime: string;
  readonly fileIdModifier: string;
  readonly destinationName: string;
  readonly originName: string;
  readonly batches: readonly NachaBatch[];
  readonly control: {
    readonly batchCount: number;
    readonly blockCount: number;
    readonly entryAddendaCount: number;
    readonly entryHash: string;
    readonly totalDebitMinor: number;
    readonly totalCreditMinor: number;
  };
  /** Physical records including the `9…9` filler lines. */
  readonly recordCount: number;
}

export class NachaParseError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(line === null ? message : `line ${line}: ${message}`);
    this.name = "NachaParseError";
  }
}

/** Column range [from, to], 1-based and inclusive, as printed in the record layouts. */
function cols(line: string, from: number, to: number): string {
  return line.substring(from - 1, to);
}

function digits(line: string, from: number, to: number, lineNo: number, what: string): number {
  const raw = cols(line, from, to);
  if (!/^[0-9]+$/.test(raw)) throw new NachaParseError(`${what} is not numeric (${JSON.stringify(raw)})`, lineNo);
  return Number.parseInt(raw, 10);
}

function routingCheckDigitOk(nine: string): boolean {
  if (!/^[0-9]{9}$/.test(nine)) return false;
  const d = [...nine].map(Number) as number[];
  const total =
    3 * ((d[0] ?? 0) + (d[3] ?? 0) + (d[6] ?? 0)) +
    7 * ((d[1] ?? 0) + (d[4] ?? 0) + (d[7] ?? 0)) +
    ((d[2] ?? 0) + (d[5] ?? 0) + (d[8] ?? 0));
  return total % 10 === 0;
}

function toIsoDate(yymmdd: string): string {
  if (!/^[0-9]{6}$/.test(yymmdd)) return "";
  return `20${yymmdd.slice(0, 2)}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}

function splitRecords(text: string): string[] {
  const withoutBreaks = text.replace(/\r?\n$/, "");
  if (withoutBreaks.includes("\n")) return withoutBreaks.split(/\r?\n/);
  // Some banks send the records unbroken: cut every 94 characters.
  const out: string[] = [];
  for (let i = 0; i < withoutBreaks.length; i += 94) out.push(withoutBreaks.slice(i, i + 94));
  return out;
}

/** Parses and checks a whole NACHA file; throws NachaParseError on the first inconsistency. */
export function readNachaFile(text: string): NachaFile {
  const records = splitRecords(text);
  if (records.length === 0 || records[0] === "") throw new NachaParseError("empty file", null);
  records.forEach((line, index) => {
    if (line.length !== 94) throw new NachaParseError(`a record must have 94 characters, this one has ${line.length}`, index + 1);
  });

  const header = records[0] ?? "";
  if (cols(header, 1, 1) !== "1") throw new NachaParseError("the file must begin with a file header record (type 1)", 1);
  if (cols(header, 35, 37) !== "094" || cols(header, 38, 39) !== "10" || cols(header, 40, 40) !== "1") {
    throw new NachaParseError("the file header must declare record size 094, blocking factor 10 and format code 1", 1);
  }

  const batches: NachaBatch[] = [];
  let fileControl: NachaFile["control"] | null = null;
  let lineNo = 1;
  let index = 1;
  while (index < records.length) {
    const line = records[index] ?? "";
    lineNo = index + 1;
    const type = cols(line, 1, 1);
    if (fileControl !== null) {
      if (line !== "9".repeat(94)) throw new NachaParseError("only filler records may follow the file control record", lineNo);
      index += 1;
      continue;
    }
    if (type === "5") {
      const result = readBatch(records, index);
      batches.push(result.batch);
      index = result.next;
      continue;
    }
    if (type === "9") {
      fileControl = {
        batchCount: digits(line, 2, 7, lineNo, "batch count"),
        blockCount: digits(line, 8, 13, lineNo, "block count"),
        entryAddendaCount: digits(line, 14, 21, lineNo, "entry/addenda count"),
        entryHash: cols(line, 22, 31),
        totalDebitMinor: digits(line, 32, 43, lineNo, "total debit amount"),
        totalCreditMinor: digits(line, 44, 55, lineNo, "total credit amount"),
      };
      index += 1;
      continue;
    }
    throw new NachaParseError(`unexpected record type ${JSON.stringify(type)}`, lineNo);
  }
  if (fileControl === null) throw new NachaParseError("the file control record (type 9) is missing", null);

  let entryAddenda = 0;
  let hash = 0n;
  let debit = 0;
  let credit = 0;
  for (const batch of batches) {
    entryAddenda += batch.control.entryAddendaCount;
    hash += BigInt(batch.control.entryHash);
    debit += batch.control.totalDebitMinor;
    credit += batch.control.totalCreditMinor;
  }
  if (fileControl.batchCount !== batches.length)
    throw new NachaParseError("file control batch count does not match the batches", null);
  if (fileControl.entryAddendaCount !== entryAddenda)
    throw new NachaParseError("file control entry/addenda count does not match", null);
  if (BigInt(fileControl.entryHash) !== hash % 10_000_000_000n)
    throw new NachaParseError("file control entry hash does not match", null);
  if (fileControl.totalDebitMinor !== debit || fileControl.totalCreditMinor !== credit) {
    throw new NachaParseError("file control dollar totals do not match the batches", null);
  }
  if (records.length % 10 !== 0) throw new NachaParseError("the file is not blocked by 10 records", null);
  if (fileControl.blockCount !== records.length / 10) throw new NachaParseError("file control block count does not match", null);

  return {
    immediateDestination: cols(header, 4, 13).trim(),
    immediateOrigin: cols(header, 14, 23).trim(),
    creationDate: toIsoDate(cols(header, 24, 29)),
    creationTime: `${cols(header, 30, 31)}:${cols(header, 32, 33)}`,
    fileIdModifier: cols(header, 34, 34),
    destinationName: cols(header, 41, 63).trimEnd(),
    originName: cols(header, 64, 86).trimEnd(),
    batches,
    control: fileControl,
    recordCount: records.length,
  };
}

function readBatch(records: readonly string[], start: number): { batch: NachaBatch; next: number } {
  const header = records[start] ?? "";
  const headerLine = start + 1;
  const serviceClassCode = cols(header, 2, 4);
  if (!["200", "220", "225"].includes(serviceClassCode))
    throw new NachaParseError(`unknown service class code ${serviceClassCode}`, headerLine);
  const entries: NachaEntry[] = [];
  let index = start + 1;
  let addendaCount = 0;
  let hash = 0n;
  let debit = 0;
  let credit = 0;
  while (index < records.length && cols(records[index] ?? "", 1, 1) === "6") {
    const line = records[index] ?? "";
    const lineNo = index + 1;
    const receivingRouting = cols(line, 4, 12);
    if (!routingCheckDigitOk(receivingRouting)) throw new NachaParseError("receiving DFI check digit is wrong", lineNo);
    const transactionCode = cols(line, 2, 3);
    const amountMinor = digits(line, 30, 39, lineNo, "amount");
    // Second digit of the transaction code: 2, 3, 4 credit (live, prenote, zero-dollar); 7, 8, 9 debit; 1 and 6 returns.
    const kind = transactionCode[1];
    if (kind === "1" || kind === "2" || kind === "3" || kind === "4") credit += amountMinor;
    else if (kind === "6" || kind === "7" || kind === "8" || kind === "9") debit += amountMinor;
    else throw new NachaParseError(`unknown transaction code ${transactionCode}`, lineNo);
    hash += BigInt(cols(line, 4, 11));
    const addendaIndicator = cols(line, 79, 79);
    let returnInfo: NachaEntry["returnInfo"] = null;
    let changeInfo: NachaEntry["changeInfo"] = null;
    index += 1;
    while (index < records.length && cols(records[index] ?? "", 1, 1) === "7") {
      const addenda = records[index] ?? "";
      addendaCount += 1;
      const addendaType = cols(addenda, 2, 3);
      if (addendaType === "99") {
        returnInfo = {
          code: cols(addenda, 4, 6),
          originalTrace: cols(addenda, 7, 21),
          originalReceivingDfi: cols(addenda, 28, 35).trim(),
          information: cols(addenda, 36, 79).trim(),
        };
      } else if (addendaType === "98") {
        changeInfo = {
          code: cols(addenda, 4, 6),
          originalTrace: cols(addenda, 7, 21),
          originalReceivingDfi: cols(addenda, 28, 35).trim(),
          correctedData: cols(addenda, 36, 64).trim(),
        };
      }
      index += 1;
    }
    if (addendaIndicator === "0" && (returnInfo || changeInfo))
      throw new NachaParseError("addenda present but the indicator is 0", lineNo);
    entries.push({
      transactionCode,
      receivingRouting,
      accountNumber: cols(line, 13, 29).trim(),
      amountMinor,
      identification: cols(line, 40, 54).trim(),
      name: cols(line, 55, 76).trim(),
      traceNumber: cols(line, 80, 94),
      addendaIndicator,
      returnInfo,
      changeInfo,
    });
  }
  const control = records[index] ?? "";
  const controlLine = index + 1;
  if (cols(control, 1, 1) !== "8") throw new NachaParseError("batch control record (type 8) expected", controlLine);
  const batchNumber = digits(header, 88, 94, headerLine, "batch number");
  const parsedControl = {
    entryAddendaCount: digits(control, 5, 10, controlLine, "entry/addenda count"),
    entryHash: cols(control, 11, 20),
    totalDebitMinor: digits(control, 21, 32, controlLine, "total debit amount"),
    totalCreditMinor: digits(control, 33, 44, controlLine, "total credit amount"),
  };
  if (cols(control, 2, 4) !== serviceClassCode)
    throw new NachaParseError("batch control service class differs from its header", controlLine);
  if (digits(control, 88, 94, controlLine, "batch number") !== batchNumber)
    throw new NachaParseError("batch control number differs", controlLine);
  if (parsedControl.entryAddendaCount !== entries.length + addendaCount)
    throw new NachaParseError("batch entry/addenda count does not match", controlLine);
  if (BigInt(parsedControl.entryHash) !== hash % 10_000_000_000n)
    throw new NachaParseError("batch entry hash does not match", controlLine);
  if (parsedControl.totalDebitMinor !== debit || parsedControl.totalCreditMinor !== credit) {
    throw new NachaParseError("batch dollar totals do not match its entries", controlLine);
  }
  if (cols(control, 45, 54) !== cols(header, 41, 50))
    throw new NachaParseError("batch control company identification differs", controlLine);
  return {
    batch: {
      serviceClassCode,
      companyName: cols(header, 5, 20).trim(),
      companyDiscretionaryData: cols(header, 21, 40).trim(),
      companyIdentification: cols(header, 41, 50).trim(),
      secCode: cols(header, 51, 53),
      entryDescription: cols(header, 54, 63).trim(),
      effectiveDate: toIsoDate(cols(header, 70, 75)),
      odfiIdentification: cols(header, 80, 87),
      batchNumber,
      entries,
      control: parsedControl,
    },
    next: index + 1,
  };
}
