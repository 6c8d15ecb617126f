// A strict RFC 4180 reader for the export tests: fields quoted only as a whole, `""` for a quote inside
// quotes, every record (the last one too) ended by CRLF, and a bare CR or LF allowed only inside quotes.
// Strict on purpose: a writer that got quoting or line ends wrong makes it throw.

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        const next = text[i];
        if (next !== undefined && next !== "," && next !== "\r") throw new Error(`text after a closing quote at ${i}`);
        continue;
      }
      field += c;
      i += 1;
      continue;
    }
    if (c === '"') {
      if (field !== "") throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
      i += 1;
    } else if (c === ",") {
      row.push(field);
      field = "";
      i += 1;
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 2;
    } else if (c === "\r" || c === "\n") {
      throw new Error(`bare line break outside quotes at ${i}`);
    } else {
      field += c;
      i += 1;
    }
  }
  if (quoted) throw new Error("unterminated quoted field");
  if (field !== "" || row.length > 0) throw new Error("the last record is not ended by CRLF");
  return rows;
}

/** Header and records keyed by it; every record must have exactly as many fields as the header. */
export function parseCsvRecords(text: string): { header: string[]; records: Record<string, string>[] } {
  const [header, ...rows] = parseCsv(text);
  if (header === undefined) throw new Error("no header row");
  const records = rows.map((row, index) => {
    if (row.length !== header.length) throw new Error(`record ${index + 1} has ${row.length} fields, header ${header.length}`);
    return Object.fromEntries(header.map((name, column) => [name, row[column] ?? ""]));
  });
  return { header, records };
}
