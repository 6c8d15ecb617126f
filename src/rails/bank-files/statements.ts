// Readers of bank statements: camt.053 (end of day) and camt.052 (intraday), versions .001.02 and .001.08, and
// BAI2 (US banks). `readBankStatements` detects the format; every refusal is a StatementParseError whose message
// says, in words, what is wrong and where. Pure: no I/O, no clock.
import { createHash } from "node:crypto";
import { readBai2Statements } from "./bai2-reader.js";
import { readCamtStatements } from "./camt-statements.js";
import { STATEMENT_MAX_BYTES } from "./limits.js";
import { type BankStatement, type StatementLine, StatementParseError } from "./statement-types.js";

export type {
  BankStatement,
  StatementFormat,
  StatementLine,
  StatementLineDetail,
  StatementMessageVersion,
} from "./statement-types.js";

export { StatementParseError };

/**
 * Reads every statement of a camt.053 or camt.052 (.001.02 or .001.08) or BAI2 file, told apart by their first
 * characters: `<` for XML, a record code and a comma (`01,`) for BAI2. One file may hold several statements (accounts, groups).
 */
export function readBankStatements(content: string): BankStatement[] {
  if (content.length > STATEMENT_MAX_BYTES)
    throw new StatementParseError(
      `the file is larger than ${STATEMENT_MAX_BYTES / 1024 / 1024} MB: ask the bank for smaller statements`,
    );
  const start = content.replace(/^\uFEFF/, "").trimStart();
  if (start === "") throw new StatementParseError("the file is empty: not a statement");
  if (start.startsWith("<")) return readCamtStatements(start);
  if (/^\d{2},/.test(start)) return readBai2Statements(start);
  throw new StatementParseError(
    `neither a camt.053/camt.052 statement (XML) nor a BAI2 file: it starts with ${JSON.stringify(start.slice(0, 20))}`,
  );
}

function lineFacts(statement: BankStatement, line: StatementLine): string {
  const references = [
    line.paymentInformationId ?? "",
    line.achTrace ?? "",
    ...line.details.map((d) => `${d.endToEndId ?? ""}|${d.instructionId ?? ""}|${d.returnInfo?.originalEndToEndId ?? ""}`),
  ];
  return JSON.stringify([
    statement.account.iban ?? "",
    statement.account.number ?? "",
    statement.account.currency,
    // The value date when given, else the booking date: a pending entry of an intraday report has no booking
    // date yet, and is the same line once the end-of-day statement books it.
    line.valueDate ?? line.bookingDate ?? "",
    line.direction,
    line.reversal,
    line.amountMinor,
    line.currency,
    references,
    line.remittance ?? "",
  ]);
}

/**
 * What identifies a line across files: the bank's reference when it gives one (with the account, since two banks
 * may reuse a reference), else a SHA-256 of the line's facts (account, value date or else booking date, direction,
 * reversal, amount, currency, references, remittance; not the status, so a pending entry booked later keeps it). Two lines of the same statement with the same facts are told apart by their order
 * (`#2`, `#3`): the second fee of 1.00 on a day is a second fee, and a re-sent file numbers them the same way.
 * Computed once per statement (kept beside it while the statement object lives).
 */
export function statementLineFingerprint(statement: BankStatement, line: StatementLine): string {
  const index = statement.lines.indexOf(line);
  if (index < 0) return fingerprintsOf({ ...statement, lines: [line] })[0] as string;
  return statementLineFingerprints(statement)[index] as string;
}

const fingerprintCache = new WeakMap<BankStatement, { lines: readonly StatementLine[]; length: number; prints: string[] }>();

/** The fingerprint of every line of `statement`, in order (see statementLineFingerprint). */
export function statementLineFingerprints(statement: BankStatement): string[] {
  const cached = fingerprintCache.get(statement);
  if (cached && cached.lines === statement.lines && cached.length === statement.lines.length) return cached.prints;
  const prints = fingerprintsOf(statement);
  fingerprintCache.set(statement, { lines: statement.lines, length: statement.lines.length, prints });
  return prints;
}

function fingerprintsOf(statement: BankStatement): string[] {
  const account = `${statement.account.iban ?? statement.account.number ?? ""}/${statement.account.currency}`;
  const seen = new Map<string, number>();
  return statement.lines.map((line) => {
    if (line.bankReference !== null && line.bankReference !== "") {
      return `ref:${createHash("sha256")
        .update(JSON.stringify([account, line.bankReference]))
        .digest("hex")}`;
    }
    const digest = createHash("sha256").update(lineFacts(statement, line)).digest("hex");
    const occurrence = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, occurrence);
    return occurrence === 1 ? `facts:${digest}` : `facts:${digest}#${occurrence}`;
  });
}
