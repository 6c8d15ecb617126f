// POST /v1/beneficiaries/import: many Beneficiaries, each with a bank account, in one call. It reuses the
// beneficiaries' and destinations' own checks through their modules' doors.
import type { Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { Db, Tx } from "../../platform/db/client.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { BeneficiaryService } from "../beneficiaries/index.js";
import type { DestinationService } from "../destinations/index.js";
import { registerBeneficiaryImportRoutes } from "./beneficiary-import.routes.js";
import { BeneficiaryImportRowSchema } from "./beneficiary-import.schemas.js";
import { createBeneficiaryImportService, type ImportLogger } from "./beneficiary-import.service.js";

export { beneficiaryImportRouteRoles } from "./beneficiary-import.access.js";

export type BeneficiaryImportModule = ReturnType<typeof createBeneficiaryImportModule>;

export function createBeneficiaryImportModule(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  logger: ImportLogger;
  beneficiaries: Pick<BeneficiaryService, "prepareBeneficiary">;
  destinations: Pick<DestinationService, "prepareBankAccount">;
  /** Queues the enrollment of acknowledged rows with the payout rail, in the import's transaction. */
  enqueueEnrollment?: (tx: Tx, tenant: Tenant, beneficiaryIds: readonly string[]) => Promise<void>;
  recordAudit: RecordActorAudit;
}) {
  const service = createBeneficiaryImportService({
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    logger: deps.logger,
    recordAudit: deps.recordAudit,
    prepareBeneficiary: deps.beneficiaries.prepareBeneficiary,
    prepareBankAccount: deps.destinations.prepareBankAccount,
    ...(deps.enqueueEnrollment === undefined ? {} : { enqueueEnrollment: deps.enqueueEnrollment }),
  });
  return {
    service,
    // Published as a named component so the OpenAPI document describes a row, though rows are checked one by one.
    sharedSchemas: [BeneficiaryImportRowSchema],
    registerRoutes: (app: AppInstance) => registerBeneficiaryImportRoutes(app, service),
  };
}
