// What the emails module needs from other modules, named and required (test/startup/module-ports.test.ts).

import type { Tx } from "../../platform/db/client.js";
import type { RecipientFacts } from "./emails.service.js";

export interface EmailsPorts {
  /**
   * From the registration module, which owns users and memberships: whether a recipient is one of a Business's
   * verified people (sandbox mail to strangers is captured, not sent).
   */
  readonly recipientFacts: (tx: Tx, businessId: string, address: string) => Promise<RecipientFacts>;
}
