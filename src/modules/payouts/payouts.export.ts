// GET /v1/payouts/export: the payouts list with the list's filters as one CSV file, streamed. Memory stays flat
// however many payouts match, as in the Beneficiary export (beneficiary-export.service.ts):
//   - payouts are read in keyset batches (`id < last id order by id desc`, the list's newest-first order and
//     index), each batch's payee names and masked destinations in two more queries by id; no transaction or
//     pooled connection is held across the export;
//   - the batches feed an async generator wrapped in Readable.from, piped through csv-stringify, whose output
//     stream is the reply: the generator advances only when the stream pulls, at most one batch ahead, so a slow
//     client slows the reads down instead of filling memory;
//   - the first batch is read before the stream is handed over, so an early failure still answers the JSON error
//     envelope; a failure mid-stream closes the connection before the chunked body's end.
// Cells go through defuseFormula (OWASP's CSV injection rule); the destination is its stored masked last
// characters (platform/masking.ts) with its kind, scheme and country: never an account number.
import { pipeline, Readable } from "node:stream";
import { stringify } from "csv-stringify";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import { defuseFormula } from "../../platform/csv/formula.js";
import { type Db, transaction } from "../../platform/db/client.js";
import { findPayeeNames } from "../beneficiaries/beneficiaries.shared.js";
import { type DestinationSummary, findDestinationSummaries } from "../destinations/destinations.shared.js";
import { majorAmount } from "./payouts.lifecycle.js";
import { listPayoutsNewestFirst, type PayoutFilters, type PayoutRow } from "./payouts.repo.js";
import type { PayoutFilterQuery } from "./payouts.schemas.js";
import { listFiltersOf } from "./payouts.service.js";

/** Rows per query: large enough that per-query overhead vanishes, small enough that a batch is a few MB at most. */
export const PAYOUT_EXPORT_BATCH_SIZE = 500;

/** One line of the export: the payout with its payee's display name and its masked destination. */
export interface PayoutExportRecord {
  readonly payout: PayoutRow;
  readonly payeeName: string | null;
  readonly destination: DestinationSummary | null;
}

type Cell = string | number | null;
interface Column {
  readonly header: string;
  readonly description: string;
  readonly value: (record: PayoutExportRecord) => Cell;
}
const iso = (date: Date | null) => (date === null ? null : date.toISOString());
const p = (pick: (payout: PayoutRow) => Cell) => (record: PayoutExportRecord) => pick(record.payout);

export const PAYOUT_EXPORT_COLUMNS: readonly Column[] = [
  { header: "payout_id", description: "Payout id.", value: p((x) => x.id) },
  { header: "created_at", description: "When it was created (ISO 8601, UTC).", value: p((x) => iso(x.createdAt)) },
  { header: "status", description: "The payout's status, as the API shows it.", value: p((x) => x.status) },
  {
    header: "amount",
    description: "In the currency's units, a decimal string with as many decimals as the currency has (`12.50`).",
    value: p((x) => majorAmount(x)),
  },
  { header: "amount_minor", description: "In minor units of the currency (`1250`).", value: p((x) => x.amountMinor) },
  { header: "currency", description: "ISO 4217.", value: p((x) => x.currency) },
  { header: "beneficiary_id", description: "The payee's Beneficiary id.", value: p((x) => x.beneficiaryId) },
  {
    header: "payee_name",
    description: "The payee's display name (nickname when set, else the legal name), as it is now.",
    value: (r) => r.payeeName,
  },
  { header: "bank_account_id", description: "The destination's id.", value: p((x) => x.destinationId) },
  { header: "destination_kind", description: "`bank_account` or `card`.", value: (r) => r.destination?.kind ?? null },
  {
    header: "destination_scheme",
    description: "How the destination is identified (`iban`, `us_aba`, `gb_sort_code`, …).",
    value: (r) => r.destination?.scheme ?? null,
  },
  { header: "destination_country", description: "ISO 3166-1 alpha-2.", value: (r) => r.destination?.country ?? null },
  {
    header: "destination_last4",
    description: "The masked end of the account identifier (at most 4 characters, never more than half of it).",
    value: p((x) => x.destinationLast4),
  },
  { header: "external_ref", description: "Your reference.", value: p((x) => x.externalRef) },
  { header: "channel", description: "`api` or `csv`.", value: p((x) => x.channel) },
  { header: "upload_id", description: "The bulk upload's id, for `csv` payouts.", value: p((x) => x.uploadId) },
  { header: "replaces_payout_id", description: "The failed payout this one replaces.", value: p((x) => x.replacesPayoutId) },
  { header: "rail", description: "The rail that carries it, once sent.", value: p((x) => x.rail) },
  { header: "failure_reason", description: "Why it failed or was returned.", value: p((x) => x.failureReason) },
  { header: "disbursed_at", description: "When it was sent to the rail.", value: p((x) => iso(x.disbursedAt)) },
  { header: "settled_at", description: "When it settled.", value: p((x) => iso(x.settledAt)) },
  { header: "updated_at", description: "Its last change.", value: p((x) => iso(x.updatedAt)) },
];

/** The columns as a Markdown list, for the route's OpenAPI description. */
export function describePayoutExportColumns(): string {
  return PAYOUT_EXPORT_COLUMNS.map((c) => `- \`${c.header}\`: ${c.description}`).join("\n");
}

/** Reads the batch of payouts strictly older than `beforeId` (null for the first). */
export type PayoutBatchReader = (beforeId: string | null) => Promise<readonly PayoutExportRecord[]>;

/** The CSV stream over batches (header row first, CRLF line ends, formula-safe cells). */
export async function openPayoutCsvStream(readBatch: PayoutBatchReader, batchSize: number): Promise<Readable> {
  let current: readonly PayoutExportRecord[] | null = await readBatch(null);
  async function* rows() {
    while (current !== null) {
      const batch: readonly PayoutExportRecord[] = current;
      current = null;
      const last = batch[batch.length - 1];
      const next = batch.length < batchSize || last === undefined ? null : readBatch(last.payout.id);
      next?.catch(() => {});
      for (const record of batch) yield PAYOUT_EXPORT_COLUMNS.map((column) => column.value(record));
      if (next !== null) current = await next;
    }
  }
  const csv = stringify({
    header: true,
    columns: PAYOUT_EXPORT_COLUMNS.map((c) => c.header),
    record_delimiter: "windows",
    quote_record_delimiter: true,
    cast: { string: defuseFormula },
  });
  pipeline(Readable.from(rows()), csv, () => {});
  return csv;
}

export interface PayoutExportDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly recordAudit: RecordActorAudit;
  readonly batchSize?: number;
}

export type PayoutExportService = ReturnType<typeof createPayoutExportService>;

export function createPayoutExportService(deps: PayoutExportDeps) {
  const { db, clock } = deps;
  const batchSize = deps.batchSize ?? PAYOUT_EXPORT_BATCH_SIZE;

  /** One batch with its payees' names and masked destinations (three queries by id, whatever the batch's size). */
  async function readBatch(
    tenant: Tenant,
    filters: PayoutFilters,
    beforeId: string | null,
    size = batchSize,
  ): Promise<PayoutExportRecord[]> {
    const rows = await listPayoutsNewestFirst(db, tenant, filters, beforeId, size);
    const names = await findPayeeNames(
      db,
      tenant,
      rows.map((r) => r.beneficiaryId),
    );
    const destinations = await findDestinationSummaries(
      db,
      tenant,
      rows.map((r) => r.destinationId),
    );
    return rows.map((payout) => ({
      payout,
      payeeName: names.get(payout.beneficiaryId)?.displayName ?? null,
      destination: destinations.get(payout.destinationId) ?? null,
    }));
  }

  /** `payouts-<environment>-<YYYYMMDD>.csv`, dated by the service clock in UTC. */
  function exportFilename(actor: Actor): string {
    const date = clock.now().toISOString().slice(0, 10).replaceAll("-", "");
    return `payouts-${actor.environment}-${date}.csv`;
  }

  /** The caller's payouts matching the list's filters, newest first, as a CSV stream; audited before the first byte. */
  async function openExport(actor: Actor, query: PayoutFilterQuery): Promise<{ filename: string; csv: Readable }> {
    const tenant = tenantOf(actor);
    const filters = listFiltersOf(query);
    const filename = exportFilename(actor);
    await transaction(db, (tx) =>
      deps.recordAudit(tx, actor, { action: "payouts_exported", subjectType: "export", subjectId: filename }),
    );
    const csv = await openPayoutCsvStream((beforeId) => readBatch(tenant, filters, beforeId), batchSize);
    return { filename, csv };
  }

  return { openExport, exportFilename, readBatch, validate: listFiltersOf };
}
