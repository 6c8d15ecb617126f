// What a SEPA answer from the bank means for each payout of one of our files, decided on everything it
// carries (docs/decisions.md, "Status reports and bookings as banks send them"). Pure: the inbound job reads
// the file we sent (its payment blocks) and its items, gives them here, and applies what comes back.
//
// pain.002 (.001.03 and .001.10): a status at group (GrpSts), payment-block (PmtInfSts) and transaction
// (TxSts) level. A transaction's own status wins, else its block's, else the group's. PART (at group or block
// level) says "look at the transactions": a transaction under it with no status of its own is left as it is.
// PDNG and RCVD move nothing. A transaction we did not send in that file, reported under a block it was not
// in, or with an OrgnlTxRef amount other than ours moves nothing and is named in a sentence. A report never
// undoes a booking or a return already reported (a later stage): a rejection of a booked transfer is said.
//
// camt.054 booked per batch (NtryDtls/Btch): the block's booking moves its payouts only when PmtInfId is a
// block of ours and NbOfTxs, TtlAmt and the entry amount are the block less its rejected transactions.

import type { Camt054Batch, Pain001Block, Pain002Report } from "../../rails/bank-files/iso-readers.js";
import { isoReasonText } from "../../rails/bank-files/reason-codes.js";

/** Statuses saying the bank took the payment (ACWC: accepted with a change the bank made). */
export const ISO_ACCEPTED = new Set(["ACCP", "ACTC", "ACSP", "ACSC", "ACWC"]);

export type StatusClass = "accepted" | "rejected" | "undecided";

/**
 * What an item's last bank status says: RJCT rejected; nothing yet, PDNG, PART or RCVD undecided; an accepted
 * status, a booking (BOOK) or a return code after one accepted (the bank took it before anything later).
 */
export function classOf(bankStatus: string | null): StatusClass {
  if (bankStatus === "RJCT") return "rejected";
  if (bankStatus === null || bankStatus === "" || bankStatus === "PDNG" || bankStatus === "PART" || bankStatus === "RCVD")
    return "undecided";
  return "accepted";
}

export interface FileItemFacts {
  readonly payoutId: string;
  /** The EndToEndId as we wrote it (lower-case hex). */
  readonly reference: string | null;
  readonly amountMinor: number;
  readonly bankStatus: string | null;
}

export interface ItemDecision {
  readonly status: string;
  readonly outcome: "acknowledged" | "failed" | null;
  readonly reason: string | null;
}

export interface StatusReportDecision {
  /** Each item whose bank status the report changes, with the payout move it brings (null: status only). */
  readonly items: ReadonlyMap<string, ItemDecision>;
  /** The file's status after the report (unchanged when the report decides nothing). */
  readonly fileStatus: string;
  readonly rejected: number;
  readonly problems: readonly string[];
}

export function euroWords(minor: number): string {
  return `EUR ${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
}

/** The file's status from its items' classes: all accepted, all rejected, some of each (or some still open). */
export function fileStatusOf(classes: readonly StatusClass[], current: string): string {
  const count = (c: StatusClass) => classes.filter((x) => x === c).length;
  const accepted = count("accepted");
  const rejected = count("rejected");
  const undecided = count("undecided");
  if (accepted === 0 && rejected === 0) return current;
  if (rejected === 0 && undecided === 0) return "accepted";
  if (accepted === 0 && undecided === 0) return "rejected";
  return "partially_accepted";
}

/**
 * What a pain.002 does to the items of the file it answers (`fileName`, `blocks` as we wrote them, `items`
 * with their last status).
 */
export function decideStatusReport(
  report: Pain002Report,
  file: { readonly fileName: string; readonly messageId: string; readonly status: string },
  blocks: readonly Pain001Block[],
  items: readonly FileItemFacts[],
): StatusReportDecision {
  const problems: string[] = [];
  const said = `pain.002 ${report.messageId}`;
  const blockOf = new Map<string, string>();
  for (const block of blocks) for (const tx of block.transactions) blockOf.set(tx.endToEndId.toLowerCase(), block.paymentInfoId);
  const byReference = new Map(items.map((item) => [(item.reference ?? "").toLowerCase(), item]));
  const reasonWords = (reason: Pain002Report["groupReason"], fallback: string) =>
    reason.code ? isoReasonText(reason.code, reason.additionalInfo) : fallback;

  // Block level: only blocks of this file.
  const blockStatus = new Map<string, { status: string; reason: string }>();
  for (const block of report.paymentBlocks) {
    const known = blocks.some((b) => b.paymentInfoId === block.paymentInfoId);
    if (!known) {
      problems.push(
        `${said} reports on payment block ${block.paymentInfoId || "(none)"}${block.status ? ` (${block.status})` : ""}, which is not a block of file ${file.fileName} (message ${file.messageId}); nothing was moved for it.`,
      );
      continue;
    }
    if (block.status !== null)
      blockStatus.set(block.paymentInfoId, {
        status: block.status,
        reason: reasonWords(block.reason, "The bank rejected the whole payment block."),
      });
  }

  // Transaction level: its own status, when it names one of our transactions of this file with our facts.
  const own = new Map<string, { status: string | null; reason: string }>();
  /** Items a report line named without agreeing with us: nothing moves them, not even a group status. */
  const disputed = new Set<string>();
  for (const tx of report.transactions) {
    const reference = tx.endToEndId.toLowerCase();
    const item = byReference.get(reference);
    const status = tx.status ? ` (${tx.status})` : "";
    if (item === undefined) {
      problems.push(
        `${said}: transaction ${tx.endToEndId}${status} is not one we sent in file ${file.fileName} (message ${file.messageId}); nothing was moved.`,
      );
      continue;
    }
    const ourBlock = blockOf.get(reference);
    if (tx.paymentInfoId !== "" && ourBlock !== undefined && tx.paymentInfoId !== ourBlock) {
      disputed.add(item.payoutId);
      problems.push(
        `${said}: transaction ${tx.endToEndId}${status} is reported under payment block ${tx.paymentInfoId}, but we sent it in block ${ourBlock} of file ${file.fileName}; nothing was moved.`,
      );
      continue;
    }
    if (
      tx.originalAmountMinor !== null &&
      (tx.originalAmountMinor !== item.amountMinor || (tx.originalCurrency !== null && tx.originalCurrency !== "EUR"))
    ) {
      disputed.add(item.payoutId);
      problems.push(
        `${said}: transaction ${tx.endToEndId}${status}: we sent ${euroWords(item.amountMinor)}, the status report says ${tx.originalCurrency ?? "EUR"} ${euroWords(tx.originalAmountMinor).slice(4)}; nothing was moved.`,
      );
      continue;
    }
    own.set(item.payoutId, { status: tx.status, reason: reasonWords(tx.reason, "The bank rejected the payment.") });
  }

  const group = report.groupStatus;
  const groupReason = reasonWords(report.groupReason, "The bank rejected the whole file.");
  const decisions = new Map<string, ItemDecision>();
  const classes: StatusClass[] = [];
  let rejected = 0;
  for (const item of items) {
    const reference = (item.reference ?? "").toLowerCase();
    let decided: { status: string; reason: string } | null = null;
    if (!disputed.has(item.payoutId)) {
      const mine = own.get(item.payoutId);
      const block = blockStatus.get(blockOf.get(reference) ?? "");
      if (mine?.status) decided = { status: mine.status, reason: mine.reason };
      // PART (or PDNG, RCVD) at block level: the transactions say; one without its own status stays as it is.
      else if (block !== undefined) decided = block;
      else if (group !== null) decided = { status: group, reason: groupReason };
    }
    const before = classOf(item.bankStatus);
    if (decided === null || !(ISO_ACCEPTED.has(decided.status) || decided.status === "RJCT")) {
      // Nothing decided for it (PART, PDNG, RCVD, an unknown code, or a disputed line): left as it is.
      classes.push(before);
      continue;
    }
    // Booked (BOOK) or returned already: a status report is an earlier stage and changes nothing; a rejection
    // of a booked transfer is said, not applied (the money left).
    const booked = before === "accepted" && item.bankStatus !== null && !ISO_ACCEPTED.has(item.bankStatus);
    if (booked) {
      classes.push(before);
      if (decided.status === "RJCT")
        problems.push(
          `${said}: transaction ${reference} is rejected, but the bank already reported it ${item.bankStatus === "BOOK" ? "booked" : `returned (${item.bankStatus})`}; nothing was moved.`,
        );
      continue;
    }
    const after = classOf(decided.status);
    classes.push(after);
    if (after === before) {
      // The same outcome again (ACTC then ACSC, or the same report under another name): the status is kept
      // up to date, the payout is not moved a second time.
      if (decided.status !== item.bankStatus)
        decisions.set(item.payoutId, { status: decided.status, outcome: null, reason: null });
      continue;
    }
    if (after === "rejected") rejected += 1;
    decisions.set(item.payoutId, {
      status: decided.status,
      outcome: after === "accepted" ? "acknowledged" : "failed",
      reason: after === "rejected" ? decided.reason : null,
    });
  }
  return { items: decisions, fileStatus: fileStatusOf(classes, file.status), rejected, problems };
}

export type BatchCheck =
  | { readonly matched: true; readonly payoutIds: readonly string[] }
  | { readonly matched: false; readonly problem: string };

/**
 * Whether a batch booking is exactly the block we sent less its rejected transactions (by the items' last
 * status): the count, the total and the entry amount must all agree; NbOfTxs and TtlAmt when the bank gives
 * them (both optional in ISO 20022), the entry amount always.
 */
export function checkBatchBooking(
  batch: Camt054Batch,
  block: Pain001Block,
  file: { readonly fileName: string },
  items: readonly FileItemFacts[],
  messageId: string,
): BatchCheck {
  const byReference = new Map(items.map((item) => [(item.reference ?? "").toLowerCase(), item]));
  const inBlock = block.transactions.flatMap((tx) => byReference.get(tx.endToEndId.toLowerCase()) ?? []);
  const remaining = inBlock.filter((item) => classOf(item.bankStatus) !== "rejected");
  const rejectedCount = inBlock.length - remaining.length;
  const expectedTotal = remaining.reduce((sum, item) => sum + item.amountMinor, 0);
  const differences: string[] = [];
  if (batch.numberOfTransactions !== null && batch.numberOfTransactions !== remaining.length)
    differences.push(`NbOfTxs ${batch.numberOfTransactions}`);
  if (batch.totalAmountMinor !== null && (batch.totalAmountMinor !== expectedTotal || (batch.totalCurrency ?? "EUR") !== "EUR"))
    differences.push(`TtlAmt ${batch.totalCurrency ?? "EUR"} ${euroWords(batch.totalAmountMinor).slice(4)}`);
  if (batch.entryAmountMinor !== expectedTotal || batch.entryCurrency !== "EUR")
    differences.push(`entry amount ${batch.entryCurrency} ${euroWords(batch.entryAmountMinor).slice(4)}`);
  if (remaining.length === 0 && differences.length === 0) differences.push("nothing left to book in it");
  if (differences.length > 0) {
    const less = rejectedCount > 0 ? ` (${inBlock.length} sent less ${rejectedCount} rejected)` : "";
    return {
      matched: false,
      problem: `camt.054 ${messageId}: batch booking of payment block ${block.paymentInfoId} (file ${file.fileName}) does not add up: we expected ${remaining.length} transactions for ${euroWords(expectedTotal)}${less}, the bank booked ${differences.join(", ")}; nothing was moved.`,
    };
  }
  return { matched: true, payoutIds: remaining.map((item) => item.payoutId) };
}
