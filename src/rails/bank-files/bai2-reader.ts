// Reader of BAI2 cash management balance reports (Bank Administration Institute, version 2, as US banks send
// them), written from the published record layouts: 01 file header, 02 group header, 03 account identifier and
// summary, 16 transaction detail, 88 continuation (of any record, 03 and 16 included), 49 account trailer,
// 98 group trailer, 99 file trailer. Fields are separated by commas; a slash ends a record (the fields it leaves
// out take their defaults); the text of a 16 record is the rest of the record, commas and slashes included, and
// goes on in its 88 records. Amounts are whole numbers of minor units (no decimal point). The control totals
// and record counts of 49, 98 and 99 are checked: a file that does not add up is refused, naming the record.
import { currencyExponent } from "../../platform/reference/iso-codes.js";
import { BAI2_MAX_RECORD_LENGTH, STATEMENT_MAX_ENTRIES } from "./limits.js";
import { type BankStatement, type StatementLine, StatementParseError } from "./statement-types.js";

/** One record as written: its code, what follows the code's comma, and its line in the file. */
interface PhysicalRecord {
  readonly code: string;
  readonly content: string;
  readonly lineNumber: number;
}

/** A record with its 88 continuations. */
interface LogicalRecord {
  readonly code: string;
  readonly parts: readonly PhysicalRecord[];
}

/**
 * Reads the fields of a logical record in order, across its continuations. A field ends at a comma or a slash;
 * after a slash the physical record's remaining fields are defaulted (read as empty) and reading goes on in the
 * next 88 record, if any.
 */
class FieldReader {
  private part = 0;
  private position = 0;
  private ended = false;
  fieldNumber = 0;

  constructor(private readonly record: LogicalRecord) {}

  /** Where the reader is, for a message: `line 12 (16 record), field 3`. */
  where(): string {
    const part = this.record.parts[Math.min(this.part, this.record.parts.length - 1)] as PhysicalRecord;
    return `line ${part.lineNumber} (${this.record.code} record), field ${this.fieldNumber + 1}`;
  }

  /** The next field, "" when defaulted, null when the record (with its continuations) has no more. */
  next(): string | null {
    for (;;) {
      const part = this.record.parts[this.part];
      if (!part) return null;
      if (this.ended || this.position >= part.content.length) {
        this.part += 1;
        this.position = 0;
        this.ended = false;
        continue;
      }
      const content = part.content;
      let end = this.position;
      while (end < content.length && content[end] !== "," && content[end] !== "/") end += 1;
      const value = content.slice(this.position, end).trim();
      this.fieldNumber += 1;
      if (end >= content.length) {
        this.position = content.length;
      } else if (content[end] === "/") {
        this.ended = true;
      } else {
        this.position = end + 1;
        // A record ending in a comma goes on in its continuation: the empty tail is not a field.
        if (this.position >= content.length) this.ended = true;
      }
      return value;
    }
  }

  /** Whether any field is left. */
  atEnd(): boolean {
    for (let index = this.part; index < this.record.parts.length; index += 1) {
      const part = this.record.parts[index] as PhysicalRecord;
      const from = index === this.part ? this.position : 0;
      if (index === this.part && this.ended) continue;
      if (from < part.content.length && part.content.slice(from).replace(/\/\s*$/, "") !== "") return false;
    }
    return true;
  }

  /**
   * The text field: the rest of the current record and every continuation after it, joined by a space, each
   * piece without its trailing slash (the record's end mark, not text). Null when there is none.
   */
  rest(): string | null {
    const pieces: string[] = [];
    for (let index = this.part; index < this.record.parts.length; index += 1) {
      const part = this.record.parts[index] as PhysicalRecord;
      if (index === this.part && this.ended) continue;
      const from = index === this.part ? this.position : 0;
      const piece = part.content.slice(from).trimEnd().replace(/\/$/, "").trim();
      if (piece !== "") pieces.push(piece);
    }
    this.part = this.record.parts.length;
    return pieces.length === 0 ? null : pieces.join(" ");
  }
}

function splitPhysicalRecords(content: string): PhysicalRecord[] {
  let lines = content.split(/\r\n|\n|\r/);
  // Fixed-length records without line breaks: cut at the physical record length the file header names.
  if (lines.filter((line) => line.trim() !== "").length === 1) {
    const header = /^01,(?:[^,/]*,){5}(\d{2,4}),/.exec(content);
    const length = header ? Number(header[1]) : 0;
    if (length >= 20 && content.trim().length > length) {
      lines = [];
      for (let start = 0; start < content.length; start += length) lines.push(content.slice(start, start + length));
    }
  }
  const records: PhysicalRecord[] = [];
  lines.forEach((raw, index) => {
    const line = raw.replace(/\s+$/, "");
    if (line === "") return;
    const lineNumber = index + 1;
    if (line.length > BAI2_MAX_RECORD_LENGTH)
      throw new StatementParseError(
        `BAI2 line ${lineNumber} is ${line.length} characters long: not a BAI2 record (at most ${BAI2_MAX_RECORD_LENGTH})`,
      );
    const match = /^(\d{2}),?/.exec(line);
    if (!match)
      throw new StatementParseError(
        `BAI2 line ${lineNumber} does not start with a two-digit record code: ${JSON.stringify(line.slice(0, 20))}`,
      );
    const code = match[1] as string;
    if (!["01", "02", "03", "16", "49", "88", "98", "99"].includes(code))
      throw new StatementParseError(
        `BAI2 line ${lineNumber}: record code ${code} is not a BAI2 record (01, 02, 03, 16, 49, 88, 98, 99)`,
      );
    records.push({ code, content: line.slice(match[0].length), lineNumber });
  });
  return records;
}

function logicalRecords(physical: readonly PhysicalRecord[]): LogicalRecord[] {
  const records: { code: string; parts: PhysicalRecord[] }[] = [];
  for (const record of physical) {
    if (record.code === "88") {
      const previous = records.at(-1);
      if (!previous)
        throw new StatementParseError(
          `BAI2 line ${record.lineNumber}: a continuation (88) record with nothing before it to continue`,
        );
      previous.parts.push(record);
    } else {
      records.push({ code: record.code, parts: [record] });
    }
  }
  return records;
}

function parseDate(value: string | null, where: string): string {
  if (value === null || !/^\d{6}$/.test(value))
    throw new StatementParseError(`${where}: ${JSON.stringify(value ?? "")} is not a date (YYMMDD)`);
  const year = Number(value.slice(0, 2));
  const day = `${year < 70 ? 2000 + year : 1900 + year}-${value.slice(2, 4)}-${value.slice(4, 6)}`;
  const parsed = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day)
    throw new StatementParseError(`${where}: ${value} is not a calendar date (YYMMDD)`);
  return day;
}

function parseTime(value: string | null, where: string): string {
  if (value === null || value === "") return "00:00:00";
  if (value === "2400" || value === "9999") return "23:59:59";
  const match = /^([01]\d|2[0-3])([0-5]\d)$/.exec(value);
  if (!match)
    throw new StatementParseError(`${where}: ${JSON.stringify(value)} is not a time (HHMM, 2400 or 9999 for the end of the day)`);
  return `${match[1]}:${match[2]}:00`;
}

function parseAmount(value: string | null, where: string, signedAllowed: boolean): number {
  const pattern = signedAllowed ? /^[+-]?\d{1,15}$/ : /^\d{1,15}$/;
  if (value === null || !pattern.test(value))
    throw new StatementParseError(
      `${where}: ${JSON.stringify(value ?? "")} is not an amount (${signedAllowed ? "an optional sign and " : ""}digits of minor units, no decimal point)`,
    );
  const amount = Number(value);
  return amount === 0 ? 0 : amount;
}

function checkCurrency(code: string, where: string): string {
  if (currencyExponent(code) === null)
    throw new StatementParseError(`${where}: ${JSON.stringify(code)} is not an ISO 4217 currency code`);
  return code;
}

/**
 * The funds type of a summary or a detail and the fields it brings: 0, 1, 2, Z or empty (none), S (three
 * amounts: immediate, one day, more than one day), V (value date and time), D (a count, then that many pairs
 * of days and amount). Answers the value date when V gives one.
 */
function readFundsType(fields: FieldReader, where: string): string | null {
  const fundsType = (fields.next() ?? "").toUpperCase();
  switch (fundsType) {
    case "":
    case "0":
    case "1":
    case "2":
    case "Z":
      return null;
    case "S":
      for (let index = 0; index < 3; index += 1) {
        const amount = fields.next();
        if (amount !== null && amount !== "") parseAmount(amount, `${where}, funds type S availability ${fields.where()}`, true);
      }
      return null;
    case "V": {
      const date = parseDate(fields.next(), `${where}, funds type V value date ${fields.where()}`);
      parseTime(fields.next(), `${where}, funds type V value time ${fields.where()}`);
      return date;
    }
    case "D": {
      const countText = fields.next();
      if (countText === null || !/^\d{1,3}$/.test(countText))
        throw new StatementParseError(
          `${where}, funds type D: ${JSON.stringify(countText ?? "")} is not a number of distributions (${fields.where()})`,
        );
      for (let index = 0; index < Number(countText); index += 1) {
        const days = fields.next();
        if (days === null || !/^\d{1,3}$/.test(days))
          throw new StatementParseError(
            `${where}, funds type D distribution ${index + 1}: ${JSON.stringify(days ?? "")} is not a number of days (${fields.where()})`,
          );
        parseAmount(fields.next(), `${where}, funds type D distribution ${index + 1} amount (${fields.where()})`, true);
      }
      return null;
    }
    default:
      throw new StatementParseError(
        `${where}: funds type ${JSON.stringify(fundsType)} is not one of 0, 1, 2, S, V, D, Z (${fields.where()})`,
      );
  }
}

/**
 * Whether a detail type code is a credit or a debit: 100-399 credits, 400-699 debits, and the customised
 * ranges 920-959 credits and 960-999 debits. Status codes (001-099, 900-919), the totals 100 and 400, and the
 * unused 700-899 are not details: refused.
 */
function directionOf(typeCode: string, where: string): "credit" | "debit" {
  if (!/^\d{3}$/.test(typeCode))
    throw new StatementParseError(`${where}: type code ${JSON.stringify(typeCode)} is not three digits`);
  const code = Number(typeCode);
  if ((code > 100 && code < 400) || (code >= 920 && code <= 959)) return "credit";
  if ((code > 400 && code < 700) || (code >= 960 && code <= 999)) return "debit";
  throw new StatementParseError(
    `${where}: type code ${typeCode} is ${code < 100 || (code >= 900 && code <= 919) ? "a status (balance) code" : code === 100 || code === 400 ? "a summary total" : "outside the BAI2 credit and debit ranges"}, not a transaction`,
  );
}

interface AccountTotals {
  amount: number;
  records: number;
}

function checkTotal(
  label: string,
  record: LogicalRecord,
  expected: { amount: number; count?: { name: string; value: number }; records: number },
): void {
  const fields = new FieldReader(record);
  const line = record.parts[0]?.lineNumber ?? 0;
  const where = `BAI2 line ${line} (${label})`;
  const total = parseAmount(fields.next(), `${where}, control total`, true);
  if (expected.count) {
    const countText = fields.next();
    if (countText === null || !/^\d{1,9}$/.test(countText))
      throw new StatementParseError(
        `${where}: the number of ${expected.count.name} ${JSON.stringify(countText ?? "")} is not a count`,
      );
    if (Number(countText) !== expected.count.value)
      throw new StatementParseError(
        `${where}: it says ${countText} ${expected.count.name}, the file holds ${expected.count.value}`,
      );
  }
  const recordsText = fields.next();
  if (recordsText === null || !/^\d{1,9}$/.test(recordsText))
    throw new StatementParseError(`${where}: the number of records ${JSON.stringify(recordsText ?? "")} is not a count`);
  if (total !== expected.amount)
    throw new StatementParseError(
      `${where}: the control total is ${total}, the amounts it covers add up to ${expected.amount}; the file may be cut or altered`,
    );
  if (Number(recordsText) !== expected.records)
    throw new StatementParseError(
      `${where}: it counts ${recordsText} records, there are ${expected.records}; the file may be cut or altered`,
    );
}

/** Reads a BAI2 file: one BankStatement per account (03 … 49) of every group. */
export function readBai2Statements(content: string): BankStatement[] {
  const physical = splitPhysicalRecords(content.replace(/^\uFEFF/, ""));
  const records = logicalRecords(physical);
  const first = records[0];
  if (first?.code !== "01") throw new StatementParseError("a BAI2 file starts with a file header (01) record");
  const header = new FieldReader(first);
  const sender = header.next() ?? "";
  header.next(); // receiver
  const createdDate = parseDate(header.next(), "BAI2 file header (01), creation date");
  const createdTime = parseTime(header.next(), "BAI2 file header (01), creation time");
  const fileId = header.next() ?? "";
  if (sender === "") throw new StatementParseError("BAI2 file header (01): no sender identification");
  if (fileId === "") throw new StatementParseError("BAI2 file header (01): no file identification number");
  header.next(); // physical record length
  header.next(); // block size
  const version = header.next() ?? "";
  if (version !== "2" && version !== "02")
    throw new StatementParseError(
      `BAI2 file header (01): version ${JSON.stringify(version)}; only BAI version 2 is read${version === "3" ? " (version 3 is BTRS)" : ""}`,
    );
  const messageId = `${sender}/${fileId}/${createdDate}`;
  const statements: BankStatement[] = [];
  let fileTotal = 0;
  let groupCount = 0;
  let lineCount = 0;
  let index = 1;
  const physicalCount = (record: LogicalRecord) => record.parts.length;
  let fileRecords = physicalCount(first);
  let closed = false;
  while (index < records.length) {
    const record = records[index] as LogicalRecord;
    const line = record.parts[0]?.lineNumber ?? 0;
    if (closed) throw new StatementParseError(`BAI2 line ${line}: a ${record.code} record after the file trailer (99)`);
    if (record.code === "99") {
      fileRecords += physicalCount(record);
      checkTotal("file trailer 99", record, {
        amount: fileTotal,
        count: { name: "groups", value: groupCount },
        records: fileRecords,
      });
      closed = true;
      index += 1;
      continue;
    }
    if (record.code !== "02")
      throw new StatementParseError(
        `BAI2 line ${line}: a ${record.code} record where a group header (02) or the file trailer (99) belongs`,
      );
    // Group
    groupCount += 1;
    const group = new FieldReader(record);
    group.next(); // ultimate receiver
    const originator = group.next() ?? "";
    const status = group.next() ?? "";
    const groupWhere = `BAI2 line ${line} (group header 02)`;
    if (status === "2")
      throw new StatementParseError(
        `${groupWhere}: the group is a deletion (status 2) of an earlier report; it is not applied: ask the bank what to delete`,
      );
    if (status === "4") throw new StatementParseError(`${groupWhere}: the group is marked test only (status 4)`);
    if (status !== "1" && status !== "3")
      throw new StatementParseError(
        `${groupWhere}: group status ${JSON.stringify(status)}, expected 1 (update) or 3 (correction)`,
      );
    const asOfDate = parseDate(group.next(), `${groupWhere}, as-of date`);
    const asOfTime = group.next();
    parseTime(asOfTime, `${groupWhere}, as-of time`);
    const groupCurrencyText = group.next() ?? "";
    const groupCurrency = groupCurrencyText === "" ? "USD" : checkCurrency(groupCurrencyText, `${groupWhere}, currency`);
    let groupTotal = 0;
    let accountCount = 0;
    let groupRecords = physicalCount(record);
    index += 1;
    for (;;) {
      const next = records[index];
      if (!next)
        throw new StatementParseError(
          `BAI2: the group that starts on line ${line} has no group trailer (98); the file looks cut short`,
        );
      const nextLine = next.parts[0]?.lineNumber ?? 0;
      if (next.code === "98") {
        groupRecords += physicalCount(next);
        checkTotal("group trailer 98", next, {
          amount: groupTotal,
          count: { name: "accounts", value: accountCount },
          records: groupRecords,
        });
        fileTotal += groupTotal;
        fileRecords += groupRecords;
        index += 1;
        break;
      }
      if (next.code !== "03")
        throw new StatementParseError(
          `BAI2 line ${nextLine}: a ${next.code} record where an account (03) or the group trailer (98) belongs`,
        );
      // Account
      accountCount += 1;
      const account = new FieldReader(next);
      const accountWhere = `BAI2 line ${nextLine} (account 03)`;
      const accountNumber = account.next() ?? "";
      if (accountNumber === "") throw new StatementParseError(`${accountWhere}: no account number`);
      const currencyText = account.next() ?? "";
      const currency = currencyText === "" ? groupCurrency : checkCurrency(currencyText, `${accountWhere}, currency`);
      const totals: AccountTotals = { amount: 0, records: physicalCount(next) };
      let opening: number | null = null;
      let closing: number | null = null;
      while (!account.atEnd()) {
        const typeCode = account.next();
        if (typeCode === null) break;
        if (typeCode === "") continue; // a defaulted position after a slash
        if (!/^\d{3}$/.test(typeCode))
          throw new StatementParseError(
            `${accountWhere}: type code ${JSON.stringify(typeCode)} is not three digits (${account.where()})`,
          );
        const amountText = account.next();
        const amount =
          amountText === null || amountText === ""
            ? null
            : parseAmount(amountText, `${accountWhere}, amount of type ${typeCode} (${account.where()})`, true);
        const itemCount = account.next();
        if (itemCount !== null && itemCount !== "" && !/^\d{1,9}$/.test(itemCount))
          throw new StatementParseError(
            `${accountWhere}: item count ${JSON.stringify(itemCount)} of type ${typeCode} is not a count (${account.where()})`,
          );
        readFundsType(account, `${accountWhere}, type ${typeCode}`);
        if (amount !== null) totals.amount += amount;
        if (typeCode === "010" && amount !== null) opening = amount;
        if (typeCode === "015" && amount !== null) closing = amount;
      }
      const lines: StatementLine[] = [];
      index += 1;
      for (;;) {
        const detail = records[index];
        if (!detail)
          throw new StatementParseError(
            `BAI2: the account that starts on line ${nextLine} has no account trailer (49); the file looks cut short`,
          );
        const detailLine = detail.parts[0]?.lineNumber ?? 0;
        if (detail.code === "49") {
          totals.records += physicalCount(detail);
          checkTotal(`account trailer 49 of account ${accountNumber}`, detail, {
            amount: totals.amount,
            records: totals.records,
          });
          groupTotal += totals.amount;
          groupRecords += totals.records;
          index += 1;
          break;
        }
        if (detail.code !== "16")
          throw new StatementParseError(
            `BAI2 line ${detailLine}: a ${detail.code} record where a transaction (16) or the account trailer (49) belongs`,
          );
        totals.records += physicalCount(detail);
        lineCount += 1;
        if (lineCount > STATEMENT_MAX_ENTRIES)
          throw new StatementParseError(
            `the file holds more than ${STATEMENT_MAX_ENTRIES} transactions; ask the bank for smaller files`,
          );
        const fields = new FieldReader(detail);
        const where = `BAI2 line ${detailLine} (transaction 16)`;
        const typeCode = fields.next() ?? "";
        const direction = directionOf(typeCode, where);
        const amountMinor = parseAmount(fields.next(), `${where}, amount`, false);
        const valueDate = readFundsType(fields, where);
        const bankReference = fields.next() ?? "";
        const customerReference = fields.next() ?? "";
        const text = fields.rest();
        totals.amount += amountMinor;
        lines.push({
          bankReference: bankReference === "" ? null : bankReference,
          status: "booked",
          bookingDate: asOfDate,
          valueDate,
          direction,
          amountMinor,
          currency,
          reversal: false,
          bankTransactionCode: typeCode,
          paymentInformationId: null,
          batchCount: null,
          batchTotalMinor: null,
          achTrace: customerReference === "" ? null : customerReference,
          remittance: text,
          details: [],
        });
        index += 1;
      }
      statements.push({
        format: "bai2",
        messageVersion: "bai2",
        messageId,
        statementId: `${fileId}:${originator}:${asOfDate}:${accountNumber}`,
        sequenceNumber: /^\d{1,15}$/.test(fileId) ? Number(fileId) : null,
        account: { iban: null, number: accountNumber, currency },
        createdAt: `${createdDate}T${createdTime}`,
        periodFrom: asOfDate,
        periodTo: asOfDate,
        openingBookedMinor: opening,
        closingBookedMinor: closing,
        closingDate: closing === null ? null : asOfDate,
        lines,
      });
    }
  }
  if (!closed) throw new StatementParseError("BAI2: the file has no file trailer (99); it looks cut short");
  return statements;
}
