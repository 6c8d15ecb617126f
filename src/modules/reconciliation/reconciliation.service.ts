// Reconciliation use cases (issue 28): statements in (upload and inbound folders), their lines recorded once and
// matched, unknown money posted (credits fund the account, debits go to suspense), the closing balance proved
// against the ledger; the people's acts (match, unmatch, ignore, accept the opening balance, resolve a mismatch).
// Each use case is one transaction with its postings, events and audit records. Lock order: statement row (its
// unique key), the payouts a statement moves (in id order), the funding row last (by the postings).
import { createHash } from "node:crypto";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { EventRecorder, NewEvent } from "../../platform/events/outbox.js";
import type { IdGenerator } from "../../platform/ids.js";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { statementLineFingerprints } from "../../rails/bank-files/statements.js";
import type { LockedPayouts, PayoutForReconciliation, StatementMove } from "../payouts/index.js";
import { postedBalanceAtEndOf } from "./reconciliation.balance-at.js";
import { RECONCILIATION_ERRORS } from "./reconciliation.errors.js";
import { createMatcher, type Decision, type LineFacts, type MatchSettings, readLookups } from "./reconciliation.matching.js";
import type { FundingAccountFacts, ReconciliationPorts, StatementMovements, TransferRef } from "./reconciliation.ports.js";
import {
  bookPendingLine,
  countLinesByStatus,
  deleteMatches,
  deleteMatchesOfLine,
  discardCachedPlans,
  findLine,
  findLinesByKeys,
  findStatement,
  findStatementByIdentity,
  highestSequence,
  insertLinesIfNew,
  insertMatchesAllOrNothing,
  insertMatchesIfFree,
  insertStatementIfNew,
  knownLineKeys,
  type LineCounts,
  type LinePatch,
  type LineRow,
  listLines,
  listStatements,
  lockLine,
  lockStatement,
  type MatchRow,
  matchClaimsTaken,
  matchesOfLines,
  type NewLineRow,
  type NewMatchRow,
  openingAccepted,
  type StatementRow,
  storedLine,
  updateLine,
  updateLinesAfterMatching,
  updateStatement,
} from "./reconciliation.repo.js";
import type { ActorRef, CandidateValue, LineReferences } from "./reconciliation.schema.js";
import type {
  BankStatementBody,
  LineListQuery,
  MatchBody,
  StatementLineBody,
  StatementListQuery,
} from "./reconciliation.schemas.js";
import type { BankStatement, StatementLine } from "./reconciliation.statement-types.js";

export interface ReconciliationSettings extends MatchSettings {
  /** Reads a statement file (camt.053, camt.052, BAI2); throws an error whose message says what is wrong. */
  readonly readStatements: (content: string) => BankStatement[];
  /** Whether a text is a statement (the inbound folder hands only those over). */
  readonly isStatement: (content: string) => boolean;
}

export interface ReconciliationServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly events: EventRecorder;
  readonly settings: ReconciliationSettings;
  readonly ports: ReconciliationPorts;
}

const AUTO: ActorRef = { kind: "auto", api_key_id: null, membership_id: null, user_id: null };
const personOf = (actor: Actor): ActorRef => ({
  kind: "person",
  api_key_id: actor.apiKeyId,
  membership_id: actor.membershipId,
  user_id: actor.userId,
});

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

function referencesOf(line: StatementLine): LineReferences {
  const e2e = line.details.flatMap((d) => (d.endToEndId === null || d.endToEndId === "NOTPROVIDED" ? [] : [d.endToEndId]));
  return {
    end_to_end_ids: [...new Set(e2e)],
    payment_information_id:
      line.paymentInformationId ?? line.details.find((d) => d.paymentInformationId !== null)?.paymentInformationId ?? null,
    instruction_ids: [...new Set(line.details.flatMap((d) => (d.instructionId === null ? [] : [d.instructionId])))],
    ach_trace: line.achTrace,
  };
}

interface StoredDetail {
  readonly endToEndId: string | null;
  readonly returnInfo: { originalEndToEndId: string | null; reasonCode: string | null } | null;
  readonly amountMinor: number | null;
}

function factsOf(row: LineRow): LineFacts {
  const details = (row.details as StoredDetail[]) ?? [];
  return {
    id: row.id,
    direction: row.direction,
    amountMinor: row.amountMinor,
    currency: row.currency,
    bookingDate: row.bookingDate,
    valueDate: row.valueDate,
    reversal: row.reversal,
    bankReference: row.bankReference,
    endToEndIds: row.references.end_to_end_ids,
    instructionIds: row.references.instruction_ids,
    paymentInformationId: row.references.payment_information_id,
    batchCount: row.batchCount,
    achTrace: row.references.ach_trace,
    remittance: row.remittance,
    returns: details.flatMap((d) =>
      d.returnInfo === null
        ? []
        : [
            {
              originalEndToEndId: d.returnInfo.originalEndToEndId,
              reasonCode: d.returnInfo.reasonCode,
              amountMinor: d.amountMinor,
            },
          ],
    ),
  };
}

export function presentStatement(row: StatementRow, counts: LineCounts): BankStatementBody {
  return {
    id: row.id,
    object: "bank_statement",
    funding_account_id: row.fundingAccountId,
    format: row.format as BankStatementBody["format"],
    message_version: row.messageVersion,
    statement_id: row.statementId,
    sequence_number: row.sequenceNumber,
    period_from: row.periodFrom,
    period_to: row.periodTo,
    opening_booked_minor: row.openingBookedMinor,
    closing_booked_minor: row.closingBookedMinor,
    currency: row.currency,
    line_count: counts.matched + counts.needs_review + counts.unmatched + counts.ignored + counts.pending,
    lines_received: row.linesReceived,
    lines_by_status: counts,
    balance_check: {
      status: row.balanceStatus,
      ledger_minor: row.ledgerMinor,
      bank_minor: row.bankMinor,
      difference_minor: row.differenceMinor,
      sequence_gap:
        row.sequenceExpected === null || row.sequenceReceived === null
          ? null
          : { expected: row.sequenceExpected, received: row.sequenceReceived },
      resolved_reason: row.resolvedReason,
    },
    created_at: row.createdAt.toISOString(),
    source: row.source,
  };
}

export function presentLine(row: LineRow, matches: readonly MatchRow[]): StatementLineBody {
  return {
    id: row.id,
    object: "statement_line",
    statement_id: row.statementId,
    funding_account_id: row.fundingAccountId,
    status: row.status,
    entry_status: row.entryStatus,
    booking_date: row.bookingDate,
    value_date: row.valueDate,
    direction: row.direction,
    amount_minor: row.amountMinor,
    currency: row.currency,
    bank_reference: row.bankReference,
    references: row.references,
    remittance: row.remittance,
    match:
      row.status === "matched" && row.matchRule !== null && row.matchedAt !== null
        ? {
            rule: row.matchRule,
            payout_ids: matches.flatMap((m) => (m.payoutId === null ? [] : [m.payoutId])),
            top_up_id: row.matchTopUpId,
            difference_minor: row.matchDifferenceMinor ?? 0,
            matched_by: row.matchedBy ?? AUTO,
            matched_at: row.matchedAt.toISOString(),
          }
        : null,
    candidates: row.candidates,
    review_reason: row.reviewReason,
    ignored_reason: row.ignoredReason,
    transfer_id: row.transferId,
    created_at: row.createdAt.toISOString(),
  };
}

/** The day the bank booked the line's money: its booking date, else its value date. */
const bankDayOf = (row: LineRow): string | null => row.bookingDate ?? row.valueDate;

/** Start of the booking day (UTC): when a matched payout is recorded disbursed. */
const bookedAt = (row: LineRow, now: Date) => {
  const date = bankDayOf(row);
  return date === null ? now : new Date(`${date}T00:00:00.000Z`);
};

/** Every field a line's matching sets (the row of `updateLinesAfterMatching`), as a line nothing matched yet. */
const openPatch = (id: string, now: Date): LinePatch => ({
  id,
  status: "unmatched",
  matchRule: null,
  matchTopUpId: null,
  matchDifferenceMinor: null,
  matchedBy: null,
  matchedAt: null,
  candidates: [],
  reviewReason: null,
  transferId: null,
  updatedAt: now,
});

/** A review candidate as the queue shows it (at most 20 per line), the payees' names read once for all lines. */
function candidateValuesOf(payouts: readonly PayoutForReconciliation[], names: ReadonlyMap<string, string>): CandidateValue[] {
  return payouts.slice(0, 20).map((p) => ({
    payout_id: p.id,
    amount_minor: p.amountMinor,
    currency: p.currency,
    payee: {
      beneficiary_id: p.beneficiaryId,
      display_name: names.get(p.beneficiaryId) ?? null,
      destination_last4: p.destinationLast4,
    },
    created_at: p.createdAt.toISOString(),
  }));
}

function reviewEvent(tenant: Tenant, line: LineRow, values: readonly CandidateValue[], reason: string): NewEvent {
  return {
    tenant,
    type: "statement_line.needs_review",
    subjectId: line.id,
    data: {
      statement_line_id: line.id,
      statement_id: line.statementId,
      funding_account_id: line.fundingAccountId,
      direction: line.direction,
      amount_minor: line.amountMinor,
      currency: line.currency,
      booking_date: line.bookingDate,
      candidate_payout_ids: values.map((c) => c.payout_id),
      reason,
    },
  };
}

export type ReceiveOutcome = { readonly created: boolean; readonly statements: readonly StatementRow[] };

export function createReconciliationService(deps: ReconciliationServiceDeps) {
  const { db, clock, ids, events, settings, ports } = deps;
  const matcher = createMatcher(ports, settings);

  function parse(content: string): BankStatement[] {
    try {
      const statements = settings.readStatements(content);
      if (statements.length === 0) throw new Error("the file holds no statement");
      return statements;
    } catch (error) {
      throw new AppError(RECONCILIATION_ERRORS.STATEMENT_UNREADABLE, {
        message: `The file is not a statement the service reads: ${error instanceof Error ? error.message : String(error)}`.slice(
          0,
          500,
        ),
      });
    }
  }

  /** The funding account each statement is of; any account none of the Business's refuses the whole file. */
  async function accountsOf(handle: Db, tenant: Tenant, statements: readonly BankStatement[]): Promise<FundingAccountFacts[]> {
    const out: FundingAccountFacts[] = [];
    for (const statement of statements) {
      const rail = await ports.statementFacts.statementAccountRail(handle, tenant, statement.account);
      const account = rail === null ? null : await ports.findRailFundingAccount(handle, tenant, rail, statement.account.currency);
      if (account === null) {
        const named = statement.account.iban ?? statement.account.number ?? "(none)";
        throw new AppError(RECONCILIATION_ERRORS.STATEMENT_ACCOUNT_UNKNOWN, {
          message: `The statement is of account ****${named.slice(-4)} in ${statement.account.currency}, which is none of this Business's funding accounts in ${tenant.environment}: configure the bank rail of that account (the SEPA debtor IBAN, or the ACH originator's account_number).`,
        });
      }
      out.push(account);
    }
    return out;
  }

  async function candidateValues(
    handle: Db,
    tenant: Tenant,
    payouts: readonly PayoutForReconciliation[],
  ): Promise<CandidateValue[]> {
    if (payouts.length === 0) return [];
    const names = await ports.payouts.payeeNames(
      handle,
      tenant,
      payouts.map((p) => p.beneficiaryId),
    );
    return candidateValuesOf(payouts, names);
  }

  async function toReview(
    tx: Tx,
    tenant: Tenant,
    line: LineRow,
    candidates: readonly PayoutForReconciliation[],
    reason: string,
  ): Promise<LineRow> {
    const values = await candidateValues(tx, tenant, candidates);
    const updated = await updateLine(tx, line.id, {
      status: "needs_review",
      candidates: values,
      reviewReason: reason,
      matchRule: null,
      matchTopUpId: null,
      matchDifferenceMinor: null,
      matchedBy: null,
      matchedAt: null,
      updatedAt: clock.now(),
    });
    await events.record(tx, reviewEvent(tenant, line, values, reason));
    return updated;
  }

  function matchRows(
    tenant: Tenant,
    line: LineRow,
    kind: "debit" | "return" | "top_up",
    rule: NewMatchRow["rule"],
    targets: ReadonlyArray<{ payoutId?: string; topUpId?: string; amountMinor: number }>,
  ): NewMatchRow[] {
    const now = clock.now();
    return targets.map((t) => ({
      id: ids.newId(),
      businessId: tenant.businessId,
      environment: tenant.environment,
      lineId: line.id,
      kind,
      rule,
      payoutId: t.payoutId ?? null,
      topUpId: t.topUpId ?? null,
      amountMinor: t.amountMinor,
      createdAt: now,
    }));
  }

  /** Posts a matched debit's difference (a bank fee) to fees; the key names the match act. */
  async function postDifference(tx: Tx, tenant: Tenant, line: LineRow, difference: number, act: string): Promise<void> {
    if (difference === 0) return;
    await ports.postStatementMovement(tx, tenant, {
      fundingAccountId: line.fundingAccountId,
      amountMinor: -difference,
      counterpart: "fees",
      step: "fee",
      cause: { type: "statement_line", id: line.id },
      idempotencyKey: `statement_line:${line.id}:fee:${act}`,
    });
  }

  /**
   * What a line becomes given its decision and whether its match rows are its own (`kept`): matched with its rule,
   * in review with its candidates (a person decides), or unmatched with the reason.
   */
  type LineOutcome =
    | { readonly kind: "matched"; readonly patch: Partial<LinePatch> }
    | { readonly kind: "review"; readonly candidates: readonly PayoutForReconciliation[]; readonly reason: string }
    | { readonly kind: "unmatched"; readonly reason: string }
    | { readonly kind: "open" };

  function outcomeOf(line: LineRow, decision: Decision | undefined, kept: boolean): LineOutcome {
    if (decision === undefined) return { kind: "open" };
    switch (decision.kind) {
      case "debit":
        return kept
          ? { kind: "matched", patch: { matchRule: decision.rule, matchDifferenceMinor: decision.differenceMinor } }
          : {
              kind: "review",
              candidates: decision.payouts,
              reason: "A payout this entry names is matched to another line already.",
            };
      case "return": {
        if (!kept)
          return {
            kind: "review",
            candidates: decision.returns.map((r) => r.payout),
            reason: "The payout this return names was returned by another line already.",
          };
        const returned = decision.returns.reduce((sum, r) => sum + r.payout.amountMinor, 0);
        return { kind: "matched", patch: { matchRule: "return", matchDifferenceMinor: line.amountMinor - returned } };
      }
      case "top_up":
        return kept
          ? { kind: "matched", patch: { matchRule: "top_up", matchTopUpId: decision.topUp.id, matchDifferenceMinor: 0 } }
          : { kind: "review", candidates: [], reason: `Top-up ${decision.topUp.id} is matched to another line already.` };
      case "review":
        return { kind: "review", candidates: decision.candidates, reason: decision.reason };
      case "unmatched":
        return { kind: "unmatched", reason: decision.reason };
    }
  }

  /**
   * The decisions of a statement's booked lines, applied in the statement's transaction, set by set: `fresh` lines
   * (not stored yet) are inserted with what matching decided (one INSERT, no second write of the line: a line known
   * to the account already, inserted by a concurrent intake, is left to that intake and its decision dropped),
   * together with `alsoInsert` (fresh lines nothing decides, pending ones); lines stored before (a pending entry
   * booked now) are updated. Then the match rows in one INSERT (a payout or top-up matched by another line already,
   * or by an earlier line of this statement, sends the line to review instead, as line by line; the unique indexes
   * are the backstop: a line short of any row goes to review), the payouts' moves in one batch of the payouts module
   * (the marks together, the returns together), the postings of unmatched money and fees in one statement (the
   * funding module's postStatementMovements), and the lines' events in one INSERT. The payouts are locked (id order)
   * before this runs (`locked`: the payouts' moves use those rows, no second lock).
   */
  async function applyDecisions(
    tx: Tx,
    tenant: Tenant,
    lines: readonly LineRow[],
    decisions: readonly Decision[],
    locked: LockedPayouts,
    fresh: ReadonlySet<string>,
    alsoInsert: readonly LineRow[],
  ): Promise<void> {
    const now = clock.now();
    const rowsOf = lines.map((line, i): NewMatchRow[] => {
      const decision = decisions[i];
      if (decision === undefined) return [];
      switch (decision.kind) {
        case "debit":
          return matchRows(
            tenant,
            line,
            "debit",
            decision.rule,
            decision.payouts.map((p) => ({ payoutId: p.id, amountMinor: p.amountMinor })),
          );
        case "return":
          return matchRows(
            tenant,
            line,
            "return",
            "return",
            decision.returns.map((r) => ({ payoutId: r.payout.id, amountMinor: r.returnedMinor })),
          );
        case "top_up":
          return matchRows(tenant, line, "top_up", "top_up", [{ topUpId: decision.topUp.id, amountMinor: line.amountMinor }]);
        default:
          return [];
      }
    });
    // What each match row claims, as the unique indexes see it (a debit and a return per payout, a top-up once).
    const claimOf = (row: NewMatchRow) => (row.payoutId == null ? `top_up:${row.topUpId}` : `${row.kind}:${row.payoutId}`);
    const taken = await matchClaimsTaken(tx, rowsOf.flat());
    const kept = rowsOf.map((rows) => {
      if (rows.length === 0) return false;
      const claims = rows.map(claimOf);
      if (new Set(claims).size < claims.length || claims.some((c) => taken.has(c))) return false;
      for (const claim of claims) taken.add(claim);
      return true;
    });

    // Each line's outcome as the decisions stand; the payees' names of the review candidates read once.
    const outcomes = lines.map((line, i) => outcomeOf(line, decisions[i], kept[i] === true));
    const namesOf = async (indexes: readonly number[]) => {
      const beneficiaryIds = indexes.flatMap((i) => {
        const outcome = outcomes[i];
        return outcome?.kind === "review" ? outcome.candidates.map((p) => p.beneficiaryId) : [];
      });
      return beneficiaryIds.length === 0 ? new Map<string, string>() : await ports.payouts.payeeNames(tx, tenant, beneficiaryIds);
    };
    const patchOf = (i: number, names: ReadonlyMap<string, string>, transfer: TransferRef | null): LinePatch | null => {
      const line = lines[i];
      const outcome = outcomes[i];
      if (line === undefined || outcome === undefined) return null;
      switch (outcome.kind) {
        case "matched":
          return { ...openPatch(line.id, now), status: "matched", matchedBy: AUTO, matchedAt: now, ...outcome.patch };
        case "review":
          return {
            ...openPatch(line.id, now),
            status: "needs_review",
            candidates: candidateValuesOf(outcome.candidates, names),
            reviewReason: outcome.reason,
          };
        case "unmatched":
          return {
            ...openPatch(line.id, now),
            status: "unmatched",
            reviewReason: outcome.reason,
            transferId: transfer?.id ?? null,
          };
        case "open":
          return null;
      }
    };
    let names = await namesOf(outcomes.map((_, i) => i));

    // The fresh lines, stored with their outcome; one a concurrent intake stored first is not ours to apply.
    const insertedIds = await insertLinesIfNew(tx, [
      ...lines.flatMap((line, i) => {
        if (!fresh.has(line.id)) return [];
        const patch = patchOf(i, names, null);
        return [patch === null ? line : { ...line, ...patch }];
      }),
      ...alsoInsert,
    ]);
    const applied = lines.map((line) => !fresh.has(line.id) || insertedIds.has(line.id));
    applied.forEach((ours, i) => {
      if (!ours) kept[i] = false;
    });

    const wanted = rowsOf.flatMap((rows, i) => (kept[i] ? rows : []));
    // Each match row's foreign-key check on statement_lines runs a plan the connection cached: made while that table
    // was small (a sequential scan), it read the whole table for every row until an autoanalyze (measured: 41
    // million rows, 9 s for 10,000 lines). Discarded here, it is made again for the table as it is now, its lines
    // included; planning every check instead (force_custom_plan, before) cost about 1 s per 10,000 lines.
    if (wanted.length > 0) await discardCachedPlans(tx);
    const inserted = new Set(await insertMatchesIfFree(tx, wanted));
    // Lines whose outcome changes after the match rows (written again below).
    const changed = new Set<number>();
    if (inserted.size < wanted.length) {
      // A race on a target nobody locks (a top-up: payouts are locked): a line short of any row keeps none.
      const lost: string[] = [];
      rowsOf.forEach((rows, i) => {
        if (!kept[i] || rows.every((r) => inserted.has(r.id as string))) return;
        kept[i] = false;
        changed.add(i);
        const line = lines[i];
        if (line !== undefined) outcomes[i] = outcomeOf(line, decisions[i], false);
        for (const r of rows) if (inserted.has(r.id as string)) lost.push(r.id as string);
      });
      await deleteMatches(tx, lost);
      names = new Map([...names, ...(await namesOf([...changed]))]);
    }

    // The payouts' moves, in line order.
    const moves: StatementMove[] = [];
    lines.forEach((line, i) => {
      const decision = decisions[i];
      if (!kept[i] || decision === undefined) return;
      if (decision.kind === "debit")
        for (const payout of decision.payouts)
          moves.push({
            kind: "reconcile",
            payoutId: payout.id,
            bookedAt: bookedAt(line, now),
            statementLineId: line.id,
            rule: decision.rule,
          });
      if (decision.kind === "return")
        for (const r of decision.returns)
          moves.push({
            kind: "return",
            payoutId: r.payout.id,
            reason: r.reason,
            returnedAmountMinor: r.returnedMinor,
            bookedOn: bankDayOf(line),
          });
    });
    const moved = await ports.payouts.applyStatementMoves(tx, tenant, moves, locked);
    moved.forEach((outcome, k) => {
      if (outcome.kind === "refused") {
        const move = moves[k];
        throw new Error(
          `payout ${move?.payoutId} could not be ${move?.kind === "return" ? "returned" : "reconciled"}: ${outcome.reason}`,
        );
      }
    });

    // The lines' postings (unmatched money, fees), in line order, in one statement per funding account (a
    // statement has one): each a ledger transfer with the balances after it, as one by one.
    type Movement = Parameters<StatementMovements>[3][number];
    const movementsOf = new Map<string, Array<{ index: number; movement: Movement }>>();
    lines.forEach((line, i) => {
      const decision = decisions[i];
      if (decision === undefined || !applied[i]) return;
      let movement: Movement | null = null;
      if (decision.kind === "debit" && kept[i] && decision.differenceMinor !== 0)
        movement = {
          amountMinor: -decision.differenceMinor,
          counterpart: "fees",
          step: "fee",
          cause: { type: "statement_line", id: line.id },
          idempotencyKey: `statement_line:${line.id}:fee:auto`,
          bookedOn: bankDayOf(line),
        };
      if (decision.kind === "unmatched" && line.amountMinor !== 0)
        movement =
          line.direction === "credit"
            ? {
                amountMinor: line.amountMinor,
                counterpart: "outside_world",
                step: "credit",
                cause: { type: "statement_line", id: line.id },
                idempotencyKey: `statement_line:${line.id}:credit`,
                bookedOn: bankDayOf(line),
              }
            : {
                amountMinor: -line.amountMinor,
                counterpart: "suspense",
                step: "post",
                cause: { type: "statement_line", id: line.id },
                idempotencyKey: `statement_line:${line.id}:suspense`,
                bookedOn: bankDayOf(line),
              };
      if (movement === null) return;
      const ofAccount = movementsOf.get(line.fundingAccountId) ?? [];
      ofAccount.push({ index: i, movement });
      movementsOf.set(line.fundingAccountId, ofAccount);
    });
    const transferOf = new Map<number, TransferRef>();
    for (const [fundingAccountId, movements] of movementsOf) {
      const transfers = await ports.postStatementMovements(
        tx,
        tenant,
        fundingAccountId,
        movements.map((m) => m.movement),
      );
      movements.forEach((m, k) => {
        const transfer = transfers[k];
        if (transfer !== undefined) transferOf.set(m.index, transfer);
      });
    }

    // Written again: lines stored before this statement, lines whose match rows were lost, unmatched lines with
    // their posting (all in one UPDATE); then the lines' events.
    const patches: LinePatch[] = [];
    const creditedEvents: NewEvent[] = [];
    const reviewEvents: NewEvent[] = [];
    lines.forEach((line, i) => {
      if (!applied[i]) return;
      const outcome = outcomes[i];
      const transfer = transferOf.get(i) ?? null;
      if (!fresh.has(line.id) || changed.has(i) || (outcome?.kind === "unmatched" && transfer !== null)) {
        const patch = patchOf(i, names, transfer);
        if (patch !== null) patches.push(patch);
      }
      if (outcome?.kind === "review") {
        const values = candidateValuesOf(outcome.candidates, names);
        reviewEvents.push(reviewEvent(tenant, line, values, outcome.reason));
      }
      if (outcome?.kind === "unmatched" && line.direction === "credit" && transfer !== null)
        creditedEvents.push({
          tenant,
          type: "funding_account.credited",
          subjectId: line.fundingAccountId,
          data: {
            funding_account_id: line.fundingAccountId,
            currency: line.currency,
            amount_minor: line.amountMinor,
            statement_line_id: line.id,
            transfer_id: transfer.id,
            posted_minor: transfer.postedAfterMinor,
            available_minor: transfer.postedAfterMinor - transfer.pendingAfterMinor,
            booking_date: line.bookingDate,
            remittance: line.remittance,
          },
        });
    });
    await updateLinesAfterMatching(tx, patches);
    await events.recordMany(tx, [...creditedEvents, ...reviewEvents]);
  }

  /** The closing booked balance against the ledger's posted balance, and the sequence numbers; the mismatch event. */
  async function checkBalance(tx: Tx, tenant: Tenant, statement: StatementRow): Promise<StatementRow> {
    let expected: number | null = null;
    if (statement.sequenceNumber !== null) {
      const highest = await highestSequence(tx, statement.fundingAccountId, statement.format, statement.id);
      if (highest !== null && statement.sequenceNumber > highest + 1) expected = highest + 1;
    }
    const gap = expected === null || statement.sequenceNumber === null ? null : { expected, received: statement.sequenceNumber };
    let patch: Partial<StatementRow> = { balanceStatus: "not_checked" };
    if (statement.closingBookedMinor !== null) {
      const account = await ports.findFundingAccount(tx, tenant, statement.fundingAccountId);
      // The ledger at the statement's date, not now (reconciliation.balance-at.ts): a late statement is checked too.
      const day = statement.closingDate ?? statement.periodTo;
      const now = account?.postedMinor ?? 0;
      const ledger = day === null ? now : await postedBalanceAtEndOf(tx, tenant, ports, statement.fundingAccountId, day, now);
      const difference = statement.closingBookedMinor - ledger;
      patch = {
        balanceStatus: difference === 0 && gap === null ? "agrees" : "mismatch",
        ledgerMinor: ledger,
        bankMinor: statement.closingBookedMinor,
        differenceMinor: difference,
      };
    }
    if (gap !== null)
      patch = { ...patch, balanceStatus: "mismatch", sequenceExpected: gap.expected, sequenceReceived: gap.received };
    const saved = await updateStatement(tx, statement.id, patch);
    if (saved.balanceStatus === "mismatch") await recordMismatch(tx, tenant, saved);
    return saved;
  }

  async function recordMismatch(tx: Tx, tenant: Tenant, statement: StatementRow): Promise<void> {
    await events.record(tx, {
      tenant,
      type: "funding_account.balance_mismatch",
      subjectId: statement.fundingAccountId,
      data: {
        funding_account_id: statement.fundingAccountId,
        statement_id: statement.id,
        closing_date: statement.closingDate,
        bank_minor: statement.bankMinor,
        ledger_minor: statement.ledgerMinor,
        difference_minor: statement.differenceMinor,
        sequence_gap:
          statement.sequenceExpected === null || statement.sequenceReceived === null
            ? null
            : { expected: statement.sequenceExpected, received: statement.sequenceReceived },
      },
    });
  }

  /**
   * One statement in the caller's transaction: the statement row (an identity already known answers that
   * statement, changing nothing), its new lines (a line already known adds nothing; a pending one now booked is
   * booked), the booked new lines matched, the balance checked.
   */
  async function applyStatement(
    tx: Tx,
    tenant: Tenant,
    account: FundingAccountFacts,
    statement: BankStatement,
    origin: { readonly source: "upload" | "inbound_folder"; readonly contentSha256: string },
  ): Promise<{ created: boolean; row: StatementRow }> {
    const now = clock.now();
    const row = await insertStatementIfNew(tx, {
      id: ids.newId(),
      businessId: tenant.businessId,
      environment: tenant.environment,
      fundingAccountId: account.id,
      format: statement.format,
      messageVersion: statement.messageVersion,
      messageId: statement.messageId,
      statementId: statement.statementId,
      sequenceNumber: statement.sequenceNumber,
      periodFrom: statement.periodFrom,
      periodTo: statement.periodTo,
      openingBookedMinor: statement.openingBookedMinor,
      closingBookedMinor: statement.closingBookedMinor,
      closingDate: statement.closingDate,
      currency: statement.account.currency,
      contentSha256: origin.contentSha256,
      source: origin.source,
      linesReceived: statement.lines.length,
      createdAt: now,
    });
    if (row === null) {
      const existing = await findStatementByIdentity(tx, tenant, {
        fundingAccountId: account.id,
        format: statement.format,
        messageId: statement.messageId,
        statementId: statement.statementId,
      });
      if (existing === null) throw new Error("a statement neither inserted nor found");
      return { created: false, row: existing };
    }

    // Each entry's key: the bank's reference, else a fingerprint of its facts ranked among equal facts of this
    // statement (statementLineFingerprints): the same entry in another file has the same key.
    const prints = statementLineFingerprints(statement);
    const candidates: NewLineRow[] = statement.lines.map((line, index) => {
      const lineKey = prints[index] ?? `line:${index}`;
      return {
        id: ids.newId(),
        businessId: tenant.businessId,
        environment: tenant.environment,
        fundingAccountId: account.id,
        statementId: row.id,
        lineKey,
        status: line.status === "pending" ? "pending" : "unmatched",
        entryStatus: line.status,
        bookingDate: line.bookingDate,
        valueDate: line.valueDate,
        direction: line.direction,
        amountMinor: line.amountMinor,
        currency: line.currency,
        reversal: line.reversal,
        bankReference: line.bankReference,
        bankTransactionCode: line.bankTransactionCode,
        references: referencesOf(line),
        batchCount: line.batchCount,
        batchTotalMinor: line.batchTotalMinor,
        remittance: line.remittance,
        details: line.details.map((d) => ({ ...d })),
        candidates: [],
        createdAt: now,
        updatedAt: now,
      };
    });
    // One entry twice in the same file (the same bank reference): the first is kept.
    const unique = [...new Map(candidates.map((c) => [c.lineKey, c])).values()];
    // Entries known before (another file had them): not stored again. A pending one booked now is booked (once, of
    // two statements racing) and matched.
    const known = await knownLineKeys(
      tx,
      tenant,
      account.id,
      unique.map((c) => c.lineKey),
    );
    const toBook: LineRow[] = [];
    const bookable = unique.filter((c) => c.entryStatus === "booked" && known.get(c.lineKey) === "pending");
    if (bookable.length > 0) {
      const existing = await findLinesByKeys(
        tx,
        tenant,
        account.id,
        bookable.map((c) => c.lineKey),
      );
      const incoming = new Map(bookable.map((c) => [c.lineKey, c]));
      for (const line of existing) {
        if (line.entryStatus !== "pending") continue;
        const fresh = incoming.get(line.lineKey);
        if (fresh === undefined) continue;
        const booked = await bookPendingLine(tx, line.id, {
          status: "unmatched",
          bookingDate: fresh.bookingDate ?? null,
          valueDate: fresh.valueDate ?? null,
          amountMinor: fresh.amountMinor,
          references: fresh.references,
          details: fresh.details,
          remittance: fresh.remittance ?? null,
          updatedAt: now,
        });
        if (booked !== null) toBook.push(booked);
      }
    }
    const fresh = unique.filter((c) => !known.has(c.lineKey)).map(storedLine);
    const freshBooked = fresh.filter((l) => l.entryStatus === "booked");
    const notDecided = fresh.filter((l) => l.entryStatus !== "booked");
    if (freshBooked.length + toBook.length > 0)
      await matchLines(tx, tenant, account.id, [...freshBooked, ...toBook], new Set(freshBooked.map((l) => l.id)), notDecided);
    else await insertLinesIfNew(tx, notDecided);
    return { created: true, row: await checkBalance(tx, tenant, row) };
  }

  /**
   * Decides every booked line first (reads, a few queries for all), locks the payouts they move in id order, then
   * applies them (`fresh`: the lines not stored yet, stored with their outcome; `alsoInsert`: fresh lines nothing
   * decides).
   */
  async function matchLines(
    tx: Tx,
    tenant: Tenant,
    fundingAccountId: string,
    lines: readonly LineRow[],
    fresh: ReadonlySet<string>,
    alsoInsert: readonly LineRow[],
  ): Promise<void> {
    const facts = lines.map(factsOf);
    const lookups = await readLookups(tx, tenant, ports, facts);
    const decisions = await matcher.decideAll(tx, tenant, fundingAccountId, facts, lookups);
    // Two lines of one statement each finding the same single payout by amount and date: neither is sure.
    const claims = new Map<string, number>();
    for (const d of decisions)
      if (d.kind === "debit" && d.rule === "amount_date")
        for (const p of d.payouts) claims.set(p.id, (claims.get(p.id) ?? 0) + 1);
    const final = decisions.map((d): Decision => {
      if (d.kind !== "debit" || d.rule !== "amount_date") return d;
      const contested = d.payouts.some((p) => (claims.get(p.id) ?? 0) > 1);
      return contested
        ? {
            kind: "review",
            candidates: d.payouts,
            reason: "Another entry of this statement has the same amount and could be the same payout: a person decides.",
          }
        : d;
    });
    const moving = final.flatMap((d) =>
      d.kind === "debit" ? d.payouts.map((p) => p.id) : d.kind === "return" ? d.returns.map((r) => r.payout.id) : [],
    );
    const locked = await ports.payouts.lockPayouts(tx, tenant, moving);
    await applyDecisions(tx, tenant, lines, final, locked, fresh, alsoInsert);
  }

  /** Reads a file and applies its statements in one transaction (the caller's, or a new one). */
  async function receiveIn(
    tx: Tx,
    tenant: Tenant,
    content: string,
    source: "upload" | "inbound_folder",
  ): Promise<ReceiveOutcome> {
    const statements = parse(content);
    return applyStatements(tx, tenant, statements, { source, contentSha256: sha256(content) });
  }

  /**
   * The file's statements, one after the other, in the caller's transaction. The events every module records
   * meanwhile (reconciled marks, returns, credits, reviews, mismatches) are written together at the end, in the
   * order recorded (`holdWithin`: one INSERT and one webhook-delivery decision per file instead of about four).
   */
  async function applyStatements(
    tx: Tx,
    tenant: Tenant,
    statements: readonly BankStatement[],
    origin: { readonly source: "upload" | "inbound_folder"; readonly contentSha256: string },
  ): Promise<ReceiveOutcome> {
    return events.holdWithin(tx, async () => {
      const accounts = await accountsOf(tx, tenant, statements);
      const rows: StatementRow[] = [];
      let created = false;
      for (let i = 0; i < statements.length; i += 1) {
        const statement = statements[i];
        const account = accounts[i];
        if (statement === undefined || account === undefined) continue;
        const applied = await applyStatement(tx, tenant, account, statement, origin);
        created ||= applied.created;
        rows.push(applied.row);
      }
      return { created, statements: rows };
    });
  }

  async function presentStatements(handle: Db, rows: readonly StatementRow[]): Promise<BankStatementBody[]> {
    const counts = await countLinesByStatus(
      handle,
      rows.map((r) => r.id),
    );
    return rows.map((r) =>
      presentStatement(r, counts.get(r.id) ?? { matched: 0, needs_review: 0, unmatched: 0, ignored: 0, pending: 0 }),
    );
  }

  async function presentLines(handle: Db, rows: readonly LineRow[]): Promise<StatementLineBody[]> {
    const matches = await matchesOfLines(
      handle,
      rows.map((r) => r.id),
    );
    return rows.map((r) => presentLine(r, matches.get(r.id) ?? []));
  }

  /** `POST /v1/bank-statements`: 201 with the (first) statement when anything is new, else 200 with it. */
  async function upload(actor: Actor, content: string): Promise<{ created: boolean; statement: BankStatementBody }> {
    const tenant = tenantOf(actor);
    const outcome = await transaction(db, (tx) => receiveIn(tx, tenant, content, "upload"));
    const [first] = await presentStatements(db, outcome.statements);
    if (first === undefined) throw new Error("a statement file with no statement was accepted");
    return { created: outcome.created, statement: first };
  }

  /** The bank rails' inbound folder: a statement file, in the inbound file's transaction. */
  async function receiveInbound(tx: Tx, tenant: Tenant, content: string): Promise<{ kind: string; unmatched: string[] }> {
    const outcome = await receiveIn(tx, tenant, content, "inbound_folder");
    const first = outcome.statements[0];
    return { kind: first === undefined ? "statement" : first.format, unmatched: [] };
  }

  async function getStatement(actor: Actor, id: string): Promise<BankStatementBody> {
    const row = await findStatement(db, tenantOf(actor), id);
    if (row === null) throw new AppError("not_found", { message: "No such bank statement." });
    const [body] = await presentStatements(db, [row]);
    if (body === undefined) throw new Error("unreachable");
    return body;
  }

  async function listStatementsOf(actor: Actor, query: StatementListQuery) {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await listStatements(
      db,
      tenantOf(actor),
      { fundingAccountId: query.funding_account_id?.toLowerCase() },
      decodeCursor(query.cursor),
      limit + 1,
    );
    const page = toPage(rows, limit);
    return { bank_statements: await presentStatements(db, page.items), next_cursor: page.nextCursor };
  }

  async function getLine(actor: Actor, id: string): Promise<StatementLineBody> {
    const row = await findLine(db, tenantOf(actor), id);
    if (row === null) throw new AppError("not_found", { message: "No such statement line." });
    const [body] = await presentLines(db, [row]);
    if (body === undefined) throw new Error("unreachable");
    return body;
  }

  async function listLinesOf(actor: Actor, query: LineListQuery) {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await listLines(
      db,
      tenantOf(actor),
      {
        status: query.status,
        fundingAccountId: query.funding_account_id?.toLowerCase(),
        statementId: query.statement_id?.toLowerCase(),
      },
      decodeCursor(query.cursor),
      limit + 1,
    );
    const page = toPage(rows, limit);
    return { statement_lines: await presentLines(db, page.items), next_cursor: page.nextCursor };
  }

  const notOpen = (line: LineRow, act: string) =>
    new AppError(RECONCILIATION_ERRORS.STATEMENT_LINE_NOT_OPEN, {
      message: `The line is ${line.entryStatus === "pending" ? "a pending entry (not booked yet)" : line.status}: it cannot be ${act}.`,
    });
  const refuse = (message: string) => new AppError(RECONCILIATION_ERRORS.STATEMENT_MATCH_REFUSED, { message });

  /** Undoes what an unmatched line posted (its credit, or its debit to suspense) before a person matches it. */
  async function releaseUnmatchedPosting(tx: Tx, tenant: Tenant, line: LineRow, act: string): Promise<void> {
    if (line.status !== "unmatched" || line.transferId === null) return;
    await ports.postStatementMovement(tx, tenant, {
      fundingAccountId: line.fundingAccountId,
      amountMinor: line.direction === "credit" ? -line.amountMinor : line.amountMinor,
      counterpart: line.direction === "credit" ? "outside_world" : "suspense",
      step: "reverse",
      cause: { type: "statement_line", id: line.id },
      idempotencyKey: `statement_line:${line.id}:release:${act}`,
    });
  }

  /** `POST /v1/statement-lines/{id}/match`: a person's match (audited), in one transaction. */
  async function match(actor: Actor, id: string, body: MatchBody): Promise<StatementLineBody> {
    const tenant = tenantOf(actor);
    if ((body.payout_ids === undefined) === (body.top_up_id === undefined))
      throw new AppError("validation_failed", {
        details: [{ field: "payout_ids", code: "required", message: "Give exactly one of payout_ids and top_up_id." }],
      });
    const saved = await transaction(db, async (tx) => {
      const line = await lockLine(tx, tenant, id);
      if (line === null) throw new AppError("not_found", { message: "No such statement line." });
      if (line.entryStatus !== "booked" || (line.status !== "needs_review" && line.status !== "unmatched"))
        throw notOpen(line, "matched");
      const act = ids.newId();
      const now = clock.now();
      const person = personOf(actor);
      if (body.top_up_id !== undefined) {
        if (line.direction !== "credit") throw refuse("A top-up is money in: only a credit line can be a top-up.");
        const topUp = await ports.topUps.find(tx, tenant, body.top_up_id.toLowerCase());
        if (topUp === null || topUp.fundingAccountId !== line.fundingAccountId)
          throw refuse("No such top-up on this line's funding account.");
        if (topUp.status === "rejected") throw refuse("The top-up was rejected: it was never money in.");
        if (topUp.amountMinor !== line.amountMinor)
          throw refuse(`The top-up is ${topUp.amountMinor} minor units; the line is ${line.amountMinor}.`);
        if (topUp.status === "pending_approval" && line.status === "unmatched" && line.transferId !== null)
          throw refuse(
            "This credit already funded the account and the top-up is still waiting for approval (its approval would credit it again): reject the top-up, or approve it first and then match.",
          );
        const rows = matchRows(tenant, line, "top_up", "manual", [{ topUpId: topUp.id, amountMinor: line.amountMinor }]);
        if ((await insertMatchesAllOrNothing(tx, rows)) === null) throw refuse("The top-up is matched to another line already.");
        if (topUp.status === "approved") await releaseUnmatchedPosting(tx, tenant, line, act);
        await updateLine(tx, line.id, {
          status: "matched",
          matchRule: "manual",
          matchTopUpId: topUp.id,
          matchDifferenceMinor: 0,
          matchedBy: person,
          matchedAt: now,
          candidates: [],
          reviewReason: null,
          transferId: topUp.status === "approved" ? null : line.transferId,
          updatedAt: now,
        });
      } else {
        const wanted = [...new Set((body.payout_ids ?? []).map((p) => p.toLowerCase()))];
        const found = await ports.payouts.findPayouts(tx, tenant, wanted);
        const missing = wanted.filter((p) => !found.has(p));
        if (missing.length > 0) throw refuse(`No such payout: ${missing.join(", ")}.`);
        const payouts = wanted.flatMap((p) => found.get(p) ?? []);
        const foreign = payouts.find((p) => p.currency !== line.currency);
        if (foreign !== undefined)
          throw refuse(`Payout ${foreign.id} is in ${foreign.currency}; the line is in ${line.currency}.`);
        await ports.payouts.lockPayouts(tx, tenant, wanted);
        if (line.direction === "debit") {
          const notSent = payouts.find(
            (p) => !["approved", "disbursed", "settled", "returned", "compliance_hold"].includes(p.status),
          );
          if (notSent !== undefined) throw refuse(`Payout ${notSent.id} is ${notSent.status}: its money did not leave.`);
          const unsent = payouts.find((p) => p.status === "approved" && p.disbursementStartedAt === null);
          if (unsent !== undefined) throw refuse(`Payout ${unsent.id} was not sent to the bank yet.`);
          const expected = payouts.reduce((sum, p) => sum + p.amountMinor, 0);
          const difference = line.amountMinor - expected;
          if (!matcher.within(difference))
            throw refuse(
              `The payouts add up to ${expected} minor units; the line is ${line.amountMinor} (difference ${difference}, tolerance ${settings.toleranceMinor}).`,
            );
          const rows = matchRows(
            tenant,
            line,
            "debit",
            "manual",
            payouts.map((p) => ({ payoutId: p.id, amountMinor: p.amountMinor })),
          );
          if ((await insertMatchesAllOrNothing(tx, rows)) === null)
            throw refuse("A payout named is matched to another line already (unmatch that line first).");
          await releaseUnmatchedPosting(tx, tenant, line, act);
          for (const payout of payouts) {
            const outcome = await ports.payouts.markReconciled(tx, tenant, payout.id, {
              bookedAt: bookedAt(line, now),
              statementLineId: line.id,
              rule: "manual",
            });
            if (outcome.kind === "refused") throw refuse(`Payout ${payout.id}: ${outcome.reason}.`);
          }
          await postDifference(tx, tenant, line, difference, act);
          await updateLine(tx, line.id, {
            status: "matched",
            matchRule: "manual",
            matchDifferenceMinor: difference,
            matchedBy: person,
            matchedAt: now,
            candidates: [],
            reviewReason: null,
            transferId: null,
            updatedAt: now,
          });
        } else {
          const [payout] = payouts;
          if (payouts.length !== 1 || payout === undefined) throw refuse("A credit line returns exactly one payout.");
          if (line.amountMinor > payout.amountMinor || line.amountMinor === 0)
            throw refuse(`A return is at most the payout's amount (${payout.amountMinor}); the line is ${line.amountMinor}.`);
          const rows = matchRows(tenant, line, "return", "manual", [{ payoutId: payout.id, amountMinor: line.amountMinor }]);
          if ((await insertMatchesAllOrNothing(tx, rows)) === null)
            throw refuse("The payout was returned by another line already.");
          await releaseUnmatchedPosting(tx, tenant, line, act);
          const outcome = await ports.payouts.returnPayout(tx, tenant, payout.id, {
            reason: "Returned by the bank (statement, matched by a person)",
            returnedAmountMinor: line.amountMinor,
          });
          if (outcome.kind === "refused") throw refuse(`Payout ${payout.id} cannot be returned: ${outcome.reason}.`);
          await updateLine(tx, line.id, {
            status: "matched",
            matchRule: "manual",
            matchDifferenceMinor: line.amountMinor - payout.amountMinor,
            matchedBy: person,
            matchedAt: now,
            candidates: [],
            reviewReason: null,
            transferId: null,
            updatedAt: now,
          });
        }
      }
      await ports.recordAudit(tx, actor, {
        action: "statement_line_matched",
        subjectType: "statement_line",
        subjectId: line.id,
        details: {
          ...(body.payout_ids === undefined ? {} : { payout_ids: body.payout_ids }),
          ...(body.top_up_id === undefined ? {} : { top_up_id: body.top_up_id }),
        },
      });
      const after = await findLine(tx, tenant, line.id);
      if (after === null) throw new Error("unreachable");
      return after;
    });
    const [out] = await presentLines(db, [saved]);
    if (out === undefined) throw new Error("unreachable");
    return out;
  }

  /** `POST /v1/statement-lines/{id}/unmatch`: the payouts back to unreconciled, the line to review (audited). */
  async function unmatch(actor: Actor, id: string): Promise<StatementLineBody> {
    const tenant = tenantOf(actor);
    const saved = await transaction(db, async (tx) => {
      const line = await lockLine(tx, tenant, id);
      if (line === null) throw new AppError("not_found", { message: "No such statement line." });
      if (line.status !== "matched") throw notOpen(line, "unmatched");
      const current = await matchesOfLines(tx, [line.id]);
      const rows = current.get(line.id) ?? [];
      if (rows.some((m) => m.kind === "return"))
        throw new AppError(RECONCILIATION_ERRORS.STATEMENT_LINE_NOT_OPEN, {
          message: "A return moved its payout to returned, which cannot be undone: the line stays matched.",
        });
      const payoutIds = rows.flatMap((m) => (m.payoutId === null ? [] : [m.payoutId]));
      await ports.payouts.lockPayouts(tx, tenant, payoutIds);
      await deleteMatchesOfLine(tx, line.id);
      for (const payoutId of payoutIds) await ports.payouts.markUnreconciled(tx, tenant, payoutId);
      const difference = line.matchDifferenceMinor ?? 0;
      if (difference !== 0 && line.direction === "debit") {
        await ports.postStatementMovement(tx, tenant, {
          fundingAccountId: line.fundingAccountId,
          amountMinor: difference,
          counterpart: "fees",
          step: "reverse",
          cause: { type: "statement_line", id: line.id },
          idempotencyKey: `statement_line:${line.id}:fee_reversed:${ids.newId()}`,
        });
      }
      const found = await ports.payouts.findPayouts(tx, tenant, payoutIds);
      await toReview(tx, tenant, line, [...found.values()], "A person undid the match.");
      await ports.recordAudit(tx, actor, {
        action: "statement_line_unmatched",
        subjectType: "statement_line",
        subjectId: line.id,
        details: { payout_ids: payoutIds, top_up_id: line.matchTopUpId, rule: line.matchRule },
      });
      const after = await findLine(tx, tenant, line.id);
      if (after === null) throw new Error("unreachable");
      return after;
    });
    const [out] = await presentLines(db, [saved]);
    if (out === undefined) throw new Error("unreachable");
    return out;
  }

  /** `POST /v1/statement-lines/{id}/ignore`: explained outside the service (audited); its postings stay. */
  async function ignore(actor: Actor, id: string, reason: string): Promise<StatementLineBody> {
    const tenant = tenantOf(actor);
    const saved = await transaction(db, async (tx) => {
      const line = await lockLine(tx, tenant, id);
      if (line === null) throw new AppError("not_found", { message: "No such statement line." });
      if (line.status !== "needs_review" && line.status !== "unmatched") throw notOpen(line, "ignored");
      const after = await updateLine(tx, line.id, { status: "ignored", ignoredReason: reason, updatedAt: clock.now() });
      await ports.recordAudit(tx, actor, {
        action: "statement_line_ignored",
        subjectType: "statement_line",
        subjectId: line.id,
        details: { reason, previous_status: line.status },
      });
      return after;
    });
    const [out] = await presentLines(db, [saved]);
    if (out === undefined) throw new Error("unreachable");
    return out;
  }

  /**
   * `POST /v1/bank-statements/{id}/accept-opening-balance` (admin): the statement's opening booked balance becomes
   * the funding account's starting balance (a ledger transfer from the outside world), once per account; the
   * statement's balance check is taken again with it.
   */
  async function acceptOpeningBalance(actor: Actor, id: string): Promise<BankStatementBody> {
    const tenant = tenantOf(actor);
    const saved = await transaction(db, async (tx) => {
      const statement = await lockStatement(tx, tenant, id);
      if (statement === null) throw new AppError("not_found", { message: "No such bank statement." });
      if (statement.openingBookedMinor === null)
        throw refuse("The statement carries no opening booked balance (camt OPBD/PRCD, BAI2 010).");
      // One acceptance per account, whatever races: the funding row is locked by the posting, so check again under it.
      if (await openingAccepted(tx, statement.fundingAccountId))
        throw new AppError(RECONCILIATION_ERRORS.OPENING_BALANCE_ALREADY_SET);
      const opening = statement.openingBookedMinor;
      const transfer =
        opening === 0
          ? null
          : await ports.postStatementMovement(tx, tenant, {
              fundingAccountId: statement.fundingAccountId,
              amountMinor: opening,
              counterpart: "outside_world",
              step: opening > 0 ? "credit" : "post",
              cause: { type: "statement_line", id: statement.id },
              idempotencyKey: `funding_account:${statement.fundingAccountId}:opening_balance`,
            });
      let patch: Partial<StatementRow> = { openingTransferId: transfer?.id ?? statement.id };
      if (statement.bankMinor !== null && statement.ledgerMinor !== null && statement.balanceStatus === "mismatch") {
        const ledger = statement.ledgerMinor + opening;
        const difference = statement.bankMinor - ledger;
        patch = {
          ...patch,
          ledgerMinor: ledger,
          differenceMinor: difference,
          balanceStatus: difference === 0 && statement.sequenceExpected === null ? "agrees" : "mismatch",
        };
      }
      const after = await updateStatement(tx, statement.id, patch);
      await ports.recordAudit(tx, actor, {
        action: "bank_statement_opening_balance_accepted",
        subjectType: "funding_account",
        subjectId: statement.fundingAccountId,
        details: { statement_id: statement.id, opening_booked_minor: opening, transfer_id: transfer?.id ?? null },
      });
      return after;
    });
    const [out] = await presentStatements(db, [saved]);
    if (out === undefined) throw new Error("unreachable");
    return out;
  }

  /** `POST /v1/bank-statements/{id}/resolve-mismatch`: a person explains the difference (audited). */
  async function resolveMismatch(actor: Actor, id: string, reason: string): Promise<BankStatementBody> {
    const tenant = tenantOf(actor);
    const saved = await transaction(db, async (tx) => {
      const statement = await lockStatement(tx, tenant, id);
      if (statement === null) throw new AppError("not_found", { message: "No such bank statement." });
      if (statement.balanceStatus !== "mismatch") throw new AppError(RECONCILIATION_ERRORS.BALANCE_NOT_MISMATCHED);
      const after = await updateStatement(tx, statement.id, {
        balanceStatus: "resolved",
        resolvedReason: reason,
        resolvedBy: personOf(actor),
        resolvedAt: clock.now(),
      });
      await ports.recordAudit(tx, actor, {
        action: "bank_statement_mismatch_resolved",
        subjectType: "bank_statement",
        subjectId: statement.id,
        details: { reason, difference_minor: statement.differenceMinor, funding_account_id: statement.fundingAccountId },
      });
      return after;
    });
    const [out] = await presentStatements(db, [saved]);
    if (out === undefined) throw new Error("unreachable");
    return out;
  }

  return {
    upload,
    receiveInbound,
    /** For tests and the bench: statements already read, applied as an upload would. */
    receiveStatements: (tenant: Tenant, statements: readonly BankStatement[], source: "upload" | "inbound_folder" = "upload") =>
      transaction(db, (tx) =>
        applyStatements(tx, tenant, statements, { source, contentSha256: sha256(JSON.stringify(statements)) }),
      ),
    isStatement: settings.isStatement,
    getStatement,
    listStatements: listStatementsOf,
    getLine,
    listLines: listLinesOf,
    match,
    unmatch,
    ignore,
    acceptOpeningBalance,
    resolveMismatch,
  };
}

export type ReconciliationService = ReturnType<typeof createReconciliationService>;
