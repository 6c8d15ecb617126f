// Reconciliation in words: statement formats, line statuses, the rule that made a match, and the balance check as
// a sentence with the difference and any gap in the statements' sequence numbers (never the API's values alone).
// Pure code on the facts it reads (no generated type, so the root suite's unit test imports it:
// test/unit/dashboard-reconciliation-words.test.ts); the API's objects fit these shapes.
import { formatMoney } from "../../lib/money.js";

export interface BalanceCheck {
  readonly status: string;
  readonly ledger_minor: number | null;
  readonly bank_minor: number | null;
  readonly difference_minor: number | null;
  readonly sequence_gap: { readonly expected: number; readonly received: number } | null;
  readonly resolved_reason?: string | null;
}
export interface LineCounts {
  readonly matched: number;
  readonly needs_review: number;
  readonly unmatched: number;
  readonly ignored: number;
  readonly pending: number;
}
interface LineReferences {
  readonly bank_reference: string | null;
  readonly references: {
    readonly end_to_end_ids: readonly string[];
    readonly payment_information_id: string | null;
    readonly instruction_ids: readonly string[];
    readonly ach_trace: string | null;
  };
}

/** A word for a value this build does not know: the value with its underscores as spaces. */
const fallback = (value: string) => {
  const spaced = value.replaceAll("_", " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

const FORMATS: Readonly<Record<string, string>> = {
  "camt.053": "End-of-day statement (camt.053)",
  "camt.052": "Intraday report (camt.052)",
  bai2: "BAI2 statement",
};
export const formatName = (format: string) => FORMATS[format] ?? format;

const SOURCES: Readonly<Record<string, string>> = { upload: "Uploaded", inbound_folder: "From the bank's folder" };
export const sourceName = (source: string) => SOURCES[source] ?? fallback(source);

const LINE_STATUS: Readonly<Record<string, { label: string; color: string }>> = {
  matched: { label: "Matched", color: "teal.9" },
  needs_review: { label: "Needs review", color: "yellow.5" },
  unmatched: { label: "Not expected", color: "red.8" },
  ignored: { label: "Ignored", color: "gray.7" },
  pending: { label: "Pending at the bank", color: "gray.7" },
};
export const lineStatus = (status: string) => LINE_STATUS[status] ?? { label: fallback(status), color: "gray.7" };

export const directionName = (direction: string) => (direction === "debit" ? "Money out" : "Money in");

const RULES: Readonly<Record<string, string>> = {
  end_to_end_id: "by its end-to-end reference",
  batch: "as one booking of a batch of payouts",
  return: "as a return",
  top_up: "to a top-up by its reference",
  amount_date: "by amount and date (the only candidate)",
  manual: "by hand",
};
/** "by its end-to-end reference"; a rule this build does not know is named as the API names it. */
export const ruleWords = (rule: string) => RULES[rule] ?? `by the rule ${rule.replaceAll("_", " ")}`;

/** "3 matched · 1 to review · 2 not expected"; nothing for a count of zero; "no lines" when all are. */
export function linesByStatusWords(counts: LineCounts): string {
  const parts = [
    [counts.matched, "matched"],
    [counts.needs_review, "to review"],
    [counts.unmatched, "not expected"],
    [counts.ignored, "ignored"],
    [counts.pending, "pending"],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, words]) => `${n} ${words}`);
  return said.length === 0 ? "no lines" : said.join(" · ");
}

const BALANCE_STATUS: Readonly<Record<string, { label: string; color: string }>> = {
  agrees: { label: "Balance agrees", color: "teal.9" },
  mismatch: { label: "Balance differs", color: "red.8" },
  not_checked: { label: "Not checked", color: "gray.7" },
  resolved: { label: "Difference resolved", color: "blue.8" },
};
export const balanceStatus = (status: string) => BALANCE_STATUS[status] ?? { label: fallback(status), color: "gray.7" };

/** How far the bank's balance is from the service's, in words: "€1.00 less than ours"; null when unknown or none. */
export function differenceWords(check: BalanceCheck, currency: string): string | null {
  const difference =
    check.bank_minor !== null && check.ledger_minor !== null ? check.bank_minor - check.ledger_minor : check.difference_minor;
  if (difference === null || difference === 0) return null;
  const amount = formatMoney(Math.abs(difference), currency);
  if (check.bank_minor === null || check.ledger_minor === null) return `a difference of ${amount}`;
  return `${amount} ${difference < 0 ? "less" : "more"} than ours`;
}

/** The balance check as a sentence: what the bank says, what the service says, the difference and any gap. */
export function balanceCheckWords(check: BalanceCheck, currency: string): string {
  const money = (minor: number) => formatMoney(minor, currency);
  const gap =
    check.sequence_gap === null
      ? ""
      : ` Statement number ${check.sequence_gap.expected} was expected next but number ${check.sequence_gap.received} arrived: a statement is missing.`;
  const amounts =
    check.bank_minor === null || check.ledger_minor === null
      ? null
      : { bank: money(check.bank_minor), ours: money(check.ledger_minor) };
  switch (check.status) {
    case "agrees":
      return amounts === null
        ? `The bank's closing balance agrees with ours.${gap}`
        : `The bank's closing balance of ${amounts.bank} agrees with ours.${gap}`;
    case "mismatch":
    case "resolved": {
      const difference = differenceWords(check, currency);
      const said =
        amounts === null
          ? gap.trim()
          : `The bank's closing balance is ${amounts.bank}, ours is ${amounts.ours}${difference === null ? "" : `: the bank's is ${difference}`}.${gap}`;
      if (check.status !== "resolved") return said;
      const reason = check.resolved_reason ?? null;
      return `${said} Resolved${reason === null ? "" : `: ${reason}`}.`;
    }
    default:
      return `Not checked: this statement carries no closing booked balance to compare (an intraday report, or pending entries only).${gap}`;
  }
}

/** "2026-05-04 to 2026-05-05", one day alone, or what is known of it. */
export function periodWords(statement: { readonly period_from: string | null; readonly period_to: string | null }): string {
  const { period_from: from, period_to: to } = statement;
  if (from === null && to === null) return "No period given";
  if (from === null || to === null || from === to) return from ?? to ?? "";
  return `${from} to ${to}`;
}

/** The references a line carries, in words, for reading beside candidates. */
export function referenceWords(line: LineReferences): string[] {
  const r = line.references;
  return [
    ...r.end_to_end_ids.map((id: string) => `End-to-end ${id}`),
    ...(r.payment_information_id === null ? [] : [`Payment block ${r.payment_information_id}`]),
    ...r.instruction_ids.map((id: string) => `Instruction ${id}`),
    ...(r.ach_trace === null ? [] : [`ACH trace ${r.ach_trace}`]),
    ...(line.bank_reference === null ? [] : [`Bank reference ${line.bank_reference}`]),
  ];
}
