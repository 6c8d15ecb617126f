// The release of payouts waiting for funds on one funding account (FUNDING_RELEASE_JOB): lock the funding row,
// take its waiting payouts in approval order `FOR UPDATE SKIP LOCKED`, reserve each that fits (those that do not
// are skipped and the next tried), each reserved payout recorded by the payouts module (funding status,
// `payout.funds_reserved`, disbursement dispatched), all in one transaction with the job's completion.
import type { Clock } from "../../platform/clock.js";
import { type Db, transaction } from "../../platform/db/client.js";
import { jobHandler } from "../../platform/jobs/job-definition.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import { type JobHandlers, LeaseLostError } from "../../platform/jobs/worker.js";
import { FUNDING_RELEASE_JOB } from "./funding.jobs.js";
import type { WaitingPayoutQueue } from "./funding.ports.js";
import type { FundingPostings } from "./funding.postings.js";
import { lockFundingAccountById } from "./funding.repo.js";

/** Waiting payouts taken per run; a longer queue is continued by a new job. */
const BATCH = 200;

export function createReleaseHandler(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly jobStore: Pick<JobStore, "enqueue">;
  readonly postings: FundingPostings;
  readonly waitingPayouts: WaitingPayoutQueue;
}): JobHandlers {
  const { db, clock, jobStore, postings, waitingPayouts } = deps;
  return jobHandler(FUNDING_RELEASE_JOB, async ({ fundingAccountId }, context) => {
    await transaction(db, async (tx) => {
      let account = await lockFundingAccountById(tx, fundingAccountId);
      if (account !== null && account.awaitingCount > 0) {
        const waiting = await waitingPayouts.lockWaiting(tx, fundingAccountId, BATCH);
        let skipped = 0;
        for (const payout of waiting) {
          const held = await postings.reserveWaiting(tx, account, payout);
          if (held === null) {
            skipped += 1;
            continue;
          }
          account = held;
          await waitingPayouts.markReserved(tx, payout.id);
        }
        // Payouts still waiting that this run did not see (locked by a cancel or an expiry, or past the batch):
        // a later run tries them again.
        if (account.awaitingCount > skipped) {
          await jobStore.enqueue(
            tx,
            FUNDING_RELEASE_JOB,
            { fundingAccountId },
            {
              runAt: new Date(clock.now().getTime() + (waiting.length >= BATCH ? 0 : 1000)),
              dedupeKey: `funding-release:${fundingAccountId}:again:${clock.now().getTime()}:${account.awaitingCount}`,
            },
          );
        }
      }
      if (!(await context.completeWithin(tx))) throw new LeaseLostError();
    });
  });
}
