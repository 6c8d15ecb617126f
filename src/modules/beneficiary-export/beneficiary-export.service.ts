// The Beneficiary CSV export. Memory stays flat however many Beneficiaries there are:
//   - rows are read in keyset batches (`id < last id order by id desc`, EXPORT_BATCH_SIZE at a time), each batch's
//     destinations in one more query, both in one short read-only transaction: a consistent snapshot per
//     batch, and no transaction (or pooled connection) held across the whole export, so on PGlite other
//     requests interleave between batches;
//   - the batches feed an async generator wrapped in Readable.from, piped through csv-stringify, whose output
//     stream is the reply. The generator advances only when the stream pulls for more, and reads at most one
//     batch ahead, so a slow client slows the reads down instead of filling memory (backpressure end to end);
//   - `pipeline` ties the streams together: when the client disconnects, Fastify destroys the reply's source,
//     the pipeline destroys the generator's stream, and the generator stops after the batch in flight.
// The first batch is read before the stream is handed over, so a failure there (database down, ...) still
// answers the JSON error envelope. A failure after the first bytes can only cut the response short: the
// connection is closed without the final chunk, which every HTTP client reports as an incomplete body.
import { pipeline, Readable } from "node:stream";
import { stringify } from "csv-stringify";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import { defuseFormula } from "../../platform/csv/formula.js";
import { type Db, transaction } from "../../platform/db/client.js";
import { listActiveBeneficiaryPage } from "../beneficiaries/beneficiaries.shared.js";
import type { BeneficiaryBody, BeneficiaryWithCounts } from "../beneficiaries/index.js";
import { listLiveMaskedDestinationsOf, type MaskedDestinationRow } from "../destinations/destinations.shared.js";
import { isPayoutUsable } from "../destinations/index.js";
import { EXPORT_HEADERS, type ExportDestination, type ExportRecord, toCsvRow } from "./beneficiary-export.columns.js";

/** Rows per query: large enough that per-query overhead vanishes, small enough that a batch is a few MB at most. */
export const EXPORT_BATCH_SIZE = 1_000;

export interface BeneficiaryExportServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** The Beneficiaries module's presenter: the export shows every field exactly as the API does. */
  readonly presentBeneficiary: (found: BeneficiaryWithCounts) => BeneficiaryBody;
  readonly batchSize?: number;
  /** The audit log: every export is recorded (who took the payees' list and masked accounts out) before it streams. */
  readonly recordAudit: RecordActorAudit;
}

export type BeneficiaryExportService = ReturnType<typeof createBeneficiaryExportService>;

export interface OpenedExport {
  /** `beneficiaries-<environment>-<YYYYMMDD>.csv` (UTC date). */
  readonly filename: string;
  /** The CSV text, header row first; pipe it to the client. */
  readonly csv: Readable;
}

/** Reads the batch of records strictly after (older than) `beforeId`; null for the first batch. */
export type ExportBatchReader = (beforeId: string | null) => Promise<readonly ExportRecord[]>;

/**
 * The CSV stream over batches. Reads the first batch before returning (so early failures are ordinary
 * errors); a batch shorter than `batchSize` is the last one. While a batch is being written, the next one is
 * already being read, so the database and the CSV writer work at the same time; at most one batch is read
 * ahead of what the client has taken.
 *
 * Formula injection: every string cell goes through defuseFormula (OWASP's CSV injection rule), so a
 * spreadsheet shows the text instead of evaluating it. The other cells are non-negative counts.
 */
export { defuseFormula };

export async function openCsvStream(readBatch: ExportBatchReader, batchSize: number): Promise<Readable> {
  let current: readonly ExportRecord[] | null = await readBatch(null);
  async function* rows() {
    while (current !== null) {
      const batch: readonly ExportRecord[] = current;
      current = null; // let each batch go as soon as its rows are written
      const last = batch[batch.length - 1];
      const next = batch.length < batchSize || last === undefined ? null : readBatch(last.beneficiary.id);
      // A read still in flight when the client leaves is abandoned; its failure must not go unhandled.
      next?.catch(() => {});
      for (const record of batch) yield toCsvRow(record);
      if (next !== null) current = await next;
    }
  }
  const csv = stringify({
    header: true,
    columns: [...EXPORT_HEADERS],
    record_delimiter: "windows", // CRLF, as RFC 4180 writes it
    // Quote any field holding CR or LF. csv-stringify turns this off once record_delimiter is given, and a
    // bare LF left unquoted splits the record in two for Excel, Python's csv module and most readers.
    quote_record_delimiter: true,
    cast: { string: defuseFormula },
  });
  // Errors reach the reply through `csv` (pipeline destroys it with the error); nothing more to do here.
  pipeline(Readable.from(rows()), csv, () => {});
  return csv;
}

function toExportDestination(row: MaskedDestinationRow): ExportDestination {
  return {
    id: row.id,
    kind: row.kind,
    country: row.country,
    currency: row.currency,
    last4: row.last4,
    validationStatus: row.validationStatus,
    status: row.status,
    payoutUsable: isPayoutUsable(row),
  };
}

export function createBeneficiaryExportService(deps: BeneficiaryExportServiceDeps) {
  const { db, clock, presentBeneficiary } = deps;
  const batchSize = deps.batchSize ?? EXPORT_BATCH_SIZE;

  async function readBatch(tenant: Tenant, beforeId: string | null): Promise<ExportRecord[]> {
    const { rows, destinations } = await transaction(
      db,
      async (tx) => {
        const rows = await listActiveBeneficiaryPage(tx, tenant, beforeId, batchSize);
        const destinations = await listLiveMaskedDestinationsOf(
          tx,
          tenant,
          rows.map((row) => row.id),
        );
        return { rows, destinations };
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    const byBeneficiary = new Map<string, ExportDestination[]>();
    for (const row of destinations) {
      const list = byBeneficiary.get(row.beneficiaryId);
      if (list === undefined) byBeneficiary.set(row.beneficiaryId, [toExportDestination(row)]);
      else list.push(toExportDestination(row));
    }
    return rows.map((row) => {
      const own = byBeneficiary.get(row.id) ?? [];
      const usable = own.filter((d) => d.payoutUsable);
      // The usable count comes from the same snapshot as the destination columns, so `status` and
      // `payout_destination_*` always agree (isPayoutUsable is the twin of the API's SQL count).
      const beneficiary = presentBeneficiary({ row, payoutUsableDestinations: usable.length });
      let payoutDestination: ExportRecord["payoutDestination"] = null;
      if (row.declaredDestinationId !== null) {
        const declared = own.find((d) => d.id === row.declaredDestinationId);
        if (declared !== undefined) payoutDestination = { source: "declared", destination: declared };
      } else if (usable.length === 1 && usable[0] !== undefined) {
        payoutDestination = { source: "only_payout_usable", destination: usable[0] };
      }
      return { beneficiary, destinationCount: own.length, payoutDestination };
    });
  }

  /** `beneficiaries-<environment>-<YYYYMMDD>.csv`, dated by the service clock in UTC. */
  function exportFilename(actor: Actor): string {
    const date = clock.now().toISOString().slice(0, 10).replaceAll("-", "");
    return `beneficiaries-${actor.environment}-${date}.csv`;
  }

  /** Every active Beneficiary of the caller's Business and environment, newest first, as a CSV stream. */
  async function openExport(actor: Actor): Promise<OpenedExport> {
    const tenant = tenantOf(actor);
    const filename = exportFilename(actor);
    // Recorded in its own short transaction before the first byte: an export cut short was still taken.
    await transaction(db, (tx) =>
      deps.recordAudit(tx, actor, { action: "beneficiaries_exported", subjectType: "export", subjectId: filename }),
    );
    const csv = await openCsvStream((beforeId) => readBatch(tenant, beforeId), batchSize);
    return { filename, csv };
  }

  return { openExport, exportFilename };
}
