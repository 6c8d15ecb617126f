// Which of our entries an answer from the bank is about, decided on everything the answer carries, never on
// its reference alone (docs/decisions.md, "Identity of what we send"). Pure: the inbound job gives it the
// candidates (our filed items carrying the reference) and applies what it decides.
//
// An ACH return or notification of change names the original entry's trace number (addenda positions 7-21)
// and the original receiving DFI (28-35); its entry detail repeats the receiver's DFI account number (13-29),
// the amount (30-39; zero for a notification of change) and a transaction code saying what it answers (21 /
// 31: a credit to checking / savings; 26 / 36: a debit). It moves a payout only when one of our entries
// sent within the match window agrees on all of them; otherwise nothing moves and the reason is written in
// words a bank operations person reads (what we sent, what the file said).
import { achReturnCodeFitsCredit, achReturnText } from "../../rails/bank-files/reason-codes.js";
import type { FiledItem } from "./bank-rails.repo.js";

/**
 * How long after its file an entry can still be matched by an answer: the longest return timeframe of the
 * Nacha rules is 60 days (unauthorized consumer debits, which we never send); credits come back within two
 * banking days, later only with the ODFI's agreement (R06, R31). 120 days leaves room for those and keeps a
 * trace number that wrapped (9,999,999 entries later) out of reach. An older answer is shown, not applied.
 */
export const ACH_ANSWER_MATCH_WINDOW_DAYS = 120;
const DAY_MS = 86_400_000;

/** The facts of one ACH return or notification of change, as read from the bank's file. */
export interface AchAnswer {
  readonly kind: "return" | "notification_of_change";
  readonly code: string;
  readonly originalTrace: string;
  /** Eight digits: the original entry's receiving DFI identification. */
  readonly originalReceivingDfi: string;
  readonly accountNumber: string;
  readonly amountMinor: number;
  readonly transactionCode: string;
}

export type AchMatch =
  | { readonly matched: FiledItem; readonly notes: readonly string[] }
  | { readonly matched: null; readonly problem: string };

function dollars(minor: number): string {
  const cents = String(minor % 100).padStart(2, "0");
  return `$${Math.floor(minor / 100).toLocaleString("en-US")}.${cents}`;
}

function accountWords(last4: string): string {
  return `account ending ${last4 === "" ? "(none)" : last4}`;
}

/** Transaction code of a return or notification of change answering an entry sent with `sent` (22 -> 21, 32 -> 31). */
function answeringCode(sent: string): string {
  return `${sent[0] ?? ""}1`;
}

function kindWords(answer: AchAnswer): string {
  return answer.kind === "return" ? `ACH return ${answer.code}` : `ACH notification of change ${answer.code}`;
}

/** How an entry of ours and an answer differ, in words ("amount: we sent $33.33, the return says $10,000.00"). */
function differences(answer: AchAnswer, candidate: FiledItem, fingerprint: (accountNumber: string) => string): string[] {
  const item = candidate.item;
  const said = answer.kind === "return" ? "the return says" : "the notification says";
  const out: string[] = [];
  // A notification of change carries no amount (zero by rule): nothing to compare.
  if (answer.kind === "return" && answer.amountMinor !== item.amountMinor)
    out.push(`amount: we sent ${dollars(item.amountMinor)}, ${said} ${dollars(answer.amountMinor)}`);
  if (item.accountFingerprint !== null && fingerprint(answer.accountNumber) !== item.accountFingerprint)
    out.push(
      `account: we sent ${accountWords(item.accountLast4 ?? "")}, ${said} ${accountWords(answer.accountNumber.slice(-4))}`,
    );
  if (item.bankCode !== null && item.bankCode.slice(0, 8) !== answer.originalReceivingDfi)
    out.push(`receiving bank: we sent routing number ${item.bankCode}, ${said} ${answer.originalReceivingDfi || "(none)"}`);
  const expected = item.transactionCode === null ? null : answeringCode(item.transactionCode);
  const direction = answer.transactionCode[1];
  if (direction !== "1" || (expected !== null && answer.transactionCode !== expected)) {
    const sent =
      item.transactionCode === "32"
        ? "a credit to a savings account"
        : item.transactionCode === "22"
          ? "a credit to a checking account"
          : "a credit";
    out.push(
      `direction: we sent ${sent}, ${said} transaction code ${answer.transactionCode} (${direction === "6" ? "an answer to a debit" : direction === "1" ? "an answer to a credit to another account type" : "not an answer to a credit"})`,
    );
  }
  return out;
}

/**
 * The one entry of ours an ACH answer is about, or why none is. `candidates` are our filed items carrying its
 * original trace (newest first); `receivedAt` is when the answer arrived.
 */
export function matchAchAnswer(
  answer: AchAnswer,
  candidates: readonly FiledItem[],
  receivedAt: Date,
  fingerprint: (accountNumber: string) => string,
): AchMatch {
  const what = `${kindWords(answer)} for trace ${answer.originalTrace}`;
  if (candidates.length === 0) {
    return { matched: null, problem: `${what}: none of our ACH entries carries this trace number; nothing was moved.` };
  }
  const oldest = receivedAt.getTime() - ACH_ANSWER_MATCH_WINDOW_DAYS * DAY_MS;
  const inWindow = candidates.filter(
    (c) => c.fileCreatedAt.getTime() <= receivedAt.getTime() && c.fileCreatedAt.getTime() >= oldest,
  );
  if (inWindow.length === 0) {
    const newest = candidates[0] as FiledItem;
    const when =
      newest.fileCreatedAt.getTime() > receivedAt.getTime()
        ? "was written after this file arrived, so it cannot be the entry returned"
        : `was sent more than ${ACH_ANSWER_MATCH_WINDOW_DAYS} days before this file arrived`;
    return {
      matched: null,
      problem: `${what}: our entry with this trace number (payout ${newest.item.payoutId}, file ${newest.fileName}, written ${newest.fileCreatedAt.toISOString()}) ${when}; nothing was moved: check it with the bank.`,
    };
  }
  const agreeing = inWindow.filter((c) => differences(answer, c, fingerprint).length === 0);
  if (agreeing.length > 1) {
    return {
      matched: null,
      problem: `${what}: ${agreeing.length} of our entries agree with it (payouts ${agreeing.map((c) => c.item.payoutId).join(", ")}); nothing was moved.`,
    };
  }
  const [match] = agreeing;
  if (match === undefined) {
    const closest = inWindow[0] as FiledItem;
    return {
      matched: null,
      problem: `${what} does not agree with our entry with that trace number (payout ${closest.item.payoutId}, file ${closest.fileName}): ${differences(answer, closest, fingerprint).join("; ")}. Nothing was moved.`,
    };
  }
  const notes: string[] = [];
  if (answer.kind === "return" && !achReturnCodeFitsCredit(answer.code)) {
    notes.push(
      `${what}: ${achReturnText(answer.code)} is a reason for returning a debit, but payout ${match.item.payoutId} was a credit. The return was applied (trace, amount, account and bank agree, and the money came back); ask the bank for the real reason.`,
    );
  }
  return { matched: match, notes };
}
