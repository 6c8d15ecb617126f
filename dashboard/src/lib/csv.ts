// Bulk upload files: a CSV parsed in the browser (papaparse), every cell checked by the rules the API states
// for a bulk row (POST /v1/payouts/bulk, schema BulkPayoutRow) before anything is sent, and the per-row results
// written back as CSV. The format is the one the client package and the CLI read (docs/decisions.md, "One bulk
// CSV format"): `amount` (currency units) and/or `amount_minor`; the cells are sent as the file has them, so the
// service applies the one conversion rule; the upload id is the client package's computeUploadId.
// Pure code without the DOM (WebCrypto is global in Node 20 too): test/unit/dashboard-csv.test.ts runs it.
import Papa from "papaparse";
import { currencyExponent } from "./money.js";

export { computeUploadId } from "@payout-orchestration/client/upload-id";

/**
 * The columns a file may have: `amount` is in the currency's units (12.50 EUR), `amount_minor` in minor units
 * (1250); a file has at least one of the two (both: they must agree on every row).
 */
export const REQUIRED_COLUMNS = ["beneficiary_id", "currency"] as const;
export const AMOUNT_COLUMNS = ["amount", "amount_minor"] as const;
export const OPTIONAL_COLUMNS = ["bank_account_id", "external_ref", "idempotency_key", "replaces_payout_id"] as const;
export type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof AMOUNT_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];
const COLUMNS: readonly string[] = [...REQUIRED_COLUMNS, ...AMOUNT_COLUMNS, ...OPTIONAL_COLUMNS];
/** The API's limit per upload. */
export const MAX_ROWS = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The row as the API takes it (`BulkPayoutRow`). */
export interface BulkRow {
  beneficiary_id: string;
  amount?: string;
  amount_minor?: number;
  currency: string;
  bank_account_id?: string;
  external_ref?: string;
  idempotency_key?: string;
  replaces_payout_id?: string;
}

export interface PreviewRow {
  /** 0-based, as the API's `results[].index`. */
  readonly index: number;
  /** The line of the file (the header is line 1). */
  readonly line: number;
  readonly cells: Readonly<Record<string, string>>;
  /** Column -> why the cell is refused. Empty for a valid row. */
  readonly errors: Readonly<Partial<Record<Column, string>>>;
  /** The row to send; null while any cell is invalid. */
  readonly row: BulkRow | null;
}

export interface ParsedFile {
  /** Problems of the whole file (missing columns, unknown columns, too many rows); nothing can be sent. */
  readonly fileErrors: readonly string[];
  readonly columns: readonly string[];
  readonly rows: readonly PreviewRow[];
}

let knownCurrencies: ReadonlySet<string> | null | undefined;
/** ISO 4217 codes the browser knows; null when it cannot list them (then the shape alone is checked). */
function currencies(): ReadonlySet<string> | null {
  if (knownCurrencies === undefined) {
    const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
    knownCurrencies = typeof intl.supportedValuesOf === "function" ? new Set(intl.supportedValuesOf("currency")) : null;
  }
  return knownCurrencies;
}

/** Why a currency cell is refused, or undefined when it is a code the API takes (capital letters, ISO 4217). */
export function currencyProblem(value: string): string | undefined {
  if (value === "") return "Required";
  if (!/^[A-Z]{3}$/.test(value)) return "Three capital letters, such as EUR";
  const known = currencies();
  if (known !== null && !known.has(value)) return `${value} is not an ISO 4217 currency code`;
  return undefined;
}

/**
 * The service's rule for `amount` (BulkPayoutRow): digits, optionally a point and at most the currency's number
 * of decimals, no sign, no thousands separator. The minor units, or why the cell is refused.
 */
export function amountProblemOrMinor(amount: string, currency: string, currencyValid: boolean): bigint | string {
  const match = /^([0-9]{1,16})(?:\.([0-9]{1,4}))?$/.exec(amount);
  if (match === null) return "A number in the currency's units with a point and no thousands separator, such as 1250.00";
  if (!currencyValid) return "Needs a valid currency";
  const exponent = currencyExponent(currency);
  const fraction = match[2] ?? "";
  if (fraction.length > exponent)
    return exponent === 0 ? `${currency} has no decimals` : `${currency} has at most ${exponent} decimals`;
  const minor = BigInt(match[1] ?? "0") * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, "0") || "0");
  if (minor < 1n) return "The amount must be more than zero";
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return "The amount is too large";
  return minor;
}

function checkRow(index: number, cells: Record<string, string>): PreviewRow {
  const errors: Partial<Record<Column, string>> = {};
  const value = (column: Column) => (cells[column] ?? "").trim();

  const beneficiary = value("beneficiary_id");
  if (beneficiary === "") errors.beneficiary_id = "Required";
  else if (!UUID.test(beneficiary)) errors.beneficiary_id = "Not a Beneficiary id (a UUID)";

  const currency = value("currency");
  const currencyError = currencyProblem(currency);
  if (currencyError !== undefined) errors.currency = currencyError;

  const amount = value("amount");
  const minorText = value("amount_minor");
  let fromAmount: bigint | null = null;
  let fromMinor: bigint | null = null;
  if (amount === "" && minorText === "") errors[cells.amount === undefined ? "amount_minor" : "amount"] = "Required";
  if (amount !== "") {
    const parsed = amountProblemOrMinor(amount, currency, currencyError === undefined);
    if (typeof parsed === "string") errors.amount = parsed;
    else fromAmount = parsed;
  }
  if (minorText !== "") {
    if (!/^[0-9]{1,16}$/.test(minorText) || BigInt(minorText) < 1n || BigInt(minorText) > BigInt(Number.MAX_SAFE_INTEGER))
      errors.amount_minor = "A whole number of minor units above 0, such as 1250";
    else fromMinor = BigInt(minorText);
  }
  if (fromAmount !== null && fromMinor !== null && fromAmount !== fromMinor) {
    errors.amount = `${amount} ${currency} is ${fromAmount} in minor units, not ${fromMinor}: keep one amount or make them agree`;
  }

  for (const column of ["bank_account_id", "replaces_payout_id"] as const) {
    const id = value(column);
    if (id !== "" && !UUID.test(id)) errors[column] = "Not an id (a UUID)";
  }
  for (const column of ["external_ref", "idempotency_key"] as const) {
    if (value(column).length > 255) errors[column] = "At most 255 characters";
  }

  const valid = Object.keys(errors).length === 0;
  const optional = (column: Column) => (value(column) === "" ? {} : { [column]: value(column) });
  return {
    index,
    line: index + 2,
    cells,
    errors,
    row: valid
      ? {
          beneficiary_id: beneficiary.toLowerCase(),
          ...(amount === "" ? {} : { amount }),
          ...(fromMinor === null ? {} : { amount_minor: Number(fromMinor) }),
          currency,
          ...optional("bank_account_id"),
          ...optional("external_ref"),
          ...optional("idempotency_key"),
          ...optional("replaces_payout_id"),
        }
      : null,
  };
}

/** Parses and checks a bulk upload file. Header names are matched without case or surrounding spaces. */
export function parseBulkCsv(text: string): ParsedFile {
  const result = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (header) => header.trim().toLowerCase(),
  });
  const columns = result.meta.fields ?? [];
  const fileErrors: string[] = [];
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length > 0) fileErrors.push(`Missing column${missing.length === 1 ? "" : "s"}: ${missing.join(", ")}`);
  if (!AMOUNT_COLUMNS.some((c) => columns.includes(c))) fileErrors.push("Missing column: amount (or amount_minor)");
  const unknown = columns.filter((c) => !COLUMNS.includes(c));
  if (unknown.length > 0)
    fileErrors.push(`Unknown column${unknown.length === 1 ? "" : "s"}: ${unknown.join(", ")} (allowed: ${COLUMNS.join(", ")})`);
  for (const error of result.errors) {
    if (error.code === "UndetectableDelimiter") continue; // a one-column file is reported as missing columns
    fileErrors.push(`Line ${(error.row ?? 0) + 2}: ${error.message}`);
  }
  if (result.data.length === 0) fileErrors.push("The file has no rows");
  if (result.data.length > MAX_ROWS) fileErrors.push(`At most ${MAX_ROWS} rows per upload (this file has ${result.data.length})`);
  return { fileErrors, columns, rows: result.data.map((cells, index) => checkRow(index, cells)) };
}

/** Rows ready to send, or null while the file or any row is invalid. */
export function rowsToSend(file: ParsedFile): BulkRow[] | null {
  if (file.fileErrors.length > 0) return null;
  const rows: BulkRow[] = [];
  for (const row of file.rows) {
    if (row.row === null) return null;
    rows.push(row.row);
  }
  return rows;
}

export interface RowResult {
  readonly index: number;
  readonly status: "created" | "replayed" | "failed";
  readonly payout_id: string | null;
  readonly payout_status: string | null;
  readonly error: { code: string; message: string } | null;
}

/** The file's rows with the API's result of each appended (status, payout id, payout status, error). */
export function resultsToCsv(file: ParsedFile, results: readonly RowResult[]): string {
  const byIndex = new Map(results.map((r) => [r.index, r]));
  const fields = [...file.columns, "result", "payout_id", "payout_status", "error_code", "error_message"];
  const data = file.rows.map((row) => {
    const result = byIndex.get(row.index);
    return [
      ...file.columns.map((c) => row.cells[c] ?? ""),
      result?.status ?? "not_sent",
      result?.payout_id ?? "",
      result?.payout_status ?? "",
      result?.error?.code ?? "",
      result?.error?.message ?? "",
    ];
  });
  return toCsv(fields, data);
}

/**
 * CSV text of a header and its rows, for a results file the person downloads (bulk upload, Beneficiary import).
 * Cells starting with = + - @ are prefixed with ' so a spreadsheet does not run them as formulas.
 */
export function toCsv(fields: readonly string[], data: readonly (readonly string[])[]): string {
  return Papa.unparse({ fields: [...fields], data: data.map((row) => [...row]) }, { escapeFormulae: true });
}
