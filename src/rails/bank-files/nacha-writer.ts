// The NACHA file of US ACH credits (the ODFI's origination file): PPD entries for persons, CCD entries for
// businesses, credits to checking (transaction code 22) or savings (32). 94-character records, blocked by 10
// (the last block filled with lines of `9`), batch and file control totals, entry hash, trace numbers.
// Written from the NACHA record layouts; the reader in nacha-reader.ts is a separate implementation that the
// tests use to check every file written here.
import { toNachaText } from "./charset.js";
import { ACH_MAX_AMOUNT_MINOR, ACH_TEXT_LIMITS, achTextProblems } from "./limits.js";

export type AchAccountType = "checking" | "savings";
export type AchSecCode = "PPD" | "CCD";

export interface AchOriginator {
  /** The ODFI's nine-digit routing number (its first eight digits are the ODFI identification). */
  readonly odfiRoutingNumber: string;
  /** File header: the bank the file goes to (nine-digit routing number) and its name. */
  readonly immediateDestination: string;
  readonly immediateDestinationName: string;
  /** File header: who sends the file (ten characters, usually a routing number or the company id) and its name. */
  readonly immediateOrigin: string;
  readonly immediateOriginName: string;
  readonly companyName: string;
  /** Ten characters, assigned by the ODFI (often `1` + the EIN). */
  readonly companyIdentification: string;
}

export interface AchCredit {
  readonly payoutId: string;
  readonly amountMinor: number;
  readonly secCode: AchSecCode;
  readonly accountType: AchAccountType;
  readonly routingNumber: string;
  readonly accountNumber: string;
  /** Individual name (PPD) or receiving company name (CCD). */
  readonly receiverName: string;
  /** Individual identification number / identification number (15 characters at most). */
  readonly receiverId: string;
  /** Company Entry Description (ten characters): `PAYROLL` for wages, else the Business's description. */
  readonly entryDescription: string;
  /** Effective entry date (YYYY-MM-DD), a Federal Reserve business day. */
  readonly effectiveDate: string;
}

export interface AchFile {
  readonly originator: AchOriginator;
  /** File creation, in the ODFI's time zone: YYYY-MM-DD and HH:MM. */
  readonly createdDate: string;
  readonly createdTime: string;
  /** A-Z then 0-9: distinguishes files created the same day for the same destination and origin. */
  readonly fileIdModifier: string;
  /**
   * The originator's trace sequence of the file's first entry (default 1); the entries take the following
   * ones. The caller keeps the sequence (a database counter per ODFI, never reset per file), so no two entries
   * it ever sends carry the same trace number until the sequence wraps (see traceNumber).
   */
  readonly firstTraceSequence?: number;
  readonly credits: readonly AchCredit[];
}

export type AchCreditProblem =
  | "ACH_ACCOUNT_INVALID"
  | "ACH_AMOUNT_OUT_OF_RANGE"
  | "ACH_NAME_NOT_REPRESENTABLE"
  | "ACH_FIELD_TOO_LONG";

export class AchFileError extends Error {
  constructor(
    readonly code: AchCreditProblem | "ACH_FILE_EMPTY" | "ACH_FILE_TOO_LARGE" | "ACH_CONFIGURATION_INVALID",
    message: string,
    readonly payoutId: string | null = null,
  ) {
    super(message);
    this.name = "AchFileError";
  }
}

/** Entry Description words that NACHA reserves for a use: PAYROLL (wages, PPD credits), PURCHASE (e-commerce). */
export const RESERVED_ENTRY_DESCRIPTIONS = ["PAYROLL", "PURCHASE"] as const;
const MAX_ENTRIES_PER_FILE = 99_999; // trace sequence space per file (see traceNumber)
const RECORD_LENGTH = 94;
const BLOCKING_FACTOR = 10;

/** The ABA routing number check digit of its first eight digits (weights 3, 7, 1). */
export function abaCheckDigit(firstEight: string): number {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(firstEight[i]) * (weights[i] ?? 0);
  return (10 - (sum % 10)) % 10;
}

export function isAbaRoutingNumber(value: string): boolean {
  return /^\d{9}$/.test(value) && abaCheckDigit(value.slice(0, 8)) === Number(value[8]);
}

/**
 * The first problem that keeps a credit out of a NACHA file, or null. Payout creation refuses these first
 * (bank-rails routing check); here they guard payouts created before a rule existed: a name too long for
 * its 22 characters fails the payout at the cut-off instead of leaving cut.
 */
export function checkAchCredit(
  credit: Pick<AchCredit, "amountMinor" | "routingNumber" | "accountNumber" | "receiverName">,
): AchCreditProblem | null {
  if (!Number.isSafeInteger(credit.amountMinor) || credit.amountMinor < 1 || credit.amountMinor > ACH_MAX_AMOUNT_MINOR) {
    return "ACH_AMOUNT_OUT_OF_RANGE";
  }
  if (!isAbaRoutingNumber(credit.routingNumber) || !/^[0-9A-Za-z-]{1,17}$/.test(credit.accountNumber))
    return "ACH_ACCOUNT_INVALID";
  if (!/[A-Z0-9]/.test(toNachaText(credit.receiverName, ACH_TEXT_LIMITS.receiverName))) return "ACH_NAME_NOT_REPRESENTABLE";
  if (achTextProblems({ name: credit.receiverName }).length > 0) return "ACH_FIELD_TOO_LONG";
  return null;
}

function alpha(value: string, length: number): string {
  return toNachaText(value, length).padEnd(length, " ");
}

function numeric(value: number | bigint | string, length: number): string {
  const text = String(value);
  if (!/^\d+$/.test(text) || text.length > length) throw new RangeError(`${text} does not fit ${length} digits`);
  return text.padStart(length, "0");
}

function yymmdd(date: string): string {
  return `${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}`;
}

function record(...fields: string[]): string {
  const line = fields.join("");
  if (line.length !== RECORD_LENGTH) throw new Error(`internal: a NACHA record of ${line.length} characters`);
  return line;
}

interface Batch {
  readonly key: string;
  readonly secCode: AchSecCode;
  readonly entryDescription: string;
  readonly effectiveDate: string;
  readonly credits: AchCredit[];
}

function groupIntoBatches(credits: readonly AchCredit[]): Batch[] {
  const batches = new Map<string, Batch>();
  for (const credit of credits) {
    const description = alpha(credit.entryDescription, 10);
    const key = `${credit.effectiveDate}|${credit.secCode}|${description}`;
    let batch = batches.get(key);
    if (!batch) {
      batch = { key, secCode: credit.secCode, entryDescription: description, effectiveDate: credit.effectiveDate, credits: [] };
      batches.set(key, batch);
    }
    batch.credits.push(credit);
  }
  return [...batches.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The seven-digit part of a trace number holds 1 … 9,999,999; the sequence then starts again at 1. */
export const TRACE_SEQUENCE_SPACE = 9_999_999;

/**
 * The trace number of the entry at position `sequence` (1, 2, …) of the originator's sequence at its ODFI:
 * the ODFI's eight-digit identification, then the sequence in seven digits. The sequence is never reset per
 * file or per day; past 9,999,999 it wraps to 0000001 (a return is then still told apart by its amount,
 * account and date: see the inbound matching).
 */
export function traceNumber(odfiIdentification: string, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`a trace sequence starts at 1, not ${sequence}`);
  return `${odfiIdentification}${numeric(((sequence - 1) % TRACE_SEQUENCE_SPACE) + 1, 7)}`;
}

/**
 * The reference of a file's batch (issue 28): the file's creation date (YYMMDD) and File ID Modifier, which name the
 * file among the originator's files of that day, then the batch number (seven digits), e.g. `261126A0000001`.
 * Written in the batch header's Company Discretionary Data (positions 21-40, the originator's own field) so the
 * bank has it to report when it books the batch as one line (the BAI2 customer reference of the settlement line);
 * kept on each item (bank_file_items.payment_info_id) as a SEPA PmtInfId is, for the reconciliation's batch rule.
 */
export function achBatchReference(createdDate: string, fileIdModifier: string, batchNumber: number): string {
  return `${yymmdd(createdDate)}${fileIdModifier}${numeric(batchNumber, 7)}`;
}

export interface BuiltAchFile {
  readonly content: string;
  /**
   * Each payout's trace number, in file order: what returns and notifications of change refer to; and the
   * reference of the batch it went in (achBatchReference).
   */
  readonly traces: ReadonlyArray<{ readonly payoutId: string; readonly traceNumber: string; readonly batchReference: string }>;
  readonly entryCount: number;
  readonly totalCreditMinor: number;
}

/** The whole NACHA file, records separated by CRLF (lines of exactly 94 characters). */
export function buildNachaFile(file: AchFile): BuiltAchFile {
  const { originator } = file;
  if (file.credits.length === 0) throw new AchFileError("ACH_FILE_EMPTY", "An ACH file needs at least one credit.");
  if (file.credits.length > MAX_ENTRIES_PER_FILE)
    throw new AchFileError("ACH_FILE_TOO_LARGE", "At most 99,999 entries per ACH file.");
  if (
    !isAbaRoutingNumber(originator.odfiRoutingNumber) ||
    !isAbaRoutingNumber(originator.immediateDestination) ||
    !/^[A-Z0-9]$/.test(file.fileIdModifier) ||
    !/^[ 0-9A-Z]{1,10}$/.test(originator.immediateOrigin) ||
    !/^[0-9A-Z ]{1,10}$/.test(originator.companyIdentification)
  ) {
    throw new AchFileError("ACH_CONFIGURATION_INVALID", "The ACH originator configuration is not valid.");
  }
  for (const credit of file.credits) {
    const problem = checkAchCredit(credit);
    if (problem)
      throw new AchFileError(problem, `Payout ${credit.payoutId} cannot go in an ACH file (${problem}).`, credit.payoutId);
  }

  const odfi = originator.odfiRoutingNumber.slice(0, 8);
  const lines: string[] = [];
  const traces: Array<{ payoutId: string; traceNumber: string; batchReference: string }> = [];
  lines.push(
    record(
      "1",
      "01",
      ` ${originator.immediateDestination}`,
      originator.immediateOrigin.padStart(10, " "),
      yymmdd(file.createdDate),
      file.createdTime.replace(":", ""),
      file.fileIdModifier,
      "094",
      "10",
      "1",
      alpha(originator.immediateDestinationName, 23),
      alpha(originator.immediateOriginName, 23),
      " ".repeat(8),
    ),
  );

  let entryIndex = 0;
  let fileEntryCount = 0;
  let fileHash = 0n;
  let fileCreditMinor = 0n;
  const batches = groupIntoBatches(file.credits);
  batches.forEach((batch, batchIndex) => {
    const batchNumber = numeric(batchIndex + 1, 7);
    const batchReference = achBatchReference(file.createdDate, file.fileIdModifier, batchIndex + 1);
    const companyId = originator.companyIdentification.padEnd(10, " ");
    lines.push(
      record(
        "5",
        "220", // credits only
        alpha(originator.companyName, 16),
        batchReference.padEnd(20, " "), // Company Discretionary Data: our batch reference

        companyId,
        batch.secCode,
        batch.entryDescription,
        " ".repeat(6),
        yymmdd(batch.effectiveDate),
        "   ", // settlement date: the ACH operator fills it
        "1",
        odfi,
        batchNumber,
      ),
    );
    let batchHash = 0n;
    let batchCreditMinor = 0n;
    for (const credit of batch.credits) {
      const trace = traceNumber(odfi, (file.firstTraceSequence ?? 1) + entryIndex);
      entryIndex += 1;
      traces.push({ payoutId: credit.payoutId, traceNumber: trace, batchReference });
      const rdfi = credit.routingNumber.slice(0, 8);
      batchHash += BigInt(rdfi);
      batchCreditMinor += BigInt(credit.amountMinor);
      lines.push(
        record(
          "6",
          credit.accountType === "checking" ? "22" : "32",
          rdfi,
          credit.routingNumber.slice(8, 9),
          credit.accountNumber.toUpperCase().padEnd(17, " "),
          numeric(credit.amountMinor, 10),
          alpha(credit.receiverId, 15),
          alpha(credit.receiverName, ACH_TEXT_LIMITS.receiverName),
          "  ",
          "0",
          trace,
        ),
      );
    }
    const hash = batchHash % 10_000_000_000n;
    lines.push(
      record(
        "8",
        "220",
        numeric(batch.credits.length, 6),
        numeric(hash, 10),
        numeric(0, 12),
        numeric(batchCreditMinor, 12),
        companyId,
        " ".repeat(19),
        " ".repeat(6),
        odfi,
        batchNumber,
      ),
    );
    fileEntryCount += batch.credits.length;
    fileHash += batchHash;
    fileCreditMinor += batchCreditMinor;
  });

  const recordCount = lines.length + 1; // with the file control record
  const blockCount = Math.ceil(recordCount / BLOCKING_FACTOR);
  lines.push(
    record(
      "9",
      numeric(batches.length, 6),
      numeric(blockCount, 6),
      numeric(fileEntryCount, 8),
      numeric(fileHash % 10_000_000_000n, 10),
      numeric(0, 12),
      numeric(fileCreditMinor, 12),
      " ".repeat(39),
    ),
  );
  while (lines.length % BLOCKING_FACTOR !== 0) lines.push("9".repeat(RECORD_LENGTH));
  return {
    content: `${lines.join("\r\n")}\r\n`,
    traces,
    entryCount: fileEntryCount,
    totalCreditMinor: Number(fileCreditMinor),
  };
}
