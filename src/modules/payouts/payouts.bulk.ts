// POST /v1/payouts/bulk: up to 1000 rows through the same write path as single payouts (same fingerprint,
// same gates, same policy), tagged channel `csv` and the upload id. Rows succeed or fail on their own.
//
// Shape of the work (1000 rows in a handful of statements per batch, not 1000 round trips):
//   1. every row is validated in memory (its JSON Schema, its currency); its idempotency key is derived:
//      `upload:<uploadId>:<index>`, plus `:<idempotency_key>` when the row carries its own;
//   2. rows go in batches of 250, each batch ONE transaction: a try-lock on the upload (a concurrent copy of
//      the same upload gets 409 UPLOAD_IN_FLIGHT), one multi-row claim of the keys, one read of the
//      replayed keys and their payouts, one share-lock read of the Beneficiaries, one read of their live
//      destinations, one read of the policy, one multi-row INSERT of the payouts, one DELETE releasing the
//      claims of rows that failed a gate (a failed row stores nothing, as on the single route);
//   3. a batch the database refuses as a whole is retried row by row, so one bad row cannot take the
//      others down.
// A batch commits on its own: a process killed in the middle leaves whole batches, and a re-upload of the
// same file replays them and creates the rest, so the file ends with exactly one payout per row.
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/client.js";
import { AppError, type ErrorDetail } from "../../platform/errors.js";
import { compileDetailsValidator } from "../../platform/http/validation.js";
import type { IdGenerator } from "../../platform/ids.js";
import { resolveDestination } from "./payouts.gates.js";
import {
  type BeneficiaryRow,
  claimKeys,
  findKeys,
  findPayoutsByIds,
  findPolicy,
  insertPayouts,
  listLiveDestinationsOf,
  lockBeneficiariesShared,
  type NewPayoutRow,
  releaseKeys,
  tryLockUpload,
} from "./payouts.repo.js";
import { type BulkBody, type BulkResponse, type BulkResult, type BulkRow, BulkRowSchema } from "./payouts.schemas.js";
import {
  currencyError,
  IDEMPOTENCY_WINDOW_MS,
  type Maker,
  type PayoutRequest,
  type PayoutService,
  requestFingerprint,
} from "./payouts.service.js";

export const BULK_BATCH_SIZE = 250;

export interface BulkLogger {
  error(object: object, message: string): void;
}

export interface PayoutBulkDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: BulkLogger;
  readonly service: Pick<PayoutService, "newPayoutRow" | "applyPolicy" | "checkRailRoute">;
}

export type PayoutBulkService = ReturnType<typeof createPayoutBulkService>;

interface Candidate {
  readonly index: number;
  readonly request: PayoutRequest;
  readonly fingerprint: string;
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
  const { db, clock, ids, logger, service } = deps;
  const checkRowShape = compileDetailsValidator(BulkRowSchema);

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
    const request: PayoutRequest = {
      beneficiaryId: row.beneficiary_id.toLowerCase(),
      bankAccountId: row.bank_account_id ?? null,
      amountMinor: row.amount_minor,
      currency: row.currency,
      externalRef: row.external_ref ?? null,
      replacesPayoutId: null,
      idempotencyKey: bulkRowKey(uploadId, index, row.idempotency_key),
      channel: "csv",
      uploadId,
    };
    return { index, request, fingerprint: requestFingerprint(request) };
  }

  async function processBatch(tx: Db, tenant: Tenant, uploadId: string, batch: readonly Candidate[], maker: Maker) {
    if (!(await tryLockUpload(tx, tenant, uploadId))) throw new AppError("UPLOAD_IN_FLIGHT");
    const now = clock.now();
    const payoutIds = new Map(batch.map((c) => [c.index, ids.newId()]));
    const claimed = await claimKeys(
      tx,
      tenant,
      batch.map((c) => ({
        key: c.request.idempotencyKey,
        payoutId: payoutIds.get(c.index) as string,
        fingerprint: c.fingerprint,
      })),
      now,
      new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS),
    );
    const results: BulkResult[] = [];

    // Replays: the key is live already.
    const replays = batch.filter((c) => !claimed.has(c.request.idempotencyKey));
    if (replays.length > 0) {
      const keys = await findKeys(
        tx,
        tenant,
        replays.map((c) => c.request.idempotencyKey),
      );
      const payoutsById = await findPayoutsByIds(
        tx,
        tenant,
        [...keys.values()].map((k) => k.payoutId),
      );
      for (const candidate of replays) {
        const key = keys.get(candidate.request.idempotencyKey);
        const payout = key === undefined ? undefined : payoutsById.get(key.payoutId);
        if (key === undefined || payout === undefined) {
          results.push(failed(candidate.index, new AppError("IDEMPOTENCY_KEY_IN_FLIGHT")));
        } else if (key.requestFingerprint !== candidate.fingerprint) {
          results.push(failed(candidate.index, new AppError("IDEMPOTENCY_KEY_REUSED")));
        } else {
          results.push({
            index: candidate.index,
            status: "replayed",
            payout_id: payout.id,
            payout_status: payout.status,
            error: null,
          });
        }
      }
    }

    // New rows: the gates, then one multi-row insert.
    const fresh = batch.filter((c) => claimed.has(c.request.idempotencyKey));
    if (fresh.length > 0) {
      const beneficiaryIds = [...new Set(fresh.map((c) => c.request.beneficiaryId))];
      const beneficiaries = new Map((await lockBeneficiariesShared(tx, tenant, beneficiaryIds)).map((b) => [b.id, b]));
      const live = await listLiveDestinationsOf(tx, tenant, [...beneficiaries.keys()]);
      const toInsert: NewPayoutRow[] = [];
      const release: string[] = [];
      for (const candidate of fresh) {
        const beneficiary = beneficiaries.get(candidate.request.beneficiaryId) ?? null;
        const gate = resolveDestination(beneficiary, live, candidate.request);
        if (!gate.ok) {
          release.push(candidate.request.idempotencyKey);
          results.push(failed(candidate.index, gate.error));
          continue;
        }
        const unroutable = (await service.checkRailRoute?.(tx, tenant, gate.destination.id, candidate.request.currency)) ?? null;
        if (unroutable !== null) {
          release.push(candidate.request.idempotencyKey);
          results.push(failed(candidate.index, unroutable));
          continue;
        }
        toInsert.push(
          service.newPayoutRow(tenant, payoutIds.get(candidate.index) as string, candidate.request, gate.destination, maker, now),
        );
      }
      await releaseKeys(tx, tenant, release);
      const inserted = await insertPayouts(tx, toInsert);
      const policy = inserted.length > 0 ? await findPolicy(tx, tenant) : null;
      const indexOf = new Map(fresh.map((c) => [payoutIds.get(c.index) as string, c.index]));
      for (const row of inserted) {
        const decided = await service.applyPolicy(tx, row, beneficiaries.get(row.beneficiaryId) as BeneficiaryRow, policy);
        results.push({
          index: indexOf.get(row.id) as number,
          status: "created",
          payout_id: row.id,
          payout_status: decided.status,
          error: null,
        });
      }
    }
    return results;
  }

  async function runBatch(tenant: Tenant, uploadId: string, batch: readonly Candidate[], maker: Maker): Promise<BulkResult[]> {
    try {
      return await db.transaction((tx) => processBatch(tx, tenant, uploadId, batch, maker));
    } catch (error) {
      if (error instanceof AppError && error.code === "UPLOAD_IN_FLIGHT") throw error;
      if (batch.length === 1) {
        const only = batch[0] as Candidate;
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

  async function createBulk(actor: Actor, body: BulkBody): Promise<BulkResponse> {
    const tenant = tenantOf(actor);
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
