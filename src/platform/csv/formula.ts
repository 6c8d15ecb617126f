// Spreadsheet formula injection (OWASP's CSV injection rule), for every CSV file the service writes (the
// Beneficiary export, the payouts export).

// Characters a spreadsheet skips or shows as nothing before the first visible one: whitespace (space, LF,
// NBSP, the Unicode spaces), zero-width characters, word joiners, bidirectional marks and the BOM.
const INVISIBLE_LEAD = /^[\s\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]+/;
// =, +, -, @ and their full-width forms, which spreadsheets also read as formula starts.
const FORMULA_START = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * OWASP's CSV injection rule: a cell that starts with `=`, `+`, `-`, `@`, tab or carriage return, or whose
 * first character after leading whitespace and invisible characters is one of `= + - @`, is prefixed with
 * a single quote. Spreadsheets strip leading spaces and ignore zero-width characters before evaluating,
 * so ` =1+1`, `\n=1+1`, NBSP or U+200B then `=` are formulas too.
 */
export function defuseFormula(cell: string): string {
  if (cell.startsWith("\t") || cell.startsWith("\r")) return `'${cell}`;
  return FORMULA_START.test(cell.replace(INVISIBLE_LEAD, "")) ? `'${cell}` : cell;
}
