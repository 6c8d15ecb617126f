// What the beneficiary-export module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { BeneficiaryService } from "../beneficiaries/index.js";

export interface BeneficiaryExportPorts {
  /** From the beneficiaries module: each row as the API presents a Beneficiary. */
  readonly presentBeneficiary: BeneficiaryService["present"];
  /** From the people module: every export is recorded with its actor. */
  readonly recordAudit: RecordActorAudit;
}
