// POST /v1/payouts/bulk: up to 1000 rows through the one write path of single payouts
// (payouts.creation.ts: same fingerprint, gates, replacement checks, maker and policy), tagged channel `csv`
// and the upload id. Rows succeed or fail on their own.
//
// Shape of the work (1000 rows in a handful of statements per batch, not 1000 round trips):
//   1. every row is validated in memory (its JSON Schema, its currency); its idempotency key is derived:
//      `upload:<uploadId>:<index>`, plus `:<idempotency_key>` when the row carries its own;
//   2. rows go in batches of 250, each batch ONE transaction and one call of the write path under the
//      upload's try-lock (a concurrent copy of the same upload gets 409 UPLOAD_IN_FLIGHT), which claims,
//      reads, checks and inserts the batch with multi-row statements and releases the claims of rows that
//      failed a check (a failed row stores nothing, as on the single route);
//   3. a batch the database refuses as a whole (a second live replacement of a failed payout committed
//      meanwhile, for one) is retried row by row, so one bad row cannot take the others down.
// A batch commits on its own: a process killed in the middle leaves whole batches, and a re-upload of the
// same file replays them and creates the rest, so the file ends with exactly one payout per row.

import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError, type ErrorDetail } from "../../platform/errors.js";
import { compileDetailsValidator } from "../../platform/http/validation.js";
import { currencyExponent } from "../../platform/reference/iso-codes.js";
import { creationErrorOf, currencyError, type PayoutRequest, type PayoutWriter, payoutRequestOf } from "./payouts.creation.js";
import { PAYOUT_ERRORS } from "./payouts.errors.js";
import { type BulkBody, type BulkResponse, type BulkResult, type BulkRow, BulkRowSchema } from "./payouts.schemas.js";

export const BULK_BATCH_SIZE = 250;

export interface BulkLogger {
  error(object: object, message: string): void;
}

export interface PayoutBulkDeps {
  readonly db: Db;
  readonly logger: BulkLogger;
  readonly writer: PayoutWriter;
}

export type PayoutBulkService = ReturnType<typeof createPayoutBulkService>;

/** Compiled once per process rather than per service built (tens of milliseconds of CPU each): it never changes. */
const checkRowShape = compileDetailsValidator(BulkRowSchema);

interface Candidate {
  readonly index: number;
  readonly request: PayoutRequest;
}

const SHA256_ID = /^(?:sha256-)?([0-9a-f]{64})(\.[0-9]+)?$/i;

/**
 * The canonical spelling of an upload id: a SHA-256 (bare 64 hex digits, or `sha256-` and 64 hex digits, any
 * case, with an optional `.<part>`) becomes `sha256-<lowercase hex>[.<part>]`, the form computeUploadId of the
 * client package writes, so a file sent by the dashboard, the client or the CLI is one upload whatever spelling a
 * caller used. Any other id is an integrator's own and is kept as given.
 */
export function canonicalUploadId(uploadId: string): string {
  const match = SHA256_ID.exec(uploadId);
  if (match === null) return uploadId;
  return `sha256-${(match[1] as string).toLowerCase()}${match[2] ?? ""}`;
}

/**
 * The row's amount in minor units from `amount_minor` and/or `amount` (a decimal string in the currency's units,
 * at most the currency's exponent of decimals); an error naming the field when neither is given, `amount` has
 * too many decimals or the two disagree.
 */
export function bulkRowAmountMinor(
  row: Pick<BulkRow, "amount" | "amount_minor">,
  currency: string,
  exponent: number,
  prefix: string,
): number | AppError {
  const invalid = (field: string, code: string, message: string) =>
    new AppError("validation_failed", { details: [{ field: `${prefix}.${field}`, code, message }] });
  if (row.amount === undefined) {
    if (row.amount_minor === undefined) {
      return invalid(
        "amount_minor",
        "required",
        "amount_minor or amount is required (amount in the currency's units, e.g. 12.50).",
      );
    }
    return row.amount_minor;
  }
  const [whole = "0", fraction = ""] = row.amount.split(".");
  if (fraction.length > exponent) {
    return invalid(
      "amount",
      "too_many_decimals",
      exponent === 0
        ? `${currency} has no decimals: write ${whole} or give amount_minor.`
        : `${currency} has at most ${exponent} decimal${exponent === 1 ? "" : "s"}: ${row.amount} has ${fraction.length}.`,
    );
  }
  const minor = BigInt(whole) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, "0") || "0");
  if (minor < 1n || minor > BigInt(Number.MAX_SAFE_INTEGER)) {
    return invalid(
      "amount",
      "out_of_range",
      `The amount must be more than 0 and at most ${Number.MAX_SAFE_INTEGER} minor units.`,
    );
  }
  if (row.amount_minor !== undefined && BigInt(row.amount_minor) !== minor) {
    return invalid(
      "amount",
      "amounts_disagree",
      `amount ${row.amount} ${currency} is ${minor} minor units but amount_minor is ${row.amount_minor}: give one of them, or make them equal.`,
    );
  }
  return Number(minor);
}

/** The derived key of a bulk row (docs/decisions.md, Bulk payouts). */
export function bulkRowKey(uploadId: string, index: number, ownKey: string | undefined): string {
  return ownKey === undefined ? `upload:${uploadId}:${index}` : `upload:${uploadId}:${index}:${ownKey}`;
}

function failed(index: number, error: AppError): BulkResult {
  return {
    index,
    status: "failed",
    payout_id: null,
    payout_status: null,
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: [...error.details] }),
    },
  };
}

export function createPayoutBulkService(deps: PayoutBulkDeps) {
  const { db, logger, writer } = deps;

  function prepareRow(uploadId: string, index: number, raw: unknown): Candidate | BulkResult {
    const details: ErrorDetail[] = checkRowShape(raw);
    if (details.length > 0) {
      return failed(
        index,
        new AppError("validation_failed", {
          details: details.map((d) => ({ ...d, field: `rows[${index}]${d.field === "" ? "" : `.${d.field}`}` })),
        }),
      );
    }
    const row = raw as BulkRow;
    const badCurrency = currencyError(row.currency, `rows[${index}].currency`);
    if (badCurrency !== null) return failed(index, badCurrency);
    const amountMinor = bulkRowAmountMinor(row, row.currency, currencyExponent(row.currency) ?? 0, `rows[${index}]`);
    if (amountMinor instanceof AppError) return failed(index, amountMinor);
    const { amount: _amount, ...fields } = row;
    const request = payoutRequestOf(
      { ...fields, amount_minor: amountMinor },
      {
        idempotencyKey: bulkRowKey(uploadId, index, row.idempotency_key),
        channel: "csv",
        uploadId,
      },
    );
    return { index, request };
  }

  async function processBatch(tx: Tx, tenant: Tenant, uploadId: string, batch: readonly Candidate[], maker: Actor) {
    const outcomes = await writer.createPayouts(
      tx,
      tenant,
      maker,
      { kind: "upload", uploadId },
      batch.map((c) => c.request),
    );
    return outcomes.map((outcome, i): BulkResult => {
      const index = (batch[i] as Candidate).index;
      if (outcome.kind === "failed") return failed(index, outcome.error);
      return { index, status: outcome.kind, payout_id: outcome.payout.id, payout_status: outcome.payout.status, error: null };
    });
  }

  async function runBatch(tenant: Tenant, uploadId: string, batch: readonly Candidate[], maker: Actor): Promise<BulkResult[]> {
    try {
      return await transaction(db, (tx) => processBatch(tx, tenant, uploadId, batch, maker));
    } catch (error) {
      if (error instanceof AppError && error.is(PAYOUT_ERRORS.UPLOAD_IN_FLIGHT)) throw error;
      if (batch.length === 1) {
        const only = batch[0] as Candidate;
        const refused = creationErrorOf(error);
        if (refused !== null) return [failed(only.index, refused)];
        logger.error({ err: error, row: only.index }, "bulk payout row failed");
        // A row carries no request_id of its own: point at the response's X-Request-Id instead.
        const message =
          "The row could not be stored; the other rows were not affected. Quote the X-Request-Id header of this response when contacting support.";
        return [failed(only.index, new AppError("internal_error", { message }))];
      }
      // Row by row, so one row the database refuses cannot take the batch down.
      const results: BulkResult[] = [];
      for (const candidate of batch) results.push(...(await runBatch(tenant, uploadId, [candidate], maker)));
      return results;
    }
  }

  async function createBulk(actor: Actor, given: BulkBody): Promise<BulkResponse> {
    const tenant = tenantOf(actor);
    const body = { ...given, uploadId: canonicalUploadId(given.uploadId) };
    const results: BulkResult[] = [];
    const candidates: Candidate[] = [];
    body.rows.forEach((raw, index) => {
      const prepared = prepareRow(body.uploadId, index, raw);
      if ("request" in prepared) candidates.push(prepared);
      else results.push(prepared);
    });
    for (let start = 0; start < candidates.length; start += BULK_BATCH_SIZE) {
      results.push(...(await runBatch(tenant, body.uploadId, candidates.slice(start, start + BULK_BATCH_SIZE), actor)));
    }
    results.sort((a, b) => a.index - b.index);
    const count = (status: BulkResult["status"]) => results.filter((r) => r.status === status).length;
    return {
      upload_id: body.uploadId,
      created: count("created"),
      replayed: count("replayed"),
      failed: count("failed"),
      results,
    };
  }

  return { createBulk };
}
