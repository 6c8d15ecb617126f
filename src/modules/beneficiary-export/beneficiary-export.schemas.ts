// The export's 200 response as the OpenAPI document shows it: a `text/csv` body (not JSON) with its
// Content-Disposition header. Error responses stay the JSON envelope (routeResponses adds them). Fastify
// never serializes this body: the handler sends a stream.
import type { Readable } from "node:stream";
import { Type } from "@sinclair/typebox";
import { describeColumns } from "./beneficiary-export.columns.js";

export const EXPORT_DESCRIPTION = [
  "Every active (not archived) Beneficiary of the caller's Business and environment, newest first, as one CSV file (RFC 4180: comma-separated, CRLF line ends, UTF-8 without a byte-order mark, fields quoted when they hold a comma, quote or line break, quotes doubled). The first row is the header. Streamed in batches, so any number of Beneficiaries can be exported; a read-only key may export.",
  "Destination data is masked exactly as the bank-account listing shows it: never a full account number, IBAN, CLABE, Pix key or card number.",
  "Spreadsheet formula injection (OWASP's rule): a cell whose text starts with `=`, `+`, `-`, `@`, a tab or a carriage return, or whose first character after leading whitespace and invisible characters (spaces, line feeds, no-break spaces, zero-width characters, the byte-order mark) is `=`, `+`, `-` or `@` (or their full-width forms), is prefixed with a single quote `'`, so spreadsheets show it as text; a program reading the file back drops a leading `'` when the rest of the cell matches that rule. E.164 phone numbers start with `+`, so the `phone` column always carries the prefix.",
  "Empty cells stand for null. Booleans are `true`/`false`. A failure before the first byte answers the JSON error envelope; a failure mid-stream closes the connection before the end of the chunked body, which HTTP clients report as an incomplete response.",
  `Columns, in order:\n\n${describeColumns()}`,
].join("\n\n");

export const BeneficiaryCsvResponseSchema = Type.Unsafe<Readable>({
  description: "The CSV file, streamed (`Content-Type: text/csv; charset=utf-8`).",
  headers: {
    "content-disposition": {
      type: "string",
      description: 'Always `attachment; filename="beneficiaries-<environment>-<YYYYMMDD>.csv"` (UTC date).',
    },
  },
  content: {
    "text/csv": {
      schema: { type: "string", description: "The header row, then one row per Beneficiary." },
    },
  },
});
