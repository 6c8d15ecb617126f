// What the webhooks module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { RecordActorAudit } from "../../platform/auth/audit.js";

export interface WebhooksPorts {
  /** From the people module: subscription changes and secret rotations are recorded in their transaction. */
  readonly recordAudit: RecordActorAudit;
}
