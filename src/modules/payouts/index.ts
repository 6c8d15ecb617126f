import type { RecordActorAudit, ReportWeakenedControl } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import type { Db } from "../../platform/db/client.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { JobHandlers } from "../../platform/jobs/worker.js";
import type { RailRegistry } from "../../rails/rail.js";
import { createPayoutBankFileHooks } from "./payouts.bank-files.js";
import { type BulkLogger, createPayoutBulkService } from "./payouts.bulk.js";
import { createPayoutWriter, type RailRouteCheck } from "./payouts.creation.js";
import { type BankRailQueue, createDisbursementHandlers, type DisbursementLogger } from "./payouts.disbursement.js";
import { createLifecycle } from "./payouts.lifecycle.js";
import { registerPayoutRoutes } from "./payouts.routes.js";
import { ApprovalPolicySchema, BulkRowSchema, DecisionSchema, PayoutSchema } from "./payouts.schemas.js";
import { createPayoutService } from "./payouts.service.js";

export { payoutsRouteRoles } from "./payouts.access.js";
export { PAYOUT_ERRORS } from "./payouts.errors.js";

export type PayoutsModule = ReturnType<typeof createPayoutsModule>;
/** For the masking backfill (worker): re-masks the destination copies payouts keep. */
export { replaceDestinationLast4 } from "./payouts.shared.js";
export { type PayoutStatus, transition } from "./payouts.state.js";

export function createPayoutsModule(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  events: EventRecorder;
  jobStore: Pick<JobStore, "enqueue">;
  logger: BulkLogger;
  recordAudit: RecordActorAudit;
  /** From the people module (injected): maker-checker off or rules loosened is refused to keys and e-mailed to admins. */
  reportWeakenedControl: ReportWeakenedControl;
  /** From the bank-rails module (injected): refuses a production payout no configured bank rail can carry. */
  checkRailRoutes?: RailRouteCheck;
}) {
  const lifecycle = createLifecycle(deps);
  const writer = createPayoutWriter({ ...deps, lifecycle });
  const service = createPayoutService({ ...deps, lifecycle, writer });
  const bulk = createPayoutBulkService({ ...deps, writer });
  return {
    service,
    /** For the destinations module: refuses deleting a destination a pending payout heads to. */
    pendingPayoutHeadsTo: service.pendingPayoutHeadsTo,
    sharedSchemas: [PayoutSchema, DecisionSchema, ApprovalPolicySchema, BulkRowSchema],
    registerRoutes: (app: AppInstance) => registerPayoutRoutes(app, service, bulk),
  };
}

export { PAYOUT_DISBURSE_JOB, PAYOUT_RAIL_OUTCOME_JOB, PAYOUT_SETTLE_JOB } from "./payouts.jobs.js";

/** The disbursement job handlers (PAYOUT_DISBURSE_JOB, PAYOUT_RAIL_OUTCOME_JOB, PAYOUT_SETTLE_JOB). */
export function createPayoutJobHandlers(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  events: EventRecorder;
  jobStore: Pick<JobStore, "enqueue">;
  rails: RailRegistry;
  cipher: FieldCipher;
  logger: DisbursementLogger;
  returnWindowHours: number;
  bankRails?: BankRailQueue;
}): JobHandlers {
  return createDisbursementHandlers({ ...deps, lifecycle: createLifecycle(deps) });
}

export type { BankFilePayout, PayoutBankFileHooks } from "./payouts.bank-files.js";
export type { BankRailQueue } from "./payouts.disbursement.js";

/** For the bank-rails module's cut-off: the waiting payouts, and the record of their submission in a file. */
export function createPayoutBankFileFunctions(deps: { clock: Clock; cipher: FieldCipher; events: EventRecorder }) {
  return createPayoutBankFileHooks({ ...deps, lifecycle: createLifecycle(deps) });
}
