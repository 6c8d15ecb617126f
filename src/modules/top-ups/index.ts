import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { topUpsRouteRoles } from "./top-ups.access.js";
import { TOP_UP_ERRORS } from "./top-ups.errors.js";
import type { TopUpsPorts } from "./top-ups.ports.js";
import { registerTopUpRoutes } from "./top-ups.routes.js";
import { TopUpSchema } from "./top-ups.schemas.js";
import { createTopUpService } from "./top-ups.service.js";
import { findTopUpForStatement, findTopUpsOfAmounts } from "./top-ups.shared.js";

export type { CreditFundingAccount, FindFundingAccount, TopUpsPorts } from "./top-ups.ports.js";
export type { TopUpRow } from "./top-ups.shared.js";

/**
 * Top-ups: money a Business records as moved into a funding account, credited on the ledger (through the
 * funding module's port) only when a different person approves it.
 */
export function defineTopUps(platform: PlatformServices, ports: TopUpsPorts) {
  const { db, clock, ids, events } = platform;
  const service = createTopUpService({
    db,
    clock,
    ids,
    events,
    recordAudit: ports.recordAudit,
    creditFundingAccount: ports.creditFundingAccount,
    findFundingAccount: ports.findFundingAccount,
  });
  return defineModule({
    name: "top-ups",
    routeRoles: topUpsRouteRoles,
    errorCodes: TOP_UP_ERRORS,
    registerRoutes: (app) => registerTopUpRoutes(app, service),
    sharedSchemas: [TopUpSchema],
    offers: {
      /** For reconciliation: a statement credit is matched to a top-up by its reference (never credited twice). */
      statementTopUps: {
        ofAmounts: findTopUpsOfAmounts,
        find: findTopUpForStatement,
      },
    },
  });
}
