import { describe, expect, it } from "vitest";
import { evaluatePolicy } from "../../../src/modules/payouts/payouts.policy.js";

const now = new Date("2026-05-27T12:00:00Z");
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
const input = {
  amountMinor: 5_000,
  currency: "EUR",
  channel: "api" as const,
  beneficiaryCreatedAt: hoursAgo(100),
  destinationSince: hoursAgo(100),
  now,
};

describe("approval policy", () => {
  it("decides with the first rule whose every condition holds", () => {
    const rules = [
      { name: "usd-small", outcome: "approve" as const, currency: "USD", max_amount_minor: 10_000 },
      { name: "eur-small", outcome: "approve" as const, currency: "EUR", max_amount_minor: 10_000 },
      { name: "catch-all", outcome: "reject" as const },
    ];
    expect(evaluatePolicy(rules, input)?.name).toBe("eur-small");
    expect(evaluatePolicy(rules, { ...input, amountMinor: 10_001 })?.name).toBe("catch-all");
  });

  it("leaves a payout no rule matches to a person", () => {
    expect(evaluatePolicy([{ name: "csv", outcome: "approve", channels: ["csv"] }], input)).toBeNull();
    expect(evaluatePolicy([], input)).toBeNull();
  });

  it("checks the Beneficiary's age in both directions and the amount floor", () => {
    const newPayee = { name: "new", outcome: "reject" as const, max_beneficiary_age_hours: 24 };
    const oldPayee = { name: "old", outcome: "approve" as const, min_beneficiary_age_hours: 72 };
    expect(evaluatePolicy([newPayee, oldPayee], input)?.name).toBe("old");
    expect(evaluatePolicy([newPayee, oldPayee], { ...input, beneficiaryCreatedAt: hoursAgo(2) })?.name).toBe("new");
    expect(evaluatePolicy([{ name: "big", outcome: "reject", min_amount_minor: 5_001 }], input)).toBeNull();
  });
});
