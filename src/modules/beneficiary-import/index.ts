// POST /v1/beneficiaries/import: many Beneficiaries, each with a bank account, in one call. It reuses the
// beneficiaries' and destinations' own checks through their modules' doors.
import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { beneficiaryImportRouteRoles } from "./beneficiary-import.access.js";
import type { BeneficiaryImportPorts } from "./beneficiary-import.ports.js";
import { registerBeneficiaryImportRoutes } from "./beneficiary-import.routes.js";
import { BeneficiaryImportRowSchema } from "./beneficiary-import.schemas.js";
import { createBeneficiaryImportService } from "./beneficiary-import.service.js";

export type { BeneficiaryImportPorts } from "./beneficiary-import.ports.js";

export function defineBeneficiaryImport(platform: PlatformServices, ports: BeneficiaryImportPorts) {
  const service = createBeneficiaryImportService({
    db: platform.db,
    clock: platform.clock,
    ids: platform.ids,
    logger: platform.logger,
    events: platform.events,
    recordAudit: ports.recordAudit,
    prepareBeneficiary: ports.prepareBeneficiary,
    prepareBankAccount: ports.prepareBankAccount,
    enqueueEnrollment: ports.enqueueEnrollment,
    requestNameChecks: ports.requestNameChecks,
    screenBeneficiaries: ports.screenBeneficiaries,
  });
  return defineModule({
    name: "beneficiary-import",
    routeRoles: beneficiaryImportRouteRoles,
    registerRoutes: (app) => registerBeneficiaryImportRoutes(app, service),
    // Published as a named component so the OpenAPI document describes a row, though rows are checked one by one.
    sharedSchemas: [BeneficiaryImportRowSchema],
    offers: {},
  });
}

export { beneficiaryImportRouteRoles };
