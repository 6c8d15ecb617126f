// What the collection module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { CollectionServiceDeps } from "./collection.service.js";

export interface CollectionPorts {
  /** From the emails module: invitations go through the outbox (captured in sandbox, limited per day). */
  readonly mail: CollectionServiceDeps["mail"];
  /** From the beneficiaries module: identity rules, and the one path that changes a declared destination. */
  readonly beneficiaries: CollectionServiceDeps["beneficiaries"];
  /** From the destinations module: accounts a payee adds are checked and written by the API's own rules. */
  readonly destinations: CollectionServiceDeps["destinations"];
  /** From the enrollment module: enrolls a compliant Beneficiary's new account once the submission has committed. */
  readonly enrollAfterCommit: NonNullable<CollectionServiceDeps["enrollAfterCommit"]>;
  /** From the bank-rails module: the routing check payout creation runs, on the account being submitted. */
  readonly checkRailRoute: CollectionServiceDeps["checkRailRoute"];
  /** From the people module: branding changes, and accounts a payee adds by link. */
  readonly recordAudit: RecordActorAudit;
}
