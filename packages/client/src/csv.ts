// CSV files for the bulk routes: an RFC 4180 reader (quotes, doubled quotes, CRLF or LF, a BOM), strict
// enough to name the line of a broken file, and the mapping of columns to the JSON rows the routes take.
// Dependency-free so that the browser build stays small.

export class CsvError extends Error {
  override readonly name = "CsvError";
  /** 1-based line of the file where the problem is (the header is line 1); 0 when the file as a whole is wrong. */
  readonly line: number;
  readonly code: "csv_malformed" | "csv_bad_header" | "csv_bad_row" | "csv_empty" | "csv_too_many_rows";
  constructor(code: CsvError["code"], line: number, message: string) {
    super(line > 0 ? `line ${line}: ${message}` : message);
    this.code = code;
    this.line = line;
  }
}

export interface CsvTable {
  readonly header: string[];
  /** Each record with the line it starts on. */
  readonly records: { readonly line: number; readonly values: string[] }[];
}

/** Parses CSV text; every record must have as many fields as the header. */
export function parseCsv(text: string): CsvTable {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: { line: number; values: string[] }[] = [];
  let field = "";
  let values: string[] = [];
  let line = 1;
  let recordLine = 1;
  let inQuotes = false;
  let quotedField = false;
  for (let i = 0; i < source.length; i += 1) {
    const c = source[i];
    if (inQuotes) {
      if (c === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i += 1;
        } else inQuotes = false;
      } else {
        if (c === "\n") line += 1;
        field += c;
      }
      continue;
    }
    if (c === '"') {
      if (field !== "" || quotedField) throw new CsvError("csv_malformed", line, "a quote inside an unquoted field");
      inQuotes = true;
      quotedField = true;
    } else if (c === ",") {
      values.push(field);
      field = "";
      quotedField = false;
    } else if (c === "\r" || c === "\n") {
      if (c === "\r" && source[i + 1] === "\n") i += 1;
      values.push(field);
      if (!(values.length === 1 && values[0] === "" && !quotedField)) rows.push({ line: recordLine, values });
      values = [];
      field = "";
      quotedField = false;
      line += 1;
      recordLine = line;
    } else {
      if (quotedField) throw new CsvError("csv_malformed", line, "text after a closing quote");
      field += c;
    }
  }
  if (inQuotes) throw new CsvError("csv_malformed", recordLine, "a quoted field is not closed");
  if (field !== "" || quotedField || values.length > 0) {
    values.push(field);
    rows.push({ line: recordLine, values });
  }
  const first = rows.shift();
  if (first === undefined) throw new CsvError("csv_empty", 0, "the file is empty");
  const header = first.values.map((name) => name.trim());
  const seen = new Set<string>();
  for (const name of header) {
    if (name === "") throw new CsvError("csv_bad_header", 1, "an empty column name");
    if (seen.has(name)) throw new CsvError("csv_bad_header", 1, `column "${name}" appears twice`);
    seen.add(name);
  }
  for (const row of rows) {
    if (row.values.length !== header.length) {
      throw new CsvError("csv_bad_row", row.line, `${row.values.length} fields where the header has ${header.length}`);
    }
  }
  return { header, records: rows };
}

/**
 * The columns of the one bulk payouts CSV format (the dashboard's upload, createPayoutsFromCsv, the CLI's
 * `payouts payouts bulk`). Header names are matched without case or surrounding spaces. `amount` is in the
 * currency's units (`12.50` EUR, `1500` JPY), `amount_minor` in minor units (`1250`); a row gives either or
 * both (then they must agree: the service refuses the row otherwise).
 */
export const PAYOUT_CSV_COLUMNS = [
  "beneficiary_id",
  "amount",
  "amount_minor",
  "currency",
  "bank_account_id",
  "external_ref",
  "idempotency_key",
  "replaces_payout_id",
] as const;
const PAYOUT_REQUIRED = ["beneficiary_id", "currency"];

/**
 * Payout rows for `POST /v1/payouts/bulk`: columns as in PAYOUT_CSV_COLUMNS (required: beneficiary_id, currency,
 * and amount or amount_minor); an empty cell is left out. `amount` is sent as the decimal string of the file, so
 * the service converts it with the currency's exponent (ISO 4217) and reports a row with too many decimals, or
 * whose two amounts disagree, `failed` for that row without failing the file; an `amount_minor` that is not an
 * integer is sent as it is, with the same effect.
 */
export function payoutRowsFromCsv(text: string): Record<string, unknown>[] {
  const parsed = parseCsv(text);
  const table = { ...parsed, header: parsed.header.map((name) => name.toLowerCase()) };
  const twice = table.header.find((name, i) => table.header.indexOf(name) !== i);
  if (twice !== undefined) throw new CsvError("csv_bad_header", 1, `column "${twice}" appears twice`);
  checkHeader(table.header, PAYOUT_CSV_COLUMNS, PAYOUT_REQUIRED);
  if (!table.header.includes("amount") && !table.header.includes("amount_minor")) {
    throw new CsvError("csv_bad_header", 1, 'missing column "amount" (in the currency\'s units, e.g. 12.50) or "amount_minor"');
  }
  return table.records.map((record) => {
    const row: Record<string, unknown> = {};
    table.header.forEach((name, index) => {
      const value = (record.values[index] ?? "").trim();
      if (value === "") return;
      row[name] = name === "amount_minor" && /^-?\d{1,16}$/.test(value) ? Number(value) : value;
    });
    return row;
  });
}

export const BENEFICIARY_CSV_REQUIRED = ["email"];
const BENEFICIARY_TOP_LEVEL = [
  "email",
  "acknowledged",
  "beneficiary_type",
  "nickname",
  "phone",
  "first_name",
  "last_name",
  "country_of_residence",
  "date_of_birth",
  "business_name",
  "country_of_incorporation",
  "registration_number",
  "tax_id",
];
const BENEFICIARY_NESTED = ["bank", "postal_address"];

/**
 * Beneficiary rows for `POST /v1/beneficiaries/import`: one column per field, nested fields with a dot
 * (`bank.iban`, `bank.country`, `postal_address.city`, …); `acknowledged` takes true/false. Empty cells are left
 * out. Unknown top-level columns are refused here, so a typo in the header fails before anything is sent.
 */
export function beneficiaryRowsFromCsv(text: string): Record<string, unknown>[] {
  const table = parseCsv(text);
  for (const name of table.header) {
    const top = name.split(".")[0] ?? "";
    if (!name.includes(".") && !BENEFICIARY_TOP_LEVEL.includes(name)) {
      throw new CsvError("csv_bad_header", 1, `unknown column "${name}"`);
    }
    if (name.includes(".") && !/^[a-z_]+\.[a-z_]+$/.test(name)) throw new CsvError("csv_bad_header", 1, `bad column "${name}"`);
    if (name.includes(".") && !BENEFICIARY_NESTED.includes(top))
      throw new CsvError("csv_bad_header", 1, `unknown column "${name}"`);
  }
  for (const name of BENEFICIARY_CSV_REQUIRED) {
    if (!table.header.includes(name)) throw new CsvError("csv_bad_header", 1, `missing column "${name}"`);
  }
  if (!table.header.some((name) => name.startsWith("bank."))) {
    throw new CsvError("csv_bad_header", 1, 'no "bank.*" column (e.g. bank.iban, bank.country, bank.currency)');
  }
  return table.records.map((record) => {
    const row: Record<string, unknown> = {};
    table.header.forEach((name, index) => {
      const value = (record.values[index] ?? "").trim();
      if (value === "") return;
      const [outer, inner] = name.split(".") as [string, string | undefined];
      if (inner === undefined) {
        row[outer] = outer === "acknowledged" ? parseBoolean(value, record.line) : value;
      } else {
        const nested = (row[outer] ?? {}) as Record<string, unknown>;
        nested[inner] = value;
        row[outer] = nested;
      }
    });
    return row;
  });
}

function parseBoolean(value: string, line: number): boolean {
  const lower = value.toLowerCase();
  if (lower === "true" || lower === "yes" || lower === "1") return true;
  if (lower === "false" || lower === "no" || lower === "0") return false;
  throw new CsvError("csv_bad_row", line, `acknowledged must be true or false, not "${value}"`);
}

function checkHeader(header: readonly string[], allowed: readonly string[], required: readonly string[]): void {
  for (const name of header) {
    if (!allowed.includes(name))
      throw new CsvError("csv_bad_header", 1, `unknown column "${name}" (columns: ${allowed.join(", ")})`);
  }
  for (const name of required) {
    if (!header.includes(name)) throw new CsvError("csv_bad_header", 1, `missing column "${name}"`);
  }
}
