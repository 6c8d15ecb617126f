// The closing booked balance is compared with the ledger at the statement's date (issue 28), on both databases: a
// statement for yesterday, processed after today's postings (today's intraday report booked a credit first), agrees;
// today's end-of-day statement, processed after it, agrees too; and a late statement is checked, not skipped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../helpers/test-app.js";
import {
  bookingOf,
  buildReconApp,
  getJson,
  line,
  reconService,
  type Scenario,
  sentPayouts,
  statement,
} from "./recon-fixtures.js";

let t: TestApp;

beforeAll(async () => {
  ({ t } = await buildReconApp());
});
afterAll(async () => t?.close());

async function posted(s: Scenario): Promise<number> {
  return Number((await getJson(t, s.key, `/v1/funding-accounts/${s.fundingAccountId}`)).posted_minor);
}

async function check(s: Scenario, statements: Parameters<ReturnType<typeof reconService>["receiveStatements"]>[1]) {
  const applied = await reconService(t).receiveStatements(s.tenant, statements);
  const stmt = applied.statements[0];
  if (stmt === undefined) throw new Error("no statement");
  return (await getJson(t, s.key, `/v1/bank-statements/${stmt.id}`)).balance_check as Record<string, unknown>;
}

describe("balance at the statement's date", () => {
  it("yesterday's statement processed after today's postings agrees; today's end of day agrees after it", async () => {
    const s = await sentPayouts(t, [5_000]); // sent on Monday 1 June; the clock is now Tuesday 01:00 UTC
    const before = await posted(s);
    // Tuesday's intraday report books a credit nobody announced: it funds the account today.
    const credit = line({ direction: "credit", amountMinor: 10_000, bookingDate: "2026-06-02", valueDate: "2026-06-02" });
    await check(s, [
      statement(s, [credit], {
        format: "camt.052",
        messageVersion: "camt.052.001.08",
        periodFrom: "2026-06-02",
        periodTo: "2026-06-02",
        closingDate: null,
      }),
    ]);
    expect(await posted(s)).toBe(before + 10_000);
    // Monday's statement, after that: it books the payout; its closing balance is Monday's, without Tuesday's credit.
    const monday = await check(s, [
      statement(s, [bookingOf(s.payouts[0] as string, 5_000)], { closingBookedMinor: before - 5_000 }),
    ]);
    expect(monday).toMatchObject({
      status: "agrees",
      ledger_minor: before - 5_000,
      bank_minor: before - 5_000,
      difference_minor: 0,
    });
    expect(await posted(s)).toBe(before + 5_000);
    // Tuesday's end-of-day statement carries the same credit (known: nothing posted twice) and agrees with now.
    const tuesday = await check(s, [
      statement(s, [credit], {
        periodFrom: "2026-06-02",
        periodTo: "2026-06-02",
        closingDate: "2026-06-02",
        closingBookedMinor: before + 5_000,
      }),
    ]);
    expect(tuesday).toMatchObject({ status: "agrees", ledger_minor: before + 5_000 });
    // A late copy of a Monday statement (another message) is checked at Monday, not skipped as older.
    const late = await check(s, [statement(s, [], { closingBookedMinor: before - 5_000 - 1 })]);
    expect(late).toMatchObject({ status: "mismatch", ledger_minor: before - 5_000, difference_minor: -1 });
  });
});
