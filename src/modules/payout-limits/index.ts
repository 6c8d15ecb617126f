// Payout limits (issue 29): per payout and per day per currency, their API, and the rules the payouts module runs
// at creation and approval (offered as `rules`, a port of payouts).
import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { payoutLimitsRouteRoles } from "./payout-limits.access.js";
import { PAYOUT_LIMIT_ERRORS } from "./payout-limits.errors.js";
import type { PayoutLimitsPorts } from "./payout-limits.ports.js";
import { registerPayoutLimitRoutes } from "./payout-limits.routes.js";
import { PayoutLimitSchema, PayoutLimitsSchema } from "./payout-limits.schemas.js";
import { CONTROL_KIND, createPayoutLimitsService } from "./payout-limits.service.js";

export { PAYOUT_LIMIT_ERRORS } from "./payout-limits.errors.js";
export type { PayoutLimitsPorts } from "./payout-limits.ports.js";
export type { DailyLimitRefusal, PayoutForLimits } from "./payout-limits.service.js";
export { limitsWeakenedBy } from "./payout-limits.weakening.js";

export function definePayoutLimits(platform: PlatformServices, ports: PayoutLimitsPorts) {
  const { db, clock } = platform;
  const service = createPayoutLimitsService({ db, clock, ports });
  return defineModule({
    name: "payout-limits",
    routeRoles: payoutLimitsRouteRoles,
    errorCodes: PAYOUT_LIMIT_ERRORS,
    registerRoutes: (app) => registerPayoutLimitRoutes(app, service),
    sharedSchemas: [PayoutLimitSchema, PayoutLimitsSchema],
    offers: {
      /** For the payouts module: the per-payout maxima at creation, the day's usage at approval and on void. */
      rules: service.rules,
      /** For control-changes: applies an approved raise of the limits. */
      controlChange: { kind: CONTROL_KIND, apply: service.applyApprovedChange },
    },
  });
}

export { payoutLimitsRouteRoles };
