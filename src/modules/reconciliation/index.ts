// Reconciliation (issue 28): bank statements in (upload and the bank rails' inbound folders), every line matched to
// what we sent or explained, balances proved against the bank's.
import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { reconciliationRouteRoles } from "./reconciliation.access.js";
import { RECONCILIATION_ERRORS } from "./reconciliation.errors.js";
import type { ReconciliationPorts } from "./reconciliation.ports.js";
import { registerReconciliationRoutes } from "./reconciliation.routes.js";
import { BankStatementSchema, StatementLineSchema } from "./reconciliation.schemas.js";
import { createReconciliationService, type ReconciliationSettings } from "./reconciliation.service.js";

export type { ReconciliationPorts } from "./reconciliation.ports.js";
export type { ReconciliationService, ReconciliationSettings } from "./reconciliation.service.js";
export type { BankStatement, StatementLine, StatementLineDetail } from "./reconciliation.statement-types.js";
export { RECONCILIATION_ERRORS };

export interface ReconciliationModuleSettings extends ReconciliationSettings {
  /** The largest statement upload (BANK_RAIL_INBOUND_MAX_FILE_BYTES). */
  readonly maxStatementBytes: number;
}

export function defineReconciliation(
  platform: PlatformServices,
  settings: ReconciliationModuleSettings,
  ports: ReconciliationPorts,
) {
  const { db, clock, ids, events } = platform;
  const service = createReconciliationService({ db, clock, ids, events, settings, ports });
  return defineModule({
    name: "reconciliation",
    routeRoles: reconciliationRouteRoles,
    errorCodes: RECONCILIATION_ERRORS,
    registerRoutes: (app) => registerReconciliationRoutes(app, service, settings.maxStatementBytes),
    sharedSchemas: [BankStatementSchema, StatementLineSchema],
    offers: {
      /** For bank-rails: statements found in an inbound folder, in the inbound file's transaction. */
      inboundStatements: {
        isStatement: (text: string) => service.isStatement(text),
        receive: (
          tx: Parameters<typeof service.receiveInbound>[0],
          tenant: Parameters<typeof service.receiveInbound>[1],
          text: string,
        ) => service.receiveInbound(tx, tenant, text),
      },
      /** For tests and the bench. */
      service,
    },
  });
}
