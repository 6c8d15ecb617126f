// The masking backfill: masked values stored under an older masking rule (platform/masking.ts) are computed
// again from their ciphertexts. SQL cannot do it (the identifiers are encrypted), so it is a durable job:
// enqueued at start-up when rows are left (`enqueueMaskingBackfillIfNeeded`), it re-masks them in short
// batches, each one transaction that also fixes the copies other modules keep, and continues in a fresh job
// while rows are left, so no run outlives its lease. Rows carry the rule version they follow (`mask_version`),
// which makes every batch idempotent and lets a crashed run resume where it stopped.
//
// Re-masked: destinations' `last4` (and the payouts' `destination_last4` copies still showing the old value),
// Beneficiaries' `tax_id_last4` and the `tin_last4` of their latest tax form summary. Not rewritten: events
// already recorded and e-mails already queued or sent (they are records of what was sent), and the summaries
// kept with older tax forms (no route shows them).

import { Type } from "@sinclair/typebox";
import { beneficiariesLeftToRemask, remaskStoredBeneficiaries } from "../modules/beneficiaries/index.js";
import { readTaxFormTin } from "../modules/collection/index.js";
import { destinationsLeftToRemask, remaskStoredDestinations } from "../modules/destinations/index.js";
import { replaceDestinationLast4 } from "../modules/payouts/index.js";
import type { Clock } from "../platform/clock.js";
import type { FieldCipher } from "../platform/crypto.js";
import { type Db, transaction } from "../platform/db/client.js";
import { defineJob, jobHandler } from "../platform/jobs/job-definition.js";
import type { JobStore } from "../platform/jobs/job-store.js";
import type { JobHandlers } from "../platform/jobs/worker.js";
import { MASK_VERSION } from "../platform/masking.js";

export const MASKING_BACKFILL_JOB = defineJob({ type: "masking.backfill", version: 1, payload: Type.Object({}) });

/** Rows per transaction, and transactions per job run (then a fresh job continues). */
const BATCH_SIZE = 200;
const BATCHES_PER_RUN = 25;
/** When every remaining row was held by another transaction, look again after this long. */
const LOCKED_ROWS_RETRY_MS = 5_000;

async function anythingLeft(db: Db): Promise<boolean> {
  return (await destinationsLeftToRemask(db)) || (await beneficiariesLeftToRemask(db));
}

/**
 * Enqueues the backfill once per masking rule version (the dedupe key outlives the job), and only when rows
 * need it: a new database, or one already re-masked, gets no job at all. Called at start-up, after migrations.
 */
export async function enqueueMaskingBackfillIfNeeded(db: Db, jobStore: Pick<JobStore, "enqueue">): Promise<string | null> {
  if (!(await anythingLeft(db))) return null;
  return jobStore.enqueue(db, MASKING_BACKFILL_JOB, {}, { dedupeKey: `${MASKING_BACKFILL_JOB.type}:v${MASK_VERSION}` });
}

export function createMaskingBackfillHandler(deps: {
  readonly db: Db;
  readonly cipher: Pick<FieldCipher, "decrypt">;
  readonly clock: Clock;
  readonly jobStore: Pick<JobStore, "enqueue">;
}): JobHandlers {
  const { db, cipher, clock, jobStore } = deps;
  // Destinations and Beneficiaries in separate transactions: each locks rows of one table only (and payouts
  // rows of the destinations it changed), so it cannot deadlock with a use case that locks both.
  const destinationsBatch = () =>
    transaction(db, (tx) =>
      remaskStoredDestinations(tx, cipher, BATCH_SIZE, (inner, changes) => replaceDestinationLast4(inner, changes)),
    );
  const beneficiariesBatch = () =>
    transaction(db, (tx) =>
      remaskStoredBeneficiaries(tx, cipher, BATCH_SIZE, (inner, beneficiaryId, submittedAt) =>
        readTaxFormTin(inner, cipher, beneficiaryId, submittedAt),
      ),
    );

  return jobHandler(MASKING_BACKFILL_JOB, async (_payload, context) => {
    // `blocked`: a batch found nothing it could lock, so what is left is held by other transactions for now.
    let blocked = false;
    for (let run = 0; run < BATCHES_PER_RUN && !blocked; run += 1) {
      blocked = (await destinationsBatch()) + (await beneficiariesBatch()) === 0;
    }
    if (!(await anythingLeft(db))) return;
    // More rows are left: a fresh job continues (once, whatever happens to this one).
    await jobStore.enqueue(
      db,
      MASKING_BACKFILL_JOB,
      {},
      {
        dedupeKey: `${MASKING_BACKFILL_JOB.type}:v${MASK_VERSION}:after:${context.job.id}`,
        ...(blocked ? { runAt: new Date(clock.now().getTime() + LOCKED_ROWS_RETRY_MS) } : {}),
      },
    );
  });
}
