// Beneficiary import files: a CSV parsed in the browser (papaparse) and each row checked by the rules the import
// API states (POST /v1/beneficiaries/import: `email` and `bank` required, and either first and last name or a
// business name) before anything is sent. The `bank_*` columns fill the row's `bank` object; the API then checks
// every field itself and answers per row. Pure code without the DOM.
import Papa from "papaparse";
import { toCsv } from "./csv.js";

export const MAX_IMPORT_ROWS = 500;
const TOP = [
  "email",
  "first_name",
  "last_name",
  "business_name",
  "beneficiary_type",
  "phone",
  "country_of_residence",
  "acknowledged",
];
const BANK = ["account_holder_name", "country", "currency", "iban", "account_number", "routing_code", "swift_bic", "bank_name"];
export const IMPORT_COLUMNS = [...TOP, ...BANK.map((b) => `bank_${b}`)];

export interface ImportPreviewRow {
  index: number;
  body: Record<string, unknown>;
  problems: string[];
}
export interface ImportFile {
  fileErrors: string[];
  rows: ImportPreviewRow[];
}

function checkRow(index: number, cells: Record<string, string>): ImportPreviewRow {
  const value = (name: string) => (cells[name] ?? "").trim();
  const body: Record<string, unknown> = {};
  const bank: Record<string, string> = {};
  for (const name of TOP) if (value(name) !== "") body[name] = value(name);
  for (const name of BANK) if (value(`bank_${name}`) !== "") bank[name] = value(`bank_${name}`);
  body.bank = bank;
  const problems: string[] = [];
  if (value("email") === "") problems.push("email is required");
  else if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value("email"))) problems.push("email is not an e-mail address");
  const person = value("first_name") !== "" && value("last_name") !== "";
  if (!person && value("business_name") === "")
    problems.push("first_name and last_name (a person) or business_name (a business) is required");
  if (body.acknowledged !== undefined) {
    const flag = String(body.acknowledged).toLowerCase();
    if (flag !== "true" && flag !== "false") problems.push("acknowledged must be true or false");
    else body.acknowledged = flag === "true";
  }
  for (const name of ["account_holder_name", "country", "currency"])
    if (bank[name] === undefined) problems.push(`bank_${name} is required`);
  if (bank.iban === undefined && bank.account_number === undefined) problems.push("bank_iban or bank_account_number is required");
  if (bank.country !== undefined) bank.country = bank.country.toUpperCase();
  if (bank.currency !== undefined) bank.currency = bank.currency.toUpperCase();
  return { index, body, problems };
}

/** Parses and checks an import file. Header names are matched without case or surrounding spaces. */
export function parseImportCsv(text: string): ImportFile {
  const result = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (header) => header.trim().toLowerCase(),
  });
  const columns = result.meta.fields ?? [];
  const fileErrors: string[] = [];
  const unknown = columns.filter((c) => !IMPORT_COLUMNS.includes(c));
  if (unknown.length > 0) fileErrors.push(`Unknown column${unknown.length === 1 ? "" : "s"}: ${unknown.join(", ")}`);
  if (!columns.includes("email")) fileErrors.push("Missing column: email");
  if (result.data.length === 0) fileErrors.push("The file has no rows");
  if (result.data.length > MAX_IMPORT_ROWS)
    fileErrors.push(`At most ${MAX_IMPORT_ROWS} rows per import (this file has ${result.data.length})`);
  return { fileErrors, rows: result.data.map((cells, index) => checkRow(index, cells)) };
}

/** One row's answer from the import API (`BeneficiaryImportResult.results[]`). */
export interface ImportRowResult {
  readonly index: number;
  readonly status: string;
  readonly beneficiary_id: string | null;
  readonly error?: { readonly code: string; readonly message: string; readonly field: string };
}

/** The row's own cells that tell a person which line it was; bank numbers stay in their own file. */
const RESULT_KEY_COLUMNS = ["email", "first_name", "last_name", "business_name", "bank_country", "bank_currency"];

/**
 * The import's results as CSV, one line per row of the file: its number (from 1, as on screen), its key cells as
 * sent (country and currency upper-cased), the API's result (`created`, `already_exists`, `duplicate`, `failed`), the Beneficiary id,
 * and for a failed row the field, code and message.
 */
export function importResultsToCsv(file: ImportFile, results: readonly ImportRowResult[]): string {
  const byIndex = new Map(results.map((r) => [r.index, r]));
  const fields = ["row", ...RESULT_KEY_COLUMNS, "result", "beneficiary_id", "error_field", "error_code", "error_message"];
  const data = file.rows.map((row) => {
    const result = byIndex.get(row.index);
    const bank = (row.body.bank ?? {}) as Record<string, string>;
    const cell = (column: string) => {
      const value = column.startsWith("bank_") ? bank[column.slice(5)] : row.body[column];
      return value === undefined ? "" : String(value);
    };
    return [
      String(row.index + 1),
      ...RESULT_KEY_COLUMNS.map(cell),
      result?.status ?? "not_sent",
      result?.beneficiary_id ?? "",
      result?.error?.field ?? "",
      result?.error?.code ?? "",
      result?.error?.message ?? "",
    ];
  });
  return toCsv(fields, data);
}
