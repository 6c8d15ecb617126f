// The payout state machine, move by move: every (state, trigger) pair in both environments, against a
// table written out here independently of the implementation.
import { describe, expect, it } from "vitest";
import {
  formatMajorAmount,
  PAYOUT_STATUSES,
  type PayoutStateView,
  type PayoutStatus,
  type PayoutTrigger,
  type PayoutTriggerType,
  transition,
} from "../../../src/modules/payouts/payouts.state.js";

const T0 = new Date("2026-05-27T12:00:00Z");
const T1 = new Date("2026-05-28T12:00:00Z");

const TRIGGERS: Record<PayoutTriggerType, PayoutTrigger> = {
  approve: { type: "approve" },
  reject: { type: "reject" },
  cancel_by_business: { type: "cancel_by_business" },
  submitted: { type: "submitted" },
  acknowledged: { type: "acknowledged" },
  estimated_arrival: { type: "estimated_arrival", estimatedArrivalAt: T1 },
  disbursed: { type: "disbursed" },
  delivered: { type: "delivered", deliveredAt: T1 },
  failed: { type: "failed", reason: "account closed" },
  canceled: { type: "canceled", reason: "rail canceled" },
  compliance_hold: { type: "compliance_hold", reason: "sanctions review" },
  compliance_hold_cleared: { type: "compliance_hold_cleared" },
  settle: { type: "settle" },
  returned: { type: "returned", reason: "beneficiary bank returned the funds" },
};

type Expected = { to: PayoutStatus; event: string | null; held?: PayoutStatus | null } | "noop" | "refused";

/** Production. Key: `${status}/${heldFrom ?? "-"}`; a missing trigger is refused. */
const PRODUCTION: Record<string, Partial<Record<PayoutTriggerType, Expected>>> = {
  "pending_approval/-": {
    approve: { to: "approved", event: null },
    reject: { to: "rejected", event: "payout.rejected" },
    cancel_by_business: { to: "canceled", event: "payout.canceled" },
    submitted: "noop",
    acknowledged: "noop",
    compliance_hold_cleared: "noop",
  },
  "approved/-": {
    cancel_by_business: { to: "canceled", event: "payout.canceled" },
    submitted: { to: "approved", event: "payout.disbursement_submitted" },
    acknowledged: { to: "approved", event: "payout.acknowledged" },
    estimated_arrival: { to: "approved", event: "payout.estimated_arrival_at" },
    disbursed: { to: "disbursed", event: "payout.disbursed" },
    delivered: { to: "approved", event: "payout.delivered" },
    failed: { to: "failed", event: "payout.failed" },
    canceled: { to: "canceled", event: "payout.canceled" },
    compliance_hold: { to: "compliance_hold", event: null, held: "approved" },
    compliance_hold_cleared: "noop",
  },
  "rejected/-": { submitted: "noop", acknowledged: "noop", compliance_hold_cleared: "noop" },
  "disbursed/-": {
    submitted: "noop",
    acknowledged: "noop",
    estimated_arrival: { to: "disbursed", event: "payout.estimated_arrival_at" },
    disbursed: "noop",
    delivered: { to: "disbursed", event: "payout.delivered" },
    compliance_hold: { to: "compliance_hold", event: null, held: "disbursed" },
    compliance_hold_cleared: "noop",
    settle: { to: "settled", event: "payout.settled" },
    returned: { to: "returned", event: "payout.returned" },
  },
  "settled/-": {
    submitted: "noop",
    acknowledged: "noop",
    disbursed: "noop",
    delivered: { to: "settled", event: "payout.delivered" },
    compliance_hold_cleared: "noop",
    settle: "noop",
    returned: { to: "returned", event: "payout.returned" },
  },
  "returned/-": { submitted: "noop", acknowledged: "noop", compliance_hold_cleared: "noop", returned: "noop" },
  "failed/-": { submitted: "noop", acknowledged: "noop", compliance_hold_cleared: "noop", failed: "noop" },
  "canceled/-": {
    submitted: "noop",
    acknowledged: "noop",
    compliance_hold_cleared: "noop",
    canceled: "noop",
    cancel_by_business: "noop",
  },
  "compliance_hold/approved": {
    submitted: { to: "compliance_hold", event: "payout.disbursement_submitted", held: "approved" },
    acknowledged: { to: "compliance_hold", event: "payout.acknowledged", held: "approved" },
    estimated_arrival: { to: "compliance_hold", event: "payout.estimated_arrival_at", held: "approved" },
    failed: { to: "failed", event: "payout.failed" },
    canceled: { to: "canceled", event: "payout.canceled" },
    compliance_hold: "noop",
    compliance_hold_cleared: { to: "approved", event: null },
  },
  "compliance_hold/disbursed": {
    submitted: "noop",
    acknowledged: "noop",
    estimated_arrival: { to: "compliance_hold", event: "payout.estimated_arrival_at", held: "disbursed" },
    compliance_hold: "noop",
    compliance_hold_cleared: { to: "disbursed", event: null },
    returned: { to: "returned", event: "payout.returned" },
  },
};

const PRODUCTION_ONLY: readonly PayoutTriggerType[] = ["delivered", "settle", "returned", "canceled", "cancel_by_business"];

function view(key: string, environment: "sandbox" | "production", extra: Partial<PayoutStateView> = {}): PayoutStateView {
  const [status, held] = key.split("/") as [PayoutStatus, string];
  return {
    status,
    heldFromStatus: held === "-" ? null : (held as PayoutStatus),
    environment,
    disbursementStarted: false,
    deliveredAt: null,
    estimatedArrivalAt: null,
    ...extra,
  };
}

function check(result: ReturnType<typeof transition>, expected: Expected) {
  if (expected === "noop" || expected === "refused") {
    expect(result.kind).toBe(expected);
    return;
  }
  expect(result).toEqual({
    kind: "move",
    from: expect.any(String),
    to: expected.to,
    event: expected.event,
    heldFromStatus: expected.held ?? null,
  });
}

describe("payout state machine", () => {
  it("covers every state", () => {
    const covered = new Set(Object.keys(PRODUCTION).map((key) => key.split("/")[0]));
    expect([...covered].sort()).toEqual([...PAYOUT_STATUSES].sort());
  });

  for (const environment of ["production", "sandbox"] as const) {
    describe(environment, () => {
      for (const [key, moves] of Object.entries(PRODUCTION)) {
        for (const [type, trigger] of Object.entries(TRIGGERS) as Array<[PayoutTriggerType, PayoutTrigger]>) {
          let expected: Expected = moves[type] ?? "refused";
          if (environment === "sandbox" && PRODUCTION_ONLY.includes(type)) expected = "refused";
          const label = typeof expected === "string" ? expected : `-> ${expected.to} (${expected.event ?? "no event"})`;
          it(`${key} + ${type}: ${label}`, () => check(transition(view(key, environment), trigger), expected));
        }
      }
    });
  }

  it("refuses a Business cancellation once the rail was called", () => {
    const result = transition(view("approved/-", "production", { disbursementStarted: true }), TRIGGERS.cancel_by_business);
    expect(result.kind).toBe("refused");
  });

  it("treats the same delivered_at as a repeat and a different one as a correction", () => {
    const delivered = view("disbursed/-", "production", { deliveredAt: T1 });
    expect(transition(delivered, { type: "delivered", deliveredAt: T1 }).kind).toBe("noop");
    expect(transition(delivered, { type: "delivered", deliveredAt: T0 })).toMatchObject({
      kind: "move",
      event: "payout.delivered",
    });
  });

  it("records an estimated arrival only when it changes", () => {
    const estimated = view("approved/-", "production", { estimatedArrivalAt: T1 });
    expect(transition(estimated, { type: "estimated_arrival", estimatedArrivalAt: T1 }).kind).toBe("noop");
    expect(transition(estimated, { type: "estimated_arrival", estimatedArrivalAt: T0 }).kind).toBe("move");
  });
});

describe("formatMajorAmount", () => {
  it.each([
    [1234, 2, "12.34"],
    [5, 2, "0.05"],
    [100, 2, "1.00"],
    [500, 0, "500"],
    [1234, 3, "1.234"],
    [1, 3, "0.001"],
    [Number.MAX_SAFE_INTEGER, 2, "90071992547409.91"],
  ])("%d with exponent %d is %s", (minor, exponent, major) => {
    expect(formatMajorAmount(minor, exponent)).toBe(major);
  });
});
