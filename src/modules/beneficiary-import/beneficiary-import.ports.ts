// What the beneficiary-import module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Tx } from "../../platform/db/client.js";
import type { BeneficiaryService } from "../beneficiaries/index.js";
import type { DestinationService } from "../destinations/index.js";

export interface BeneficiaryImportPorts {
  /** From the beneficiaries module: a row's Beneficiary checked and prepared by the API's own rules. */
  readonly prepareBeneficiary: BeneficiaryService["prepareBeneficiary"];
  /** From the beneficiaries module: sanctions screening of the imported Beneficiaries, in the import's transaction. */
  readonly screenBeneficiaries: BeneficiaryService["screenChanged"];
  /** From the destinations module: a row's bank account checked and prepared by the API's own rules. */
  readonly prepareBankAccount: DestinationService["prepareBankAccount"];
  /** From the enrollment module: queues the enrollment of acknowledged rows with the payout rail, in the import's transaction. */
  readonly enqueueEnrollment: (tx: Tx, tenant: Tenant, beneficiaryIds: readonly string[]) => Promise<void>;
  /** From the destinations module: queues the payee name check of the imported accounts, in the import's transaction. */
  readonly requestNameChecks: (tx: Tx, tenant: Tenant, destinationIds: readonly string[]) => Promise<void>;
  /** From the people module: every import is recorded with its actor. */
  readonly recordAudit: RecordActorAudit;
}
