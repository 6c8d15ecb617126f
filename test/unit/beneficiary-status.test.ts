import { describe, expect, it } from "vitest";
import {
  type BeneficiaryStatus,
  deriveBeneficiaryStatus,
  type StatusInputs,
} from "../../src/modules/beneficiaries/beneficiaries.state.js";

const ready: StatusInputs = {
  identityComplete: true,
  complianceStatus: "compliant",
  reacknowledgmentRequired: false,
  payoutUsableDestinations: 1,
  enrollmentRejected: false,
};

// The condition that produces each status on its own, starting from a ready Beneficiary.
const cause: Record<Exclude<BeneficiaryStatus, "ready">, Partial<StatusInputs>> = {
  suspended: { complianceStatus: "suspended" },
  reacknowledgment_required: { reacknowledgmentRequired: true },
  pending_details: { identityComplete: false },
  pending_kyc: { complianceStatus: "pending" },
  action_required: { payoutUsableDestinations: 0 },
};
const precedence = ["suspended", "reacknowledgment_required", "pending_details", "pending_kyc", "action_required"] as const;

describe("derived Beneficiary status", () => {
  it("is ready when nothing is missing", () => {
    expect(deriveBeneficiaryStatus(ready)).toBe("ready");
  });

  it.each(precedence)("%s on its own cause", (status) => {
    expect(deriveBeneficiaryStatus({ ...ready, ...cause[status] })).toBe(status);
  });

  it("action_required also when the rail refused enrollment", () => {
    expect(deriveBeneficiaryStatus({ ...ready, enrollmentRejected: true })).toBe("action_required");
  });

  const pairs = precedence.flatMap((higher, i) => precedence.slice(i + 1).map((lower) => [higher, lower] as const));
  it.each(pairs.filter(([a, b]) => !(a === "suspended" && b === "pending_kyc")))("%s wins over %s", (higher, lower) => {
    expect(deriveBeneficiaryStatus({ ...ready, ...cause[lower], ...cause[higher] })).toBe(higher);
  });

  it("suspended wins over pending_kyc's missing acknowledgment (both live in compliance_status: suspended stands)", () => {
    // compliance_status holds one value, so 'pending' and 'suspended' cannot both hold; a suspended
    // Beneficiary that was never acknowledged still reads suspended.
    expect(
      deriveBeneficiaryStatus({ ...ready, complianceStatus: "suspended", identityComplete: false, payoutUsableDestinations: 0 }),
    ).toBe("suspended");
  });
});
