// What the beneficiaries module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Tx } from "../../platform/db/client.js";
import type { MailOutbox } from "../emails/index.js";
import type { ScreenInTransaction } from "./beneficiaries.service.js";

export interface BeneficiariesPorts {
  /** From the emails module: notices to Beneficiaries go through the outbox. */
  readonly mail: Pick<MailOutbox, "sendForBusiness">;
  /** From the enrollment module: enrolls an acknowledged Beneficiary with the rail once the commit is done. */
  readonly enrollAfterCommit: (tenant: Tenant, beneficiaryId: string) => Promise<void>;
  /** From the collection module (which owns the links): archiving closes the live link in its transaction. */
  readonly closeLinksOnArchive: (tx: Tx, tenant: Tenant, beneficiaryId: string, at: Date) => Promise<void>;
  /** From the destinations module: a change of the legal name queues the payee name check of the live accounts, in its transaction. */
  readonly requestNameChecks: (tx: Tx, tenant: Tenant, beneficiaryId: string) => Promise<void>;
  /** From the people module: security-relevant changes are recorded in their transaction. */
  readonly recordAudit: RecordActorAudit;
  /** From the screening module: a created Beneficiary, or one whose name or country changed, is screened in that transaction. */
  readonly screenInTransaction: ScreenInTransaction;
}
