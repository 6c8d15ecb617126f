// What the payouts module offers the reconciliation module (issue 28): the payouts a statement line may name, and
// the moves a matched line makes, in the caller's transaction and through the lifecycle (the only path of every
// status change): a matched debit disburses the payout at the booking date when not yet, and marks it reconciled
// (`payout.reconciled`); a return line returns it, with what came back (less: a bank fee).
import { and, asc, eq, gte, inArray, isNotNull, lte, or } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db, Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import { findPayeeNames } from "../beneficiaries/beneficiaries.shared.js";
import { eventData, type Lifecycle } from "./payouts.lifecycle.js";
import { lockPayout, type PayoutRow } from "./payouts.repo.js";
import { payouts } from "./payouts.schema.js";
import type { PayoutStatus } from "./payouts.state.js";

/** A payout as reconciliation sees it (candidates, matches). */
export interface PayoutForReconciliation {
  readonly id: string;
  readonly status: PayoutStatus;
  readonly amountMinor: number;
  readonly currency: string;
  readonly fundingAccountId: string | null;
  readonly beneficiaryId: string;
  readonly destinationLast4: string;
  readonly externalRef: string | null;
  readonly rail: string | null;
  readonly reconciliationStatus: "unreconciled" | "reconciled";
  readonly disbursementStartedAt: Date | null;
  readonly disbursedAt: Date | null;
  readonly createdAt: Date;
}

/** Statuses in which the money of a payout may have left (a debit line can be its booking). */
export const SENT_STATUSES: readonly PayoutStatus[] = ["approved", "disbursed", "settled", "returned", "compliance_hold"];

const view = (row: PayoutRow): PayoutForReconciliation => ({
  id: row.id,
  status: row.status,
  amountMinor: row.amountMinor,
  currency: row.currency,
  fundingAccountId: row.fundingAccountId,
  beneficiaryId: row.beneficiaryId,
  destinationLast4: row.destinationLast4,
  externalRef: row.externalRef,
  rail: row.rail,
  reconciliationStatus: row.reconciliationStatus,
  disbursementStartedAt: row.disbursementStartedAt,
  disbursedAt: row.disbursedAt,
  createdAt: row.createdAt,
});

export type ReconcileOutcome =
  | { readonly kind: "reconciled"; readonly payout: PayoutForReconciliation }
  | { readonly kind: "refused"; readonly reason: string };

export function createPayoutReconciliation(deps: {
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly lifecycle: Lifecycle;
}) {
  const { clock, events, lifecycle } = deps;

  /** The tenant's payouts of these ids (missing ones absent). */
  async function findPayouts(db: Db, tenant: Tenant, ids: readonly string[]): Promise<Map<string, PayoutForReconciliation>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select()
      .from(payouts)
      .where(and(ownedBy(payouts, tenant), inArray(payouts.id, [...ids])));
    return new Map(rows.map((row) => [row.id, view(row)]));
  }

  /**
   * Locks the payouts a statement is about to move, in id order (every transaction that locks several takes
   * them in the same order: no deadlock between two statements), before the funding row (taken last by postings).
   */
  async function lockPayouts(tx: Tx, tenant: Tenant, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await tx
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(ownedBy(payouts, tenant), inArray(payouts.id, [...new Set(ids)])))
      .orderBy(asc(payouts.id))
      .for("update");
  }

  /** The payee's name of each Beneficiary (a review candidate shows who the payout was for). */
  async function payeeNames(db: Db, tenant: Tenant, beneficiaryIds: readonly string[]): Promise<Map<string, string>> {
    const names = await findPayeeNames(db, tenant, [...new Set(beneficiaryIds)]);
    return new Map([...names].map(([id, name]) => [id, name.displayName]));
  }

  /**
   * Payouts of one amount and currency whose money may have left between `from` and `to` (their disbursement
   * started, or they were disbursed, in that range), not reconciled yet: the `amount_date` rule's candidates.
   */
  async function amountDateCandidates(
    db: Db,
    tenant: Tenant,
    query: { readonly currency: string; readonly amountMinor: number; readonly from: Date; readonly to: Date },
  ): Promise<PayoutForReconciliation[]> {
    const rows = await db
      .select()
      .from(payouts)
      .where(
        and(
          ownedBy(payouts, tenant),
          eq(payouts.amountMinor, query.amountMinor),
          eq(payouts.currency, query.currency),
          eq(payouts.reconciliationStatus, "unreconciled"),
          inArray(payouts.status, [...SENT_STATUSES]),
          isNotNull(payouts.disbursementStartedAt),
          or(
            and(gte(payouts.disbursementStartedAt, query.from), lte(payouts.disbursementStartedAt, query.to)),
            and(gte(payouts.disbursedAt, query.from), lte(payouts.disbursedAt, query.to)),
          ),
        ),
      )
      .orderBy(asc(payouts.id))
      .limit(50);
    return rows.map(view);
  }

  /**
   * A debit line matched to the payout: `disbursed` at the booking date when it is still approved (the posting
   * rule posts its hold), then `reconciled` with `payout.reconciled`. A payout whose money cannot have left
   * (failed, canceled...) is refused, never moved.
   */
  async function markReconciled(
    tx: Tx,
    tenant: Tenant,
    payoutId: string,
    facts: { readonly bookedAt: Date; readonly statementLineId: string; readonly rule: string },
  ): Promise<ReconcileOutcome> {
    let row = await lockPayout(tx, tenant, payoutId);
    if (row === null) return { kind: "refused", reason: "no such payout" };
    if (!SENT_STATUSES.includes(row.status)) return { kind: "refused", reason: `the payout is ${row.status}` };
    if (row.status === "approved") {
      const moved = await lifecycle.apply(tx, row, { type: "disbursed", disbursedAt: facts.bookedAt });
      if (moved.kind === "moved") row = moved.payout;
      else if (moved.kind === "lost") return { kind: "refused", reason: "the payout moved meanwhile" };
    }
    if (row.reconciliationStatus === "reconciled") return { kind: "reconciled", payout: view(row) };
    const now = clock.now();
    const [updated] = await tx
      .update(payouts)
      .set({ reconciliationStatus: "reconciled", reconciledAt: now, updatedAt: now })
      .where(and(eq(payouts.id, row.id), eq(payouts.reconciliationStatus, "unreconciled")))
      .returning();
    if (updated === undefined) return { kind: "refused", reason: "the payout was reconciled meanwhile" };
    await events.record(tx, {
      tenant,
      type: "payout.reconciled",
      subjectId: updated.id,
      data: eventData(updated, "payout.reconciled", {
        reconciliation_status: "reconciled",
        reconciled_at: now.toISOString(),
        statement_line_id: facts.statementLineId,
        rule: facts.rule,
      }),
    });
    return { kind: "reconciled", payout: view(updated) };
  }

  /** A match undone by a person: back to `unreconciled` (the status the booking brought stays: money left). */
  async function markUnreconciled(tx: Tx, tenant: Tenant, payoutId: string): Promise<void> {
    const row = await lockPayout(tx, tenant, payoutId);
    if (row === null) return;
    await tx
      .update(payouts)
      .set({ reconciliationStatus: "unreconciled", reconciledAt: null, updatedAt: clock.now() })
      .where(eq(payouts.id, row.id));
  }

  /** A return line: `returned` through the lifecycle with what came back (the rest posts to fees). */
  async function returnPayout(
    tx: Tx,
    tenant: Tenant,
    payoutId: string,
    facts: { readonly reason: string; readonly returnedAmountMinor: number },
  ): Promise<{ readonly kind: "returned" | "already" } | { readonly kind: "refused"; readonly reason: string }> {
    const row = await lockPayout(tx, tenant, payoutId);
    if (row === null) return { kind: "refused", reason: "no such payout" };
    if (row.status === "returned") return { kind: "already" };
    let current = row;
    // A return booked for a payout never reported disbursed: the money left first (the bank says so by returning it).
    if (current.status === "approved" && current.disbursementStartedAt !== null) {
      const moved = await lifecycle.apply(tx, current, { type: "disbursed" });
      if (moved.kind === "moved") current = moved.payout;
    }
    const moved = await lifecycle.apply(tx, current, {
      type: "returned",
      reason: facts.reason,
      returnedAmountMinor: facts.returnedAmountMinor,
    });
    if (moved.kind === "moved") return { kind: "returned" };
    if (moved.kind === "noop") return { kind: "already" };
    if (moved.kind === "lost") return { kind: "refused", reason: "the payout moved meanwhile" };
    return { kind: "refused", reason: moved.reason };
  }

  return { findPayouts, lockPayouts, payeeNames, amountDateCandidates, markReconciled, markUnreconciled, returnPayout };
}

export type PayoutReconciliation = ReturnType<typeof createPayoutReconciliation>;
