// What the payout state machine tells a Business: why a cancellation is refused (the reason reaches the
// PAYOUT_NOT_CANCELABLE message) and how event amounts are written.
import { describe, expect, it } from "vitest";
import {
  formatMajorAmount,
  type PayoutStateView,
  type PayoutStatus,
  transition,
} from "../../../src/modules/payouts/payouts.state.js";

function view(status: PayoutStatus, extra: Partial<PayoutStateView> = {}): PayoutStateView {
  return {
    status,
    heldFromStatus: null,
    environment: "production",
    disbursementStarted: false,
    deliveredAt: null,
    estimatedArrivalAt: null,
    ...extra,
  };
}

describe("why a Business cancellation is refused", () => {
  it("says the payout was already sent to the rail once the rail was called", () => {
    expect(transition(view("approved", { disbursementStarted: true }), { type: "cancel_by_business" })).toEqual({
      kind: "refused",
      reason: "the payout was already sent to the rail",
    });
  });

  it("names the state a payout cannot be canceled from", () => {
    expect(transition(view("settled"), { type: "cancel_by_business" })).toEqual({
      kind: "refused",
      reason: "cancel_by_business is not allowed from settled",
    });
  });

  it("says a sandbox payout cannot be canceled because cancellation does not happen in sandbox", () => {
    expect(transition(view("pending_approval", { environment: "sandbox" }), { type: "cancel_by_business" })).toEqual({
      kind: "refused",
      reason: "cancel_by_business does not happen in sandbox",
    });
  });
});

describe("event amounts", () => {
  it.each([
    [0, 2, "0.00"],
    [-1234, 2, "-12.34"],
    [-5, 0, "-5"],
  ])("%d with exponent %d is %s", (minor, exponent, major) => {
    expect(formatMajorAmount(minor, exponent)).toBe(major);
  });
});
