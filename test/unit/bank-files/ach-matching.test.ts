// Matching an ACH return or notification of change to our entry on everything it carries (trace, amount,
// account, receiving bank, direction, date), never on the trace alone.
import { describe, expect, it } from "vitest";
import { type AchAnswer, matchAchAnswer } from "../../../src/modules/bank-rails/bank-rails.matching.js";
import type { FiledItem } from "../../../src/modules/bank-rails/bank-rails.repo.js";
import { achReturnCodeFitsCredit } from "../../../src/rails/bank-files/reason-codes.js";

const fingerprint = (account: string) => `fp:${account.toUpperCase()}`;
const RECEIVED = new Date("2026-06-10T15:00:00.000Z");
const TRACE = "091000010000042";

function filed(overrides: Partial<FiledItem["item"]> = {}, fileCreatedAt = new Date("2026-06-08T20:00:00.000Z")): FiledItem {
  return {
    item: {
      payoutId: "0190f0a0-0000-7000-8000-000000000001",
      businessId: "0190f0a0-0000-7000-8000-0000000000b1",
      environment: "production",
      rail: "ach",
      fileId: "0190f0a0-0000-7000-8000-0000000000f1",
      amountMinor: 3_333,
      destinationId: null,
      reference: TRACE,
      accountFingerprint: fingerprint("123456789"),
      accountLast4: "6789",
      bankCode: "021000021",
      transactionCode: "22",
      paymentInfoId: null,
      bankStatus: null,
      queuedAt: new Date("2026-06-08T12:00:00.000Z"),
      ...overrides,
    },
    fileName: "ach-000000000001-20260608T2000Z.ach",
    fileCreatedAt,
  };
}

function answer(overrides: Partial<AchAnswer> = {}): AchAnswer {
  return {
    kind: "return",
    code: "R03",
    originalTrace: TRACE,
    originalReceivingDfi: "02100002",
    accountNumber: "123456789",
    amountMinor: 3_333,
    transactionCode: "21",
    ...overrides,
  };
}

const problemOf = (result: ReturnType<typeof matchAchAnswer>) => (result.matched === null ? result.problem : null);

describe("matchAchAnswer", () => {
  it("matches an answer that agrees on every fact", () => {
    const result = matchAchAnswer(answer(), [filed()], RECEIVED, fingerprint);
    expect(result.matched?.item.payoutId).toBe("0190f0a0-0000-7000-8000-000000000001");
  });

  it("names each fact that differs and moves nothing", () => {
    const problem = problemOf(
      matchAchAnswer(
        answer({ amountMinor: 1_000_000, accountNumber: "999888777", originalReceivingDfi: "01100001", transactionCode: "26" }),
        [filed()],
        RECEIVED,
        fingerprint,
      ),
    );
    expect(problem).toContain("amount: we sent $33.33, the return says $10,000.00");
    expect(problem).toContain("account: we sent account ending 6789, the return says account ending 8777");
    expect(problem).toContain("receiving bank: we sent routing number 021000021, the return says 01100001");
    expect(problem).toContain(
      "direction: we sent a credit to a checking account, the return says transaction code 26 (an answer to a debit)",
    );
    expect(problem).not.toContain("999888777");
  });

  it("takes a savings answer code for a checking entry as another entry", () => {
    expect(problemOf(matchAchAnswer(answer({ transactionCode: "31" }), [filed()], RECEIVED, fingerprint))).toContain(
      "direction:",
    );
  });

  it("compares no amount for a notification of change (its amount is zero by rule)", () => {
    const result = matchAchAnswer(
      answer({ kind: "notification_of_change", code: "C01", amountMinor: 0 }),
      [filed()],
      RECEIVED,
      fingerprint,
    );
    expect(result.matched).not.toBeNull();
  });

  it("does not match an entry sent more than 120 days before, nor one sent after the answer arrived", () => {
    const old = filed({}, new Date("2026-02-09T20:00:00.000Z"));
    expect(problemOf(matchAchAnswer(answer(), [old], RECEIVED, fingerprint))).toContain("more than 120 days");
    const later = filed({}, new Date("2026-06-11T20:00:00.000Z"));
    expect(problemOf(matchAchAnswer(answer(), [later], RECEIVED, fingerprint))).toContain("was written after this file arrived");
  });

  it("after the trace sequence wrapped, picks the entry whose facts agree, and refuses to choose between two that both do", () => {
    const wrappedTwin = filed(
      { payoutId: "0190f0a0-0000-7000-8000-000000000002", amountMinor: 5_000 },
      new Date("2026-06-09T20:00:00.000Z"),
    );
    expect(matchAchAnswer(answer(), [wrappedTwin, filed()], RECEIVED, fingerprint).matched?.item.payoutId).toBe(
      "0190f0a0-0000-7000-8000-000000000001",
    );
    const sameFacts = filed({ payoutId: "0190f0a0-0000-7000-8000-000000000003" }, new Date("2026-06-09T20:00:00.000Z"));
    expect(problemOf(matchAchAnswer(answer(), [sameFacts, filed()], RECEIVED, fingerprint))).toContain(
      "2 of our entries agree with it",
    );
  });

  it("says so when no entry of ours carries the trace", () => {
    expect(problemOf(matchAchAnswer(answer(), [], RECEIVED, fingerprint))).toBe(
      `ACH return R03 for trace ${TRACE}: none of our ACH entries carries this trace number; nothing was moved.`,
    );
  });

  it("applies a debit-only code on a credit whose facts agree, with a note", () => {
    const result = matchAchAnswer(answer({ code: "R01" }), [filed()], RECEIVED, fingerprint);
    expect(result.matched).not.toBeNull();
    expect(result.matched === null ? [] : result.notes).toEqual([
      expect.stringContaining("R01: Insufficient funds. is a reason for returning a debit"),
    ]);
    for (const code of ["R01", "R05", "R07", "R08", "R09", "R10", "R11", "R29", "R51", "R52", "R53"])
      expect(achReturnCodeFitsCredit(code)).toBe(false);
    for (const code of ["R02", "R03", "R04", "R06", "R14", "R15", "R16", "R17", "R20", "R23", "R24", "R31"])
      expect(achReturnCodeFitsCredit(code)).toBe(true);
  });

  it("matches an entry written before the facts were kept on what it has (trace, amount, date)", () => {
    const legacy = filed({ accountFingerprint: null, accountLast4: null, bankCode: null, transactionCode: null });
    expect(matchAchAnswer(answer({ accountNumber: "anything" }), [legacy], RECEIVED, fingerprint).matched).not.toBeNull();
    expect(problemOf(matchAchAnswer(answer({ amountMinor: 1 }), [legacy], RECEIVED, fingerprint))).toContain("amount:");
  });
});
