// What the api-keys module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { RecordActorAudit } from "../../platform/auth/audit.js";

export interface ApiKeysPorts {
  /** From the people module: key creation and revocation are recorded in their transaction. */
  readonly recordAudit: RecordActorAudit;
}
