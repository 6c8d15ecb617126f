// Node.js helpers: read a CSV file from disk for the bulk routes.
import { readFile } from "node:fs/promises";
import { type BulkOptions, createPayoutsFromCsv } from "./bulk.js";
import type { PayoutsClient } from "./client.js";
import { beneficiaryRowsFromCsv } from "./csv.js";

/** Bulk payouts from a CSV file on disk; the upload id is the SHA-256 of its bytes. */
export async function createPayoutsFromCsvFile(client: PayoutsClient, file: string, options: BulkOptions = {}) {
  return createPayoutsFromCsv(client, new Uint8Array(await readFile(file)), options);
}

/** Beneficiary rows from a CSV file on disk (see beneficiaryRowsFromCsv for the columns). */
export async function readBeneficiaryCsvFile(file: string) {
  return beneficiaryRowsFromCsv(await readFile(file, "utf8"));
}

export * from "./index.js";
