// The Reconciliation page's words (dashboard/src/components/reconciliation/words.ts): the balance check as a
// sentence with both figures, which side is higher and a missing statement; the lines' counts; the references.
import { describe, expect, it } from "vitest";
import {
  balanceCheckWords,
  differenceWords,
  linesByStatusWords,
  periodWords,
  ruleWords,
} from "../../dashboard/src/components/reconciliation/words.js";

const check = (over: Partial<Parameters<typeof balanceCheckWords>[0]>) => ({
  status: "mismatch" as const,
  ledger_minor: 975_100,
  bank_minor: 975_000,
  difference_minor: -100,
  sequence_gap: null,
  ...over,
});

describe("the balance check in words", () => {
  it("names both balances and which is higher, by how much", () => {
    expect(balanceCheckWords(check({}), "EUR")).toBe(
      "The bank's closing balance is €9,750.00, ours is €9,751.00: the bank's is €1.00 less than ours.",
    );
    expect(differenceWords(check({ bank_minor: 975_200 }), "EUR")).toBe("€1.00 more than ours");
    expect(balanceCheckWords(check({ status: "agrees", ledger_minor: 5, bank_minor: 5, difference_minor: 0 }), "JPY")).toBe(
      "The bank's closing balance of ¥5 agrees with ours.",
    );
  });

  it("says a statement is missing, and that a difference was resolved", () => {
    const gap = check({ status: "resolved", sequence_gap: { expected: 11, received: 12 }, resolved_reason: "Fee booked late" });
    expect(balanceCheckWords(gap, "EUR")).toBe(
      "The bank's closing balance is €9,750.00, ours is €9,751.00: the bank's is €1.00 less than ours. Statement number 11 was expected next but number 12 arrived: a statement is missing. Resolved: Fee booked late.",
    );
    expect(
      balanceCheckWords(
        check({ bank_minor: null, ledger_minor: null, difference_minor: null, sequence_gap: { expected: 3, received: 5 } }),
        "EUR",
      ),
    ).toBe("Statement number 3 was expected next but number 5 arrived: a statement is missing.");
    expect(balanceCheckWords(check({ status: "not_checked" }), "EUR")).toMatch(/^Not checked: /);
  });

  it("counts the lines by status, leaving out the zeros", () => {
    expect(linesByStatusWords({ matched: 3, needs_review: 1, unmatched: 0, ignored: 0, pending: 2 })).toBe(
      "3 matched · 1 to review · 2 pending",
    );
    expect(linesByStatusWords({ matched: 0, needs_review: 0, unmatched: 0, ignored: 0, pending: 0 })).toBe("no lines");
  });

  it("names rules and periods in words, and a rule it does not know by its name", () => {
    expect(ruleWords("batch")).toBe("as one booking of a batch of payouts");
    expect(ruleWords("fuzzy_thing")).toBe("by the rule fuzzy thing");
    expect(periodWords({ period_from: "2026-05-04", period_to: "2026-05-04" })).toBe("2026-05-04");
    expect(periodWords({ period_from: "2026-05-01", period_to: "2026-05-04" })).toBe("2026-05-01 to 2026-05-04");
  });
});
