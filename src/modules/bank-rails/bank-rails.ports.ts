// What the bank-rails module needs from other modules, named and required: the composition root
// (src/composition.ts) passes each one. None may be optional (test/startup/module-ports.test.ts).
import type { Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit, ReportWeakenedControl } from "../../platform/auth/audit.js";
import type { Tx } from "../../platform/db/client.js";
import type { PostalAddressValue } from "../beneficiaries/index.js";
import type { DestinationRoutingFacts } from "../destinations/index.js";
import type { PayoutBankFileHooks } from "../payouts/index.js";

/**
 * From the funding module: the funding account of a configured rail's debtor account (created the first time,
 * its masked identifier kept current), in the configuring transaction.
 */
export type OpenRailFundingAccount = (
  tx: Tx,
  tenant: Tenant,
  account: { readonly rail: "sepa" | "ach"; readonly currency: string; readonly accountIdentifierMasked: string },
) => Promise<unknown>;

/**
 * From the reconciliation module (issue 28): a bank statement (camt.053, camt.052, BAI2) found in a rail's inbound
 * folder, handed over in the file's transaction. Answers what it did, in words for the inbound file; throws a
 * parse or refusal error (the file is then recorded refused, with the error's words).
 */
export interface InboundStatements {
  isStatement(text: string): boolean;
  receive(
    tx: Tx,
    tenant: Tenant,
    text: string,
    origin: { readonly rail: "sepa" | "ach"; readonly fileName: string },
  ): Promise<{ readonly kind: string; readonly unmatched: string[] }>;
}

export interface BankRailsPorts {
  /** From the reconciliation module: statements found in an inbound folder. */
  readonly statements: InboundStatements;
  readonly openFundingAccount: OpenRailFundingAccount;
  /**
   * From the destinations module: the routing facts of destinations by id, one query for all (a bulk creation
   * checks every row at once; a cut-off asks for one). The only routing input: creation, collection,
   * registration and file writing route by the same facts.
   */
  readonly destinationRoutingFactsOf: (
    tx: Tx,
    tenant: Tenant,
    destinationIds: readonly string[],
  ) => Promise<ReadonlyMap<string, DestinationRoutingFacts>>;
  /** From the beneficiaries module: postal addresses by Beneficiary id (a SEPA file carries them structured). */
  readonly postalAddressesOf: (
    tx: Tx,
    tenant: Tenant,
    beneficiaryIds: readonly string[],
  ) => Promise<ReadonlyMap<string, PostalAddressValue>>;
  /** From the payouts module: the payouts waiting for a cut-off, and the record of their submission in a file. */
  readonly payoutFiles: PayoutBankFileHooks;
  /** From the people module: rail configuration changes and reads of a file's bytes, in their transaction. */
  readonly recordAudit: RecordActorAudit;
  /** From the people module: a configured rail's delivery target change is refused to keys and e-mailed to admins. */
  readonly reportWeakenedControl: ReportWeakenedControl;
}
