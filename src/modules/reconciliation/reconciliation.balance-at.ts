// The ledger's posted balance at the end of a statement's day (issue 28: "each statement's closing booked balance is
// compared with the ledger at that date"). Ledger transfers are stamped when the service records them, not when the
// bank moved the money, so the balance at a past instant (ledger balancesAt) would leave out the postings this very
// statement's lines just made (recorded now, for money booked that day). Instead: the posted balance now, less every
// transfer recorded after the day's end whose money the bank moved after that day. A transfer's bank day:
//   - caused by a statement line (unknown money, a fee, a person's reversal): that line's booking (else value) day;
//     the opening balance, caused by a statement: before every day;
//   - caused by a payout: the booking day of the line matched to it (its debit for hold, post and void, its return
//     for reverse); else, for its post, the payout's disbursed_at (a bank notification or the ACH settlement booked
//     it); else the day it was recorded;
//   - caused by a top-up: the booking day of the line matched to it, else the day it was recorded;
//   - a sandbox credit: the day it was recorded.
// A transfer posted with the bank's booking day (ledger_transfers.booked_on: a statement's postings of unknown money,
// fees and returns) is counted by that day without looking up its cause: the same day the rules above find.
// The day ends at 24:00 UTC: booking dates are the bank's and the module keeps no bank time zone.
import { and, eq } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import { anyOf } from "../../platform/db/arrays.js";
import type { Db } from "../../platform/db/client.js";
import { ownedBy } from "../../platform/db/tenant-scope.js";
import { addCalendarDays } from "../../rails/bank-files/calendars.js";
import { postedMovementsAfter } from "../ledger/ledger.shared.js";
import type { ReconciliationPorts } from "./reconciliation.ports.js";
import { bankStatements, statementLines, statementMatches } from "./reconciliation.schema.js";

/** The last instant of `day` (YYYY-MM-DD) in UTC. */
export function endOfDayUtc(day: string): Date {
  return new Date(new Date(`${addCalendarDays(day, 1)}T00:00:00.000Z`).getTime() - 1);
}

/**
 * The funding account's posted balance at the end of `day` as the bank counts it: `postedNowMinor` (the account's
 * posted balance, read in the caller's transaction) less the transfers recorded after that day whose money moved
 * after it (see the top of this file).
 */
export async function postedBalanceAtEndOf(
  db: Db,
  tenant: Tenant,
  ports: Pick<ReconciliationPorts, "payouts">,
  fundingAccountId: string,
  day: string,
  postedNowMinor: number,
): Promise<number> {
  const end = endOfDayUtc(day);
  // Transfers that carry the bank's booking day (the statement postings) are counted by it in the query; the others
  // one by one, below, by their cause.
  const { bookedAfterDayMinor, undated: after } = await postedMovementsAfter(db, fundingAccountId, end, day);
  if (after.length === 0) return postedNowMinor - bookedAfterDayMinor;

  const ids = (type: string) => [...new Set(after.filter((m) => m.causeType === type).map((m) => m.causeId))];
  const lineIds = ids("statement_line");
  const payoutIds = ids("payout");
  const topUpIds = ids("top_up");
  const lineDays = new Map<string, string | null>();
  const statements = new Set<string>();
  if (lineIds.length > 0) {
    const lines = await db
      .select({ id: statementLines.id, bookingDate: statementLines.bookingDate, valueDate: statementLines.valueDate })
      .from(statementLines)
      .where(and(ownedBy(statementLines, tenant), anyOf(statementLines.id, lineIds)));
    for (const line of lines) lineDays.set(line.id, line.bookingDate ?? line.valueDate);
    const opened = await db
      .select({ id: bankStatements.id })
      .from(bankStatements)
      .where(and(ownedBy(bankStatements, tenant), anyOf(bankStatements.id, lineIds)));
    for (const statement of opened) statements.add(statement.id);
  }
  // The booking day of the line matched to each payout (by kind) and top-up.
  const matchedDay = new Map<string, string | null>();
  for (const [column, list] of [
    [statementMatches.payoutId, payoutIds],
    [statementMatches.topUpId, topUpIds],
  ] as const) {
    if (list.length === 0) continue;
    const rows = await db
      .select({
        payoutId: statementMatches.payoutId,
        topUpId: statementMatches.topUpId,
        kind: statementMatches.kind,
        bookingDate: statementLines.bookingDate,
        valueDate: statementLines.valueDate,
      })
      .from(statementMatches)
      .innerJoin(statementLines, eq(statementLines.id, statementMatches.lineId))
      .where(and(ownedBy(statementMatches, tenant), anyOf(column, list)));
    for (const row of rows) matchedDay.set(`${row.payoutId ?? row.topUpId}:${row.kind}`, row.bookingDate ?? row.valueDate);
  }
  const payouts = payoutIds.length > 0 ? await ports.payouts.findPayouts(db, tenant, payoutIds) : new Map();

  const movedBy = (day_: string | null | undefined) => day_ !== null && day_ !== undefined && day_ <= day;
  let laterMinor = 0;
  for (const movement of after) {
    let within = false;
    if (movement.causeType === "statement_line") {
      within = statements.has(movement.causeId) || movedBy(lineDays.get(movement.causeId));
    } else if (movement.causeType === "payout") {
      const kind = movement.step === "reverse" ? "return" : "debit";
      const matched = matchedDay.get(`${movement.causeId}:${kind}`);
      if (matched !== undefined) within = movedBy(matched);
      else if (movement.step === "post") {
        const disbursedAt = payouts.get(movement.causeId)?.disbursedAt ?? null;
        within = disbursedAt !== null && disbursedAt.getTime() <= end.getTime();
      }
    } else if (movement.causeType === "top_up") {
      within = movedBy(matchedDay.get(`${movement.causeId}:top_up`));
    }
    if (!within) laterMinor += movement.postedDeltaMinor;
  }
  return postedNowMinor - bookedAfterDayMinor - laterMinor;
}
