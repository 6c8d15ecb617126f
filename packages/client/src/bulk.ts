// Bulk payouts from a CSV file: the upload id is the SHA-256 of the file's bytes (WebCrypto), so sending the
// same file again replays every row instead of paying twice.
import type { PayoutsClient, RequestOptions } from "./client.js";
import { CsvError, payoutRowsFromCsv } from "./csv.js";
import type { Schemas } from "./types.js";
import { computeUploadId } from "./upload-id.js";

export { computeUploadId } from "./upload-id.js";

/** The service takes at most this many rows per call. */
export const BULK_MAX_ROWS = 1000;

export type BulkPayoutRow = Schemas["BulkPayoutRow"];
export type BulkPayoutResult = Schemas["BulkPayoutResult"];
export type BulkRowResult = BulkPayoutResult["results"][number];

export interface BulkProgress {
  readonly done: number;
  readonly total: number;
}

export interface BulkOutcome {
  /** The file's upload id (of the first part when the file was split). */
  readonly uploadId: string;
  readonly uploadIds: readonly string[];
  readonly created: number;
  readonly replayed: number;
  readonly failed: number;
  /** One entry per row of the file, `index` counted over the whole file from 0. */
  readonly results: BulkRowResult[];
}

export interface BulkOptions extends RequestOptions {
  readonly onProgress?: (progress: BulkProgress) => void;
}

/**
 * Sends payout rows in bulk. `file` is the CSV file's bytes (or text): its rows are read with the columns of
 * PAYOUT_CSV_COLUMNS and its SHA-256 is the upload id. A file of more than 1000 rows goes in parts of 1000; part
 * `n` (from 0) has the upload id `<file id>.<n>`, so each row keeps a stable idempotency key across re-uploads.
 */
export async function createPayoutsFromCsv(client: PayoutsClient, file: Uint8Array | string, options: BulkOptions = {}) {
  const text = typeof file === "string" ? file : new TextDecoder("utf-8", { fatal: true }).decode(file);
  const rows = payoutRowsFromCsv(text);
  if (rows.length === 0) throw new CsvError("csv_empty", 0, "the file has a header but no rows");
  return createPayoutsFromRows(client, rows as BulkPayoutRow[], await computeUploadId(file), options);
}

/** Sends rows already in memory under the upload id you computed (e.g. with computeUploadId). */
export async function createPayoutsFromRows(
  client: PayoutsClient,
  rows: readonly BulkPayoutRow[],
  uploadId: string,
  options: BulkOptions = {},
): Promise<BulkOutcome> {
  const parts: BulkPayoutRow[][] = [];
  for (let start = 0; start < rows.length; start += BULK_MAX_ROWS) parts.push(rows.slice(start, start + BULK_MAX_ROWS));
  const uploadIds = parts.length === 1 ? [uploadId] : parts.map((_, n) => `${uploadId}.${n}`);
  const results: BulkRowResult[] = [];
  let created = 0;
  let replayed = 0;
  let failed = 0;
  options.onProgress?.({ done: 0, total: rows.length });
  for (const [n, part] of parts.entries()) {
    const offset = n * BULK_MAX_ROWS;
    const partUploadId = uploadIds[n] ?? uploadId;
    const answer = await client.createPayoutsInBulk({ body: { uploadId: partUploadId, rows: part } }, options);
    created += answer.created;
    replayed += answer.replayed;
    failed += answer.failed;
    for (const result of answer.results) results.push({ ...result, index: result.index + offset });
    options.onProgress?.({ done: offset + part.length, total: rows.length });
  }
  return { uploadId, uploadIds, created, replayed, failed, results };
}
