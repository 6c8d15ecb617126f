// Payouts waiting for funds (issue 27): the queue the funding module's release takes them from (in approval order,
// `FOR UPDATE SKIP LOCKED`), the record that one was reserved (funding status, `payout.funds_reserved`, the dispatch
// of its disbursement), and the expiry job that fails a production payout still waiting after its account's
// `awaiting_funds_expiry_hours` with a reason starting `insufficient_funds`.
import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import { jobHandler } from "../../platform/jobs/job-definition.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import { type JobHandlers, LeaseLostError } from "../../platform/jobs/worker.js";
import type { WaitingPayoutQueue } from "../funding/index.js";
import { enqueueDisbursement } from "./payouts.creation.js";
import { PAYOUT_FUNDS_EXPIRY_JOB } from "./payouts.jobs.js";
import { eventData, type Lifecycle, tenantOfPayout } from "./payouts.lifecycle.js";
import { lockPayoutById, lockWaitingForFunding, setPayoutFunding } from "./payouts.repo.js";

export function createWaitingPayoutQueue(deps: {
  readonly events: EventRecorder;
  readonly jobStore: Pick<JobStore, "enqueue">;
}): WaitingPayoutQueue {
  const { events, jobStore } = deps;
  return {
    lockWaiting: (tx: Tx, fundingAccountId: string, limit: number) => lockWaitingForFunding(tx, fundingAccountId, limit),
    async markReserved(tx: Tx, payoutId: string): Promise<void> {
      const payout = await setPayoutFunding(tx, payoutId, { fundingStatus: "reserved", awaitingFundsSince: null });
      await events.record(tx, {
        tenant: tenantOfPayout(payout),
        type: "payout.funds_reserved",
        subjectId: payout.id,
        data: eventData(payout, "payout.funds_reserved", {
          funding_account_id: payout.fundingAccountId,
          funding_status: "reserved",
        }),
      });
      await enqueueDisbursement(jobStore, tx, payout.id);
    },
  };
}

export function createFundsExpiryHandler(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly lifecycle: Lifecycle;
  readonly logger: { info(object: object, message: string): void };
}): JobHandlers {
  const { db, lifecycle, logger } = deps;
  return jobHandler(PAYOUT_FUNDS_EXPIRY_JOB, async ({ payoutId }, context) => {
    await transaction(db, async (tx) => {
      const payout = await lockPayoutById(tx, payoutId);
      if (
        payout !== null &&
        payout.status === "approved" &&
        payout.fundingStatus === "awaiting_funds" &&
        payout.environment === "production"
      ) {
        const since = payout.awaitingFundsSince?.toISOString() ?? "approval";
        await lifecycle.apply(tx, payout, {
          type: "failed",
          reason: `insufficient_funds: no funds arrived for this payout since ${since}`,
        });
      } else if (payout !== null) {
        logger.info(
          { payout_id: payoutId, status: payout.status, funding_status: payout.fundingStatus },
          "funds expiry not applied",
        );
      }
      if (!(await context.completeWithin(tx))) throw new LeaseLostError();
    });
  });
}
