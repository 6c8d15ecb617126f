import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import type { RailRegistry } from "../../rails/rail.js";
import { payoutsRouteRoles } from "./payouts.access.js";
import { createPayoutBankFileHooks } from "./payouts.bank-files.js";
import { createPayoutBulkService } from "./payouts.bulk.js";
import { createPayoutWriter } from "./payouts.creation.js";
import { createDisbursementHandlers, createScreeningHoldRelease } from "./payouts.disbursement.js";
import { PAYOUT_ERRORS } from "./payouts.errors.js";
import { createPayoutExportService } from "./payouts.export.js";
import { createFundsExpiryHandler, createWaitingPayoutQueue } from "./payouts.funding.js";
import { PAYOUT_DISBURSE_JOB, PAYOUT_FUNDS_EXPIRY_JOB, PAYOUT_RAIL_OUTCOME_JOB, PAYOUT_SETTLE_JOB } from "./payouts.jobs.js";
import { createLifecycle } from "./payouts.lifecycle.js";
import type { PayoutsPorts } from "./payouts.ports.js";
import { createPayoutReconciliation } from "./payouts.reconciliation.js";
import { registerPayoutExportRoute, registerPayoutRoutes } from "./payouts.routes.js";
import { ApprovalPolicySchema, BulkRowSchema, DecisionSchema, PayoutPayeeSchema, PayoutSchema } from "./payouts.schemas.js";
import { createPayoutService } from "./payouts.service.js";

export type { BankFilePayout, PayoutBankFileHooks } from "./payouts.bank-files.js";
export type { RailRouteCheck } from "./payouts.creation.js";
export type { BankRailQueue } from "./payouts.disbursement.js";
export { PAYOUT_DISBURSE_JOB, PAYOUT_FUNDS_EXPIRY_JOB, PAYOUT_RAIL_OUTCOME_JOB, PAYOUT_SETTLE_JOB } from "./payouts.jobs.js";
export type { DailyLimitRefusal, PayoutLimitRules } from "./payouts.lifecycle.js";
export type { PayoutsPorts } from "./payouts.ports.js";
export type {
  LockedPayouts,
  MoveOutcome,
  PayoutForReconciliation,
  PayoutReconciliation,
  ReconcileOutcome,
  StatementMove,
} from "./payouts.reconciliation.js";
/** For the masking backfill (worker): re-masks the destination copies payouts keep. */
export { makerCheckerOn, replaceDestinationLast4 } from "./payouts.shared.js";
export { type PayoutStatus, transition } from "./payouts.state.js";

export interface PayoutsSettings {
  /** The payout rails per environment (the disbursement job submits to them). */
  readonly rails: RailRegistry;
  /** PAYOUT_RETURN_WINDOW_HOURS: how long after disbursement a payout may still come back before it settles. */
  readonly returnWindowHours: number;
}

/**
 * Payouts: the API (creation, Decisions, the approval policy, bulk), the disbursement jobs, and the bank-file
 * functions the bank-rails module's cut-off uses. One lifecycle (the only path of every status change) serves
 * all three.
 */
export function definePayouts(platform: PlatformServices, settings: PayoutsSettings, ports: PayoutsPorts) {
  const { db, clock, ids, cipher, events, jobStore, logger } = platform;
  const lifecycle = createLifecycle({
    clock,
    events,
    jobStore,
    funding: ports.funding,
    limits: ports.limits,
    // Where an approved payout's money comes from: sandbox's own account; in production the bank rail it goes
    // to (read as the disbursement will), else the simulator; a payout no rail takes is not tracked (it fails).
    fundingSourceOf: async (tx, payout) => {
      if (payout.environment === "sandbox") return { kind: "sandbox" };
      const route = await ports.bankRails.route(tx, payout);
      if (route === null) return { kind: "simulator" };
      if ("refused" in route) return null;
      return route.rail === "sepa" || route.rail === "ach" ? { kind: "bank_rail", rail: route.rail } : null;
    },
  });
  const writer = createPayoutWriter({
    clock,
    ids,
    lifecycle,
    checkRailRoutes: ports.checkRailRoutes,
    perPayoutMaxima: ports.limits.perPayoutMaxima,
    nameCheckMode: ports.nameCheckMode,
    recordAudit: ports.recordAudit,
  });
  const service = createPayoutService({
    db,
    clock,
    ids,
    lifecycle,
    writer,
    recordAudit: ports.recordAudit,
    guardWeakening: ports.guardWeakening,
  });
  const bulk = createPayoutBulkService({ db, logger, writer });
  const exporter = createPayoutExportService({ db, clock, recordAudit: ports.recordAudit });
  const disbursement = createDisbursementHandlers({
    db,
    clock,
    ids,
    cipher,
    jobStore,
    rails: settings.rails,
    lifecycle,
    logger: logger.child({ component: "payouts" }),
    returnWindowHours: settings.returnWindowHours,
    bankRails: ports.bankRails,
  });
  return defineModule({
    name: "payouts",
    routeRoles: payoutsRouteRoles,
    errorCodes: PAYOUT_ERRORS,
    registerRoutes: (app) => {
      registerPayoutRoutes(app, service, bulk);
      registerPayoutExportRoute(app, exporter);
    },
    sharedSchemas: [PayoutPayeeSchema, PayoutSchema, DecisionSchema, ApprovalPolicySchema, BulkRowSchema],
    jobs: {
      definitions: [PAYOUT_DISBURSE_JOB, PAYOUT_RAIL_OUTCOME_JOB, PAYOUT_SETTLE_JOB, PAYOUT_FUNDS_EXPIRY_JOB],
      handlers: {
        ...disbursement,
        ...createFundsExpiryHandler({ db, clock, lifecycle, logger: logger.child({ component: "payouts" }) }),
      },
    },
    offers: {
      /** For the destinations module: refuses deleting a destination a pending payout heads to. */
      pendingPayoutHeadsTo: service.pendingPayoutHeadsTo,
      /** For the bank-rails module's cut-off: the waiting payouts, and the record of their submission in a file. */
      bankFiles: createPayoutBankFileHooks({ clock, cipher, lifecycle }),
      /** For the funding module's release: the payouts waiting for funds, and the record of a reservation. */
      waitingPayouts: createWaitingPayoutQueue({ events, jobStore }),
      /** For control-changes: applies an approved weakening of the approval policy. */
      controlChange: { kind: "approval_policy", apply: service.applyApprovedPolicyChange },
      /** For the reconciliation module: the payouts a statement line names, marked reconciled or returned. */
      reconciliation: createPayoutReconciliation({ clock, events, lifecycle }),
      /** For the screening module: a cleared hit dispatches the Beneficiary's held approved payouts again. */
      releaseScreeningHold: createScreeningHoldRelease({ jobStore }),
    },
  });
}

export { PAYOUT_ERRORS, payoutsRouteRoles };
