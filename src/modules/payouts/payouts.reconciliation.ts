// What the payouts module offers the reconciliation module (issue 28): the payouts a statement line may name, and
// the moves a matched line makes, in the caller's transaction and through the lifecycle (the only path of every
// status change): a matched debit disburses the payout at the booking date when not yet, and marks it reconciled
// (`payout.reconciled`); a return line returns it, with what came back (less: a bank fee).
import { and, asc, eq, sql } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import { anyOf } from "../../platform/db/arrays.js";
import { type Db, queryRows, type Tx } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import type { EventRecorder, NewEvent } from "../../platform/events/outbox.js";
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

/** The columns of a `PayoutForReconciliation`: what the look-ups read (not the whole row: 10,000 per statement file). */
const VIEW_COLUMNS = {
  id: payouts.id,
  status: payouts.status,
  amountMinor: payouts.amountMinor,
  currency: payouts.currency,
  fundingAccountId: payouts.fundingAccountId,
  beneficiaryId: payouts.beneficiaryId,
  destinationLast4: payouts.destinationLast4,
  externalRef: payouts.externalRef,
  rail: payouts.rail,
  reconciliationStatus: payouts.reconciliationStatus,
  disbursementStartedAt: payouts.disbursementStartedAt,
  disbursedAt: payouts.disbursedAt,
  createdAt: payouts.createdAt,
};

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

/** A move a statement line makes on a payout (see `applyStatementMoves`). */
export type StatementMove =
  | {
      readonly kind: "reconcile";
      readonly payoutId: string;
      readonly bookedAt: Date;
      readonly statementLineId: string;
      readonly rule: string;
    }
  | {
      readonly kind: "return";
      readonly payoutId: string;
      readonly reason: string;
      readonly returnedAmountMinor: number;
      /** The return line's booking day (recorded on the reversal's posting). */
      readonly bookedOn?: string | null;
    };

export type MoveOutcome = ReconcileOutcome | { readonly kind: "returned" | "already" };

/**
 * Payouts `lockPayouts` locked in a transaction, as read under the lock: nothing else changes them until that
 * transaction ends, so `applyStatementMoves` decides on these rows instead of locking them again. Opaque to callers.
 */
export interface LockedPayouts {
  readonly tx: Tx;
  readonly ids: ReadonlySet<string>;
  readonly rows: ReadonlyMap<string, PayoutRow>;
}

export function createPayoutReconciliation(deps: {
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly lifecycle: Lifecycle;
}) {
  const { clock, events, lifecycle } = deps;

  /** The tenant's payouts of these ids (missing ones absent). */
  async function findPayouts(db: Db, tenant: Tenant, ids: readonly string[]): Promise<Map<string, PayoutForReconciliation>> {
    if (ids.length === 0) return new Map();
    const rows: PayoutForReconciliation[] = await db
      .select(VIEW_COLUMNS)
      .from(payouts)
      .where(and(ownedBy(payouts, tenant), anyOf(payouts.id, ids)));
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * Locks the payouts a statement is about to move, in id order (every transaction that locks several takes
   * them in the same order: no deadlock between two statements), before the funding row (taken last by postings).
   * Returns them as read under the lock, for `applyStatementMoves` in the same transaction (no second lock).
   */
  async function lockPayouts(tx: Tx, tenant: Tenant, ids: readonly string[]): Promise<LockedPayouts> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return { tx, ids: new Set(), rows: new Map() };
    const rows = await tx
      .select()
      .from(payouts)
      .where(and(ownedBy(payouts, tenant), anyOf(payouts.id, wanted)))
      .orderBy(asc(payouts.id))
      .for("update");
    return { tx, ids: new Set(wanted), rows: new Map(rows.map((row) => [row.id, row])) };
  }

  /** The payee's name of each Beneficiary (a review candidate shows who the payout was for). */
  async function payeeNames(db: Db, tenant: Tenant, beneficiaryIds: readonly string[]): Promise<Map<string, string>> {
    const names = await findPayeeNames(db, tenant, [...new Set(beneficiaryIds)]);
    return new Map([...names].map(([id, name]) => [id, name.displayName]));
  }

  /**
   * For each query (an amount and currency, a range): the payouts of that amount whose money may have left in the
   * range (their disbursement started, or they were disbursed, in it), not reconciled yet, at most 50 by id: the
   * `amount_date` rule's candidates, for every line of a statement in two round trips (the ids by a lateral
   * look-up on the amount index per query, then the payouts). Answers one list per query, in the queries' order.
   * Written so that only `payouts_tenant_amount_idx` serves it, with or without statistics: ordered by the id's
   * text (the same order for these lowercase UUIDs) and the currency compared as an expression; as plain
   * `order by id limit 50` and `currency =`, a table without statistics was read in id order through the
   * currency index, every payout of the tenant in that currency per window (measured: 200,000 payouts, 278 ms
   * per window; this way 0.08 ms).
   */
  async function amountDateCandidates(
    db: Db,
    tenant: Tenant,
    queries: ReadonlyArray<{ readonly currency: string; readonly amountMinor: number; readonly from: Date; readonly to: Date }>,
  ): Promise<PayoutForReconciliation[][]> {
    if (queries.length === 0) return [];
    const input = queries.map((q, n) => ({
      n,
      amount_minor: q.amountMinor,
      currency: q.currency,
      from_at: q.from.toISOString(),
      to_at: q.to.toISOString(),
    }));
    const hits = await queryRows<{ n: number; id: string }>(
      db,
      sql`select q.n, c.id::text as id
          from jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
            as q(n int, amount_minor bigint, currency text, from_at timestamptz, to_at timestamptz)
          cross join lateral (
            select p.id from payouts p
            where p.business_id = ${tenant.businessId} and p.environment = ${tenant.environment}
              and p.amount_minor = q.amount_minor and p.currency::text || '' = q.currency
              and p.reconciliation_status = 'unreconciled'
              and p.status::text in (${sql.join(
                SENT_STATUSES.map((status) => sql`${status}`),
                sql`, `,
              )})
              and p.disbursement_started_at is not null
              and ((p.disbursement_started_at >= q.from_at and p.disbursement_started_at <= q.to_at)
                or (p.disbursed_at >= q.from_at and p.disbursed_at <= q.to_at))
            order by p.id::text
            limit 50
          ) c`,
    );
    const found = await findPayouts(db, tenant, [...new Set(hits.map((h) => h.id))]);
    const out: PayoutForReconciliation[][] = queries.map(() => []);
    for (const hit of hits) {
      const payout = found.get(hit.id);
      if (payout !== undefined) out[Number(hit.n)]?.push(payout);
    }
    for (const list of out) list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return out;
  }

  /**
   * The moves the lines of one statement make, in one go: the payouts locked in one `SELECT ... FOR UPDATE` in id
   * order (`lockPayouts`; or the rows the caller's `lockPayouts` of this transaction read, when it locked every
   * payout moved), then each move decided on the row it locked, in the order given.
   * `reconcile` (a matched debit): `disbursed` at the booking date through the lifecycle when it is still approved
   * (the posting rule posts its hold), then `reconciled` with `payout.reconciled`; a payout whose money cannot
   * have left (failed, canceled...) is refused, never moved. The `reconciled` marks are written together (one
   * UPDATE, their events in one INSERT) before any later move of the same payout, so each payout's events keep
   * their order. `return` (a return line): `returned` through the lifecycle with what came back.
   */
  async function applyStatementMoves(
    tx: Tx,
    tenant: Tenant,
    moves: readonly StatementMove[],
    lockedAlready?: LockedPayouts,
  ): Promise<MoveOutcome[]> {
    const outcomes: MoveOutcome[] = moves.map(() => ({ kind: "refused", reason: "not applied" }));
    if (moves.length === 0) return outcomes;
    const covered =
      lockedAlready !== undefined && lockedAlready.tx === tx && moves.every((m) => lockedAlready.ids.has(m.payoutId));
    const current = new Map(
      covered
        ? lockedAlready.rows
        : (
            await lockPayouts(
              tx,
              tenant,
              moves.map((m) => m.payoutId),
            )
          ).rows,
    );
    let marks: Array<{ index: number; id: string; move: Extract<StatementMove, { kind: "reconcile" }> }> = [];

    async function flushMarks(): Promise<void> {
      if (marks.length === 0) return;
      const batch = marks;
      marks = [];
      const now = clock.now();
      const patch = { reconciliationStatus: "reconciled" as const, reconciledAt: now, updatedAt: now };
      // Only the ids come back: every mark is of a row this transaction locked and read (`current`), so the row after
      // it is that row with the patch (reading 10,000 whole rows back cost about 0.2 s per 10,000 lines).
      const updated = await tx
        .update(payouts)
        .set(patch)
        .where(
          and(
            anyOf(
              payouts.id,
              batch.map((m) => m.id),
            ),
            eq(payouts.reconciliationStatus, "unreconciled"),
          ),
        )
        .returning({ id: payouts.id });
      const marked = new Set(updated.map((row) => row.id));
      const recorded: NewEvent[] = [];
      for (const mark of batch) {
        const before = current.get(mark.id);
        if (before === undefined || !marked.has(mark.id)) {
          outcomes[mark.index] = { kind: "refused", reason: "the payout was reconciled meanwhile" };
          continue;
        }
        const row: PayoutRow = { ...before, ...patch };
        current.set(row.id, row);
        recorded.push({
          tenant,
          type: "payout.reconciled",
          subjectId: row.id,
          data: eventData(row, "payout.reconciled", {
            reconciliation_status: "reconciled",
            reconciled_at: now.toISOString(),
            statement_line_id: mark.move.statementLineId,
            rule: mark.move.rule,
          }),
        });
        outcomes[mark.index] = { kind: "reconciled", payout: view(row) };
      }
      await events.recordMany(tx, recorded);
    }

    // The returns, applied together (lifecycle.applyMany: one update, one statement of events, the reversals in one
    // posting per funding account) when the batch is flushed: before any later move of one of its payouts, and at
    // the end.
    let returns: Array<{ index: number; row: PayoutRow; move: Extract<StatementMove, { kind: "return" }> }> = [];
    async function flushReturns(): Promise<void> {
      if (returns.length === 0) return;
      const batch = returns;
      returns = [];
      const applied = await lifecycle.applyMany(
        tx,
        batch.map(({ row, move }) => ({
          payout: row,
          bookedOn: move.bookedOn ?? null,
          trigger: { type: "returned", reason: move.reason, returnedAmountMinor: move.returnedAmountMinor },
        })),
      );
      batch.forEach(({ index }, k) => {
        const moved = applied[k];
        if (moved === undefined) return;
        if (moved.kind === "moved") current.set(moved.payout.id, moved.payout);
        outcomes[index] =
          moved.kind === "moved"
            ? { kind: "returned" }
            : moved.kind === "noop"
              ? { kind: "already" }
              : moved.kind === "lost"
                ? { kind: "refused", reason: "the payout moved meanwhile" }
                : { kind: "refused", reason: moved.reason };
      });
    }

    for (let index = 0; index < moves.length; index += 1) {
      const move = moves[index];
      if (move === undefined) continue;
      // A payout waiting for its reconciled mark (or its return) moves again: those first (the events' order).
      if (marks.some((m) => m.id === move.payoutId)) await flushMarks();
      if (returns.some((r) => r.row.id === move.payoutId)) await flushReturns();
      let row = current.get(move.payoutId);
      if (row === undefined) {
        outcomes[index] = { kind: "refused", reason: "no such payout" };
        continue;
      }
      if (move.kind === "reconcile") {
        if (!SENT_STATUSES.includes(row.status)) {
          outcomes[index] = { kind: "refused", reason: `the payout is ${row.status}` };
          continue;
        }
        if (row.status === "approved") {
          const moved = await lifecycle.apply(tx, row, { type: "disbursed", disbursedAt: move.bookedAt });
          if (moved.kind === "lost") {
            outcomes[index] = { kind: "refused", reason: "the payout moved meanwhile" };
            continue;
          }
          if (moved.kind === "moved") {
            row = moved.payout;
            current.set(row.id, row);
          }
        }
        if (row.reconciliationStatus === "reconciled") outcomes[index] = { kind: "reconciled", payout: view(row) };
        else marks.push({ index, id: row.id, move });
        continue;
      }
      if (row.status === "returned") {
        outcomes[index] = { kind: "already" };
        continue;
      }
      // A return booked for a payout never reported disbursed: the money left first (the bank says so by returning it).
      if (row.status === "approved" && row.disbursementStartedAt !== null) {
        const moved = await lifecycle.apply(tx, row, { type: "disbursed" });
        if (moved.kind === "moved") {
          row = moved.payout;
          current.set(row.id, row);
        }
      }
      returns.push({ index, row, move });
    }
    await flushMarks();
    await flushReturns();
    return outcomes;
  }

  /** One matched debit (a person's match): `applyStatementMoves` with one move. */
  async function markReconciled(
    tx: Tx,
    tenant: Tenant,
    payoutId: string,
    facts: { readonly bookedAt: Date; readonly statementLineId: string; readonly rule: string },
  ): Promise<ReconcileOutcome> {
    const [outcome] = await applyStatementMoves(tx, tenant, [{ kind: "reconcile", payoutId, ...facts }]);
    if (outcome?.kind === "reconciled" || outcome?.kind === "refused") return outcome;
    return { kind: "refused", reason: "not a reconciliation" };
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

  /** One return line (a person's match): `applyStatementMoves` with one move. */
  async function returnPayout(
    tx: Tx,
    tenant: Tenant,
    payoutId: string,
    facts: { readonly reason: string; readonly returnedAmountMinor: number },
  ): Promise<{ readonly kind: "returned" | "already" } | { readonly kind: "refused"; readonly reason: string }> {
    const [outcome] = await applyStatementMoves(tx, tenant, [{ kind: "return", payoutId, ...facts }]);
    if (outcome === undefined || outcome.kind === "reconciled") return { kind: "refused", reason: "not a return" };
    return outcome;
  }

  return {
    findPayouts,
    lockPayouts,
    payeeNames,
    amountDateCandidates,
    applyStatementMoves,
    markReconciled,
    markUnreconciled,
    returnPayout,
  };
}

export type PayoutReconciliation = ReturnType<typeof createPayoutReconciliation>;
