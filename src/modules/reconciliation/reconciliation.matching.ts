// The matching rules (issue 28), in the order they are tried, as one decision per booked line. Reads only: the
// service applies the decisions. A line is matched automatically only when every fact agrees and the answer is
// unique; anything else is `needs_review` with its candidates (never a guess) or `unmatched` (money we did not
// send or expect).
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import {
  addCalendarDays,
  isFederalReserveBusinessDay,
  isTarget2BusinessDay,
  weekdayOf,
} from "../../rails/bank-files/calendars.js";
import type { PayoutForReconciliation } from "../payouts/index.js";
import type { ReconciliationPorts, SentItemFacts, TopUpFacts } from "./reconciliation.ports.js";
import { payoutsMatched } from "./reconciliation.repo.js";
import type { MatchRule } from "./reconciliation.schema.js";

/** The facts of a booked line matching reads. */
export interface LineFacts {
  readonly id: string;
  readonly direction: "debit" | "credit";
  readonly amountMinor: number;
  readonly currency: string;
  readonly bookingDate: string | null;
  readonly valueDate: string | null;
  readonly reversal: boolean;
  readonly bankReference: string | null;
  readonly endToEndIds: readonly string[];
  readonly instructionIds: readonly string[];
  readonly paymentInformationId: string | null;
  readonly batchCount: number | null;
  readonly achTrace: string | null;
  readonly remittance: string | null;
  /** Return information of the entry's transactions. */
  readonly returns: ReadonlyArray<{
    readonly originalEndToEndId: string | null;
    readonly reasonCode: string | null;
    readonly amountMinor: number | null;
  }>;
}

export type Decision =
  | {
      readonly kind: "debit";
      readonly rule: Extract<MatchRule, "end_to_end_id" | "batch" | "amount_date">;
      readonly payouts: readonly PayoutForReconciliation[];
      readonly differenceMinor: number;
    }
  | {
      readonly kind: "return";
      readonly returns: ReadonlyArray<{
        readonly payout: PayoutForReconciliation;
        readonly returnedMinor: number;
        readonly reason: string;
      }>;
    }
  | { readonly kind: "top_up"; readonly topUp: TopUpFacts }
  | { readonly kind: "review"; readonly candidates: readonly PayoutForReconciliation[]; readonly reason: string }
  | { readonly kind: "unmatched"; readonly reason: string };

export interface MatchSettings {
  /** The difference a match may carry (a bank fee), minor units; 0 by default. */
  readonly toleranceMinor: number;
  /** How many business days before the booking a payout may have been sent for `amount_date`. */
  readonly windowBusinessDays: number;
}

/** Statuses whose money may have left: a debit line may book them. */
const SENT: ReadonlySet<string> = new Set(["approved", "disbursed", "settled", "returned", "compliance_hold"]);

function isBusinessDay(date: string, currency: string): boolean {
  if (currency === "EUR") return isTarget2BusinessDay(date);
  if (currency === "USD") return isFederalReserveBusinessDay(date);
  const day = weekdayOf(date);
  return day !== 0 && day !== 6;
}

/** Windows already counted (each statement asks the same few days for hundreds of lines); cleared when large. */
const windowStarts = new Map<string, string>();

/** The date `days` business days before `date` (the window's first day). */
export function businessDaysBefore(date: string, days: number, currency: string): string {
  const key = `${date}|${days}|${currency}`;
  const known = windowStarts.get(key);
  if (known !== undefined) return known;
  if (windowStarts.size >= 10_000) windowStarts.clear();
  const start = countBusinessDaysBack(date, days, currency);
  windowStarts.set(key, start);
  return start;
}

function countBusinessDaysBack(date: string, days: number, currency: string): string {
  let current = date;
  let left = days;
  while (left > 0) {
    current = addCalendarDays(current, -1);
    if (isBusinessDay(current, currency)) left -= 1;
  }
  return current;
}

const normaliseText = (value: string) => value.toUpperCase().replace(/[^A-Z0-9]/g, "");

function money(minor: number, currency: string): string {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  return `${currency} ${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** What the lines of one statement name, read in a few queries for all of them. */
export interface Lookups {
  readonly items: Map<string, SentItemFacts>;
  readonly blocks: Map<string, SentItemFacts[]>;
  readonly payouts: Map<string, PayoutForReconciliation>;
}

export async function readLookups(
  db: Db,
  tenant: Tenant,
  ports: Pick<ReconciliationPorts, "statementFacts" | "payouts">,
  lines: readonly LineFacts[],
): Promise<Lookups> {
  const references = new Set<string>();
  const blockIds = new Set<string>();
  for (const line of lines) {
    for (const id of line.endToEndIds) references.add(id);
    for (const r of line.returns) if (r.originalEndToEndId !== null) references.add(r.originalEndToEndId);
    if (line.achTrace !== null) {
      references.add(line.achTrace);
      // An ACH batch booked as one line names the batch's reference where a single entry names its trace.
      if (line.direction === "debit") blockIds.add(line.achTrace);
    }
    if (line.paymentInformationId !== null) blockIds.add(line.paymentInformationId);
  }
  const items = await ports.statementFacts.sentItemsByReferences(db, tenant, [...references]);
  const blocks = await ports.statementFacts.paymentBlocks(db, tenant, [...blockIds]);
  const payoutIds = new Set<string>();
  for (const item of items.values()) payoutIds.add(item.payoutId);
  for (const block of blocks.values()) for (const item of block) payoutIds.add(item.payoutId);
  const payouts = await ports.payouts.findPayouts(db, tenant, [...payoutIds]);
  return { items, blocks, payouts };
}

/**
 * An item the bank books a block without: rejected by its status report (pain.002 RJCT), or its payout failed before
 * the booking (an ACH entry the bank returned before it settled fails its payout, and the batch settles without it).
 * A payout failed for any other reason whose money the bank did book makes the amounts disagree: review, as before.
 */
function leftOutOfBlock(item: SentItemFacts, lookups: Lookups): boolean {
  return item.rejected || lookups.payouts.get(item.payoutId)?.status === "failed";
}

export function createMatcher(ports: Pick<ReconciliationPorts, "payouts" | "topUps">, settings: MatchSettings) {
  const within = (difference: number) => Math.abs(difference) <= settings.toleranceMinor;

  /** Payouts whose money may have left, in the line's currency, adding up to it within the tolerance: a match. */
  function debitOf(
    line: LineFacts,
    rule: "end_to_end_id" | "batch",
    payouts: readonly PayoutForReconciliation[],
    expectedMinor: number,
    said: string,
  ): Decision {
    const notSent = payouts.filter((p) => !SENT.has(p.status));
    if (notSent.length > 0)
      return {
        kind: "review",
        candidates: payouts,
        reason: `The bank booked a payment we believe did not leave: ${notSent.map((p) => `payout ${p.id} is ${p.status}`).join(", ")}.`,
      };
    const wrongCurrency = payouts.find((p) => p.currency !== line.currency);
    if (wrongCurrency !== undefined)
      return {
        kind: "review",
        candidates: payouts,
        reason: `The entry is in ${line.currency}; payout ${wrongCurrency.id} is in ${wrongCurrency.currency}.`,
      };
    const difference = line.amountMinor - expectedMinor;
    if (!within(difference))
      return {
        kind: "review",
        candidates: payouts,
        reason: `${said}: we expected ${money(expectedMinor, line.currency)}; the bank booked ${money(line.amountMinor, line.currency)} (difference ${money(difference, line.currency)}, beyond the tolerance of ${money(settings.toleranceMinor, line.currency)}).`,
      };
    return { kind: "debit", rule, payouts, differenceMinor: difference };
  }

  /** `batch`: a block of ours booked as one line, less its rejected transfers. */
  function batchOf(line: LineFacts, reference: string, block: readonly SentItemFacts[], lookups: Lookups): Decision {
    const remaining = block.filter((item) => !leftOutOfBlock(item, lookups));
    const rejected = block.length - remaining.length;
    const payouts = remaining.flatMap((item) => lookups.payouts.get(item.payoutId) ?? []);
    const expected = remaining.reduce((sum, item) => sum + item.amountMinor, 0);
    const less = rejected > 0 ? ` (${block.length} sent less ${rejected} rejected)` : "";
    const said = `Payment block ${reference}, ${remaining.length} transfers${less}`;
    if (remaining.length === 0 || payouts.length < remaining.length)
      return { kind: "review", candidates: payouts, reason: `${said}: nothing of it is left to book.` };
    if (line.batchCount !== null && line.batchCount !== remaining.length)
      return {
        kind: "review",
        candidates: payouts,
        reason: `${said}: the bank booked ${line.batchCount} transfers.`,
      };
    // Transaction details, when the bank gives them, must be transfers of the block.
    const inBlock = new Set(block.map((item) => item.reference.toLowerCase()));
    const stray = line.endToEndIds.filter((id) => !inBlock.has(id.toLowerCase()));
    if (stray.length > 0)
      return {
        kind: "review",
        candidates: payouts,
        reason: `${said}: the entry also names ${stray.join(", ")}, not of the block.`,
      };
    return debitOf(line, "batch", payouts, expected, said);
  }

  /** The debit rules that read references: end_to_end_id (or an ACH trace), then batch. Null: no reference of ours. */
  function debitByReference(line: LineFacts, lookups: Lookups): Decision | null {
    if (line.paymentInformationId !== null) {
      const block = lookups.blocks.get(line.paymentInformationId);
      if (block !== undefined) return batchOf(line, line.paymentInformationId, block, lookups);
    }
    const references = [...line.endToEndIds];
    if (references.length === 0 && line.achTrace !== null) {
      const block = lookups.blocks.get(line.achTrace);
      if (block !== undefined && !lookups.items.has(line.achTrace)) return batchOf(line, line.achTrace, block, lookups);
      references.push(line.achTrace);
    }
    const named = references.map((id) => lookups.items.get(id));
    const found = named.flatMap((item) => (item === undefined ? [] : [item]));
    if (found.length === 0) return null;
    const payouts = found.flatMap((item) => lookups.payouts.get(item.payoutId) ?? []);
    if (found.length < named.length || payouts.length < found.length)
      return {
        kind: "review",
        candidates: payouts,
        reason: `The entry names ${named.length} transfers; ${named.length - found.length} of them are none of ours.`,
      };
    const expected = found.reduce((sum, item) => sum + item.amountMinor, 0);
    return debitOf(
      line,
      payouts.length === 1 ? "end_to_end_id" : "batch",
      payouts,
      expected,
      payouts.length === 1 ? `Transfer ${references[0]}` : `${payouts.length} transfers named`,
    );
  }

  /**
   * `amount_date`, for every debit of a statement naming none of our transfers at once: the exact amount, a unique
   * payout sent within the window of business days before the booking, not matched yet. Two queries for all.
   */
  async function debitsByAmountDate(
    db: Db,
    tenant: Tenant,
    fundingAccountId: string,
    lines: readonly LineFacts[],
  ): Promise<Decision[]> {
    const windows = lines.map((line) => {
      const booked = line.bookingDate ?? line.valueDate;
      if (booked === null) return null;
      const from = businessDaysBefore(booked, settings.windowBusinessDays, line.currency);
      const to = addCalendarDays(booked, 1);
      return {
        booked,
        query: {
          currency: line.currency,
          amountMinor: line.amountMinor,
          from: new Date(`${from}T00:00:00.000Z`),
          to: new Date(`${to}T23:59:59.999Z`),
        },
      };
    });
    const asked = windows.flatMap((w) => (w === null ? [] : [w.query]));
    const answers = await ports.payouts.amountDateCandidates(db, tenant, asked);
    const ofAccount = answers.map((found) =>
      found.filter((p) => p.fundingAccountId === null || p.fundingAccountId === fundingAccountId),
    );
    const taken = await payoutsMatched(db, [...new Set(ofAccount.flat().map((p) => p.id))], "debit");
    let next = 0;
    return lines.map((line, i): Decision => {
      const window = windows[i];
      if (window === null || window === undefined)
        return { kind: "unmatched", reason: "The entry has no booking date and names none of our transfers." };
      const open = (ofAccount[next] ?? []).filter((p) => !taken.has(p.id));
      next += 1;
      if (open.length === 1) return { kind: "debit", rule: "amount_date", payouts: open, differenceMinor: 0 };
      if (open.length > 1)
        return {
          kind: "review",
          candidates: open,
          reason: `${open.length} payouts of ${money(line.amountMinor, line.currency)} were sent within ${settings.windowBusinessDays} business days before ${window.booked}, and the entry names none of them.`,
        };
      return {
        kind: "unmatched",
        reason:
          "The entry names none of our transfers and no payout of this amount was sent in the window: a debit we did not make.",
      };
    });
  }

  function creditByReturn(line: LineFacts, lookups: Lookups): Decision | null {
    const targets: Array<{ reference: string; reasonCode: string | null; amountMinor: number | null }> = [];
    for (const r of line.returns)
      if (r.originalEndToEndId !== null)
        targets.push({ reference: r.originalEndToEndId, reasonCode: r.reasonCode, amountMinor: r.amountMinor });
    if (targets.length === 0)
      for (const id of line.endToEndIds) targets.push({ reference: id, reasonCode: null, amountMinor: null });
    if (targets.length === 0 && line.achTrace !== null)
      targets.push({ reference: line.achTrace, reasonCode: null, amountMinor: null });
    const ours = targets.flatMap((t) => {
      const item = lookups.items.get(t.reference);
      const payout = item === undefined ? undefined : lookups.payouts.get(item.payoutId);
      return payout === undefined ? [] : [{ ...t, payout }];
    });
    if (ours.length === 0) return null;
    if (ours.length < targets.length)
      return { kind: "review", candidates: ours.map((o) => o.payout), reason: "The return names transfers that are not ours." };
    const amounts = ours.length === 1 ? [line.amountMinor] : ours.map((o) => o.amountMinor ?? Number.NaN);
    const total = amounts.reduce((sum, a) => sum + a, 0);
    const bad = ours.find(
      (o, i) =>
        !(amounts[i] !== undefined && amounts[i] > 0 && amounts[i] <= o.payout.amountMinor) ||
        o.payout.currency !== line.currency,
    );
    if (bad !== undefined || total !== line.amountMinor)
      return {
        kind: "review",
        candidates: ours.map((o) => o.payout),
        reason: `The bank credited ${money(line.amountMinor, line.currency)} as a return; it does not fit what we sent (a return is at most the transfer's amount, less the banks' fees).`,
      };
    const notReturnable = ours.find(
      (o) => !SENT.has(o.payout.status) || (o.payout.status === "approved" && o.payout.disbursementStartedAt === null),
    );
    if (notReturnable !== undefined)
      return {
        kind: "review",
        candidates: ours.map((o) => o.payout),
        reason: `The bank returned payout ${notReturnable.payout.id}, which is ${notReturnable.payout.status}.`,
      };
    return {
      kind: "return",
      returns: ours.map((o, i) => ({
        payout: o.payout,
        returnedMinor: amounts[i] ?? line.amountMinor,
        reason: o.reasonCode === null ? "Returned by the bank (statement)" : `Returned by the bank: ${o.reasonCode}`,
      })),
    };
  }

  function creditByTopUp(line: LineFacts, topUps: readonly TopUpFacts[]): Decision | null {
    const ofAmount = topUps.filter((t) => t.amountMinor === line.amountMinor);
    if (ofAmount.length === 0) return null;
    const said = normaliseText(
      [line.remittance ?? "", line.bankReference ?? "", ...line.endToEndIds, ...line.instructionIds].join(" "),
    );
    const named = ofAmount.filter((t) => {
      const reference = normaliseText(t.reference);
      return reference.length >= 4 && said.includes(reference);
    });
    if (named.length === 1 && named[0] !== undefined) return { kind: "top_up", topUp: named[0] };
    if (named.length > 1)
      return {
        kind: "review",
        candidates: [],
        reason: `${named.length} top-ups of ${money(line.amountMinor, line.currency)} have the reference this credit carries: ${named.map((t) => t.id).join(", ")}.`,
      };
    return null;
  }

  /**
   * The decisions for the booked lines of one statement, in the rules' order, each as if alone (decisions are all
   * taken before any is applied): the references first (read for all lines by `readLookups`), then what is left
   * of the debits by amount and date and of the credits by top-up, each in one go for the statement.
   */
  async function decideAll(
    db: Db,
    tenant: Tenant,
    fundingAccountId: string,
    lines: readonly LineFacts[],
    lookups: Lookups,
  ): Promise<Decision[]> {
    const decisions: Array<Decision | null> = lines.map((line) =>
      line.direction === "debit" ? debitByReference(line, lookups) : creditByReturn(line, lookups),
    );
    const debitsLeft = lines.flatMap((line, i) => (decisions[i] === null && line.direction === "debit" ? [i] : []));
    const creditsLeft = lines.flatMap((line, i) => (decisions[i] === null && line.direction === "credit" ? [i] : []));
    if (debitsLeft.length > 0) {
      const byAmountDate = await debitsByAmountDate(
        db,
        tenant,
        fundingAccountId,
        debitsLeft.map((i) => lines[i] as LineFacts),
      );
      debitsLeft.forEach((lineIndex, k) => {
        decisions[lineIndex] = byAmountDate[k] ?? null;
      });
    }
    if (creditsLeft.length > 0) {
      const topUps = await ports.topUps.ofAmounts(
        db,
        tenant,
        fundingAccountId,
        creditsLeft.map((i) => (lines[i] as LineFacts).amountMinor),
      );
      for (const i of creditsLeft) decisions[i] = creditByTopUp(lines[i] as LineFacts, topUps);
    }
    return decisions.map(
      (d): Decision =>
        d ?? { kind: "unmatched", reason: "A credit naming none of our transfers or top-ups: it funded the account." },
    );
  }

  return { decideAll, within };
}

export type Matcher = ReturnType<typeof createMatcher>;
