import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/client.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { BeneficiaryService } from "../beneficiaries/index.js";
import { registerBeneficiaryExportRoutes } from "./beneficiary-export.routes.js";
import { createBeneficiaryExportService } from "./beneficiary-export.service.js";

export { beneficiaryExportRouteRoles } from "./beneficiary-export.access.js";

export type BeneficiaryExportModule = ReturnType<typeof createBeneficiaryExportModule>;

/** GET /v1/beneficiaries/export: the active Beneficiaries of the caller's tenant as a streamed CSV file. */
export function createBeneficiaryExportModule(deps: {
  db: Db;
  clock: Clock;
  beneficiaries: Pick<BeneficiaryService, "present">;
  batchSize?: number;
  recordAudit: RecordActorAudit;
}) {
  const service = createBeneficiaryExportService({
    db: deps.db,
    clock: deps.clock,
    presentBeneficiary: deps.beneficiaries.present,
    recordAudit: deps.recordAudit,
    ...(deps.batchSize === undefined ? {} : { batchSize: deps.batchSize }),
  });
  return {
    service,
    registerRoutes: (app: AppInstance) => registerBeneficiaryExportRoutes(app, service),
  };
}
