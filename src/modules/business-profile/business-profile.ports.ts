// What the business-profile module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { RecordActorAudit } from "../../platform/auth/audit.js";

export interface BusinessProfilePorts {
  /** From the people module: profile changes are recorded in their transaction. */
  readonly recordAudit: RecordActorAudit;
}
