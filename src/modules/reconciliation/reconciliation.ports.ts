// What the reconciliation module needs from other modules, named and required (test/startup/module-ports.test.ts).
// Each is another module's offer, stated here by the shape this module uses.
import type { Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Db, Tx } from "../../platform/db/client.js";
import type { PayoutReconciliation } from "../payouts/index.js";

/** A funding account as reconciliation reads it. */
export interface FundingAccountFacts {
  readonly id: string;
  readonly currency: string;
  readonly postedMinor: number;
  readonly pendingMinor: number;
}

export interface TransferRef {
  readonly id: string;
  readonly postedAfterMinor: number;
  readonly pendingAfterMinor: number;
}

/** A payout we sent in a bank file, as the bank-rails module knows it. */
export interface SentItemFacts {
  readonly payoutId: string;
  readonly amountMinor: number;
  readonly rail: "sepa" | "ach";
  readonly reference: string;
  readonly rejected: boolean;
}

export interface StatementFacts {
  /** The rail whose debtor account the statement names, or null. */
  statementAccountRail(
    db: Db,
    tenant: Tenant,
    account: { readonly iban: string | null; readonly number: string | null },
  ): Promise<"sepa" | "ach" | null>;
  /** Our items named by EndToEndIds or ACH traces, keyed by the reference as given. */
  sentItemsByReferences(db: Db, tenant: Tenant, references: readonly string[]): Promise<Map<string, SentItemFacts>>;
  /** The items of payment blocks of ours by their reference (PmtInfId, ACH batch reference); unknown ones absent. */
  paymentBlocks(db: Db, tenant: Tenant, references: readonly string[]): Promise<Map<string, SentItemFacts[]>>;
}

export interface TopUpFacts {
  readonly id: string;
  readonly fundingAccountId: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly reference: string;
  readonly status: "pending_approval" | "approved" | "rejected";
}

export interface StatementTopUps {
  /** Not rejected, of any of these amounts (at most 50 per amount, newest first): one query for a statement's credits. */
  ofAmounts(db: Db, tenant: Tenant, fundingAccountId: string, amountsMinor: readonly number[]): Promise<TopUpFacts[]>;
  find(db: Db, tenant: Tenant, id: string): Promise<TopUpFacts | null>;
}

export type StatementMovement = (
  tx: Tx,
  tenant: Tenant,
  input: {
    readonly fundingAccountId: string;
    readonly amountMinor: number;
    readonly counterpart: "suspense" | "fees" | "outside_world";
    readonly step: "post" | "reverse" | "credit" | "fee";
    readonly cause: { readonly type: "statement_line"; readonly id: string };
    readonly idempotencyKey: string;
  },
) => Promise<TransferRef>;

/**
 * Several movements of one funding account (StatementMovement's, in one statement): the transfers in the order
 * given, each with the balances after it; a key recorded before (or earlier in the list) returns its transfer.
 */
export type StatementMovements = (
  tx: Tx,
  tenant: Tenant,
  fundingAccountId: string,
  movements: ReadonlyArray<{
    readonly amountMinor: number;
    readonly counterpart: "suspense" | "fees" | "outside_world";
    readonly step: "post" | "reverse" | "credit" | "fee";
    readonly cause: { readonly type: "statement_line"; readonly id: string };
    readonly idempotencyKey: string;
    /** The line's booking (else value) day: the ledger counts the transfer on that bank day. */
    readonly bookedOn: string | null;
  }>,
) => Promise<TransferRef[]>;

export interface ReconciliationPorts {
  /** From the funding module: the funding account of a bank rail in a currency. */
  readonly findRailFundingAccount: (
    db: Db,
    tenant: Tenant,
    rail: "sepa" | "ach",
    currency: string,
  ) => Promise<FundingAccountFacts | null>;
  /** From the funding module: a funding account by id (its balances now). */
  readonly findFundingAccount: (db: Db, tenant: Tenant, id: string) => Promise<FundingAccountFacts | null>;
  /** From the funding module: an unknown credit funds the account (outside world -> funding). */
  readonly creditFundingAccount: (
    tx: Tx,
    tenant: Tenant,
    input: {
      readonly fundingAccountId: string;
      readonly amountMinor: number;
      readonly cause: { readonly type: "statement_line"; readonly id: string };
      readonly idempotencyKey: string;
    },
  ) => Promise<TransferRef>;
  /** From the funding module: unknown debits to suspense, fees, releases, opening balances. */
  readonly postStatementMovement: StatementMovement;
  /** From the funding module: a statement's unmatched lines and fees of one funding account, in one statement. */
  readonly postStatementMovements: StatementMovements;
  /** From the bank-rails module: a statement's account, the payouts a reference or a payment block names. */
  readonly statementFacts: StatementFacts;
  /** From the payouts module: candidates, and the moves a matched line makes (through the lifecycle). */
  readonly payouts: PayoutReconciliation;
  /** From the top-ups module: a credit's top-up by reference. */
  readonly topUps: StatementTopUps;
  /** From the people module: manual acts, in their transaction. */
  readonly recordAudit: RecordActorAudit;
}
