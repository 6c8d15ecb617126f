// Which approval-policy replacements loosen the rules (e-mail to admins, refused to API keys): rule by rule,
// conservatively, names not counted.
import { describe, expect, it } from "vitest";
import { approvalRulesLoosened } from "../../src/modules/payouts/payouts.policy.js";
import type { PolicyRule } from "../../src/modules/payouts/payouts.schemas.js";

const approveSmall: PolicyRule = { name: "small", outcome: "approve", max_amount_minor: 10_000 };
const approveCsv: PolicyRule = { name: "csv", outcome: "approve", channels: ["csv"] };
const rejectHuge: PolicyRule = { name: "huge", outcome: "reject", min_amount_minor: 1_000_000 };
const rejectGbp: PolicyRule = { name: "gbp", outcome: "reject", currency: "GBP" };

describe("approvalRulesLoosened", () => {
  it("a new or widened approve rule loosens", () => {
    expect(approvalRulesLoosened([], [approveSmall])).toBe(true);
    expect(approvalRulesLoosened([approveSmall], [{ ...approveSmall, max_amount_minor: 20_000 }])).toBe(true);
    expect(approvalRulesLoosened([approveSmall], [approveSmall, approveCsv])).toBe(true);
  });

  it("a removed or changed reject rule loosens", () => {
    expect(approvalRulesLoosened([rejectHuge], [])).toBe(true);
    expect(approvalRulesLoosened([rejectHuge], [{ ...rejectHuge, min_amount_minor: 2_000_000 }])).toBe(true);
  });

  it("an approve rule moved above a reject rule it followed loosens", () => {
    expect(approvalRulesLoosened([rejectHuge, approveSmall], [approveSmall, rejectHuge])).toBe(true);
  });

  it("removing approve rules, adding reject rules, reordering one outcome and renaming do not", () => {
    expect(approvalRulesLoosened([approveSmall, approveCsv], [approveCsv])).toBe(false);
    expect(approvalRulesLoosened([approveSmall], [rejectGbp, approveSmall, rejectHuge])).toBe(false);
    expect(approvalRulesLoosened([approveSmall, approveCsv], [approveCsv, approveSmall])).toBe(false);
    expect(approvalRulesLoosened([rejectHuge, rejectGbp], [rejectGbp, rejectHuge])).toBe(false);
    expect(approvalRulesLoosened([approveSmall, rejectHuge], [rejectHuge, approveSmall])).toBe(false);
    expect(approvalRulesLoosened([approveSmall], [{ ...approveSmall, name: "renamed" }])).toBe(false);
    expect(approvalRulesLoosened([], [])).toBe(false);
  });
});
