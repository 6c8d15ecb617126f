import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { beneficiaryExportRouteRoles } from "./beneficiary-export.access.js";
import type { BeneficiaryExportPorts } from "./beneficiary-export.ports.js";
import { registerBeneficiaryExportRoutes } from "./beneficiary-export.routes.js";
import { createBeneficiaryExportService } from "./beneficiary-export.service.js";

export type { BeneficiaryExportPorts } from "./beneficiary-export.ports.js";

/** GET /v1/beneficiaries/export: the active Beneficiaries of the caller's tenant as a streamed CSV file. */
export function defineBeneficiaryExport(platform: PlatformServices, ports: BeneficiaryExportPorts) {
  const service = createBeneficiaryExportService({
    db: platform.db,
    clock: platform.clock,
    presentBeneficiary: ports.presentBeneficiary,
    recordAudit: ports.recordAudit,
  });
  return defineModule({
    name: "beneficiary-export",
    routeRoles: beneficiaryExportRouteRoles,
    registerRoutes: (app) => registerBeneficiaryExportRoutes(app, service),
    offers: {},
  });
}

export { beneficiaryExportRouteRoles };
