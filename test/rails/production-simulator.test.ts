// Every row of the production simulator's trigger table (src/rails/README.md), written out by hand here so
// a change to the simulator's table shows up as a failing test rather than silently moving the docs.
import { describe, expect, it } from "vitest";
import { createManualClock } from "../../src/platform/clock.js";
import {
  createProductionSimulatorRail,
  PRODUCTION_SIMULATOR_RAIL_NAME,
  SIMULATOR_SCENARIOS,
} from "../../src/rails/production-simulator.js";
import type { RailDestination, RailPayoutRequest, RailSubmitResult } from "../../src/rails/rail.js";

const START = new Date("2026-06-01T09:00:00.000Z");
const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const D = 24 * H;
const at = (ms: number) => new Date(START.getTime() + ms);

const destination: RailDestination = {
  destinationId: "0190a0b0-0000-7000-8000-000000000001",
  kind: "bank_account",
  country: "US",
  currency: "USD",
  accountHolderName: "Ana Lima",
  accountNumber: "123456789",
  routingCode: "021000021",
  iban: null,
  swiftBic: null,
  clabe: null,
  pixKey: null,
  cardNumber: null,
  last4: "6789",
};
const beneficiary = {
  beneficiaryId: "0190a0b0-0000-7000-8000-000000000002",
  beneficiaryType: "person" as const,
  name: "Ana Lima",
  email: "ana@example.com",
  country: "US",
};

function request(amountMinor: number, idempotencyKey = "payout-1:attempt-1"): RailPayoutRequest {
  return {
    environment: "production",
    payoutId: "0190a0b0-0000-7000-8000-000000000003",
    idempotencyKey,
    amountMinor,
    currency: "USD",
    externalRef: "inv-1",
    beneficiary,
    destination,
  };
}

function rail(lateReturnAfterMs?: number) {
  const clock = createManualClock(START);
  return createProductionSimulatorRail({ clock, ...(lateReturnAfterMs === undefined ? {} : { lateReturnAfterMs }) });
}

/** The schedule as [afterMs, type, extra] triples, easy to compare with a literal. */
function schedule(result: RailSubmitResult): Array<[number, string, string?]> {
  if (!result.accepted) throw new Error(`refused: ${result.reason}`);
  return result.scheduledOutcomes.map(({ afterMs, outcome }) => {
    switch (outcome.type) {
      case "estimated_arrival":
        return [afterMs, outcome.type, outcome.estimatedArrivalAt.toISOString()];
      case "delivered":
        return [afterMs, outcome.type, outcome.deliveredAt.toISOString()];
      case "returned":
      case "failed":
      case "canceled":
      case "compliance_hold":
        return [afterMs, outcome.type, outcome.reason];
      default:
        return [afterMs, outcome.type];
    }
  });
}

const DEFAULT_PATH: Array<[number, string, string?]> = [
  [0, "acknowledged"],
  [S, "estimated_arrival", at(2 * D).toISOString()],
  [5 * MIN, "disbursed"],
  [2 * H, "delivered", at(2 * H).toISOString()],
];

describe("production simulator: payouts", () => {
  it("is named as a simulator", () => {
    expect(rail().name).toBe(PRODUCTION_SIMULATOR_RAIL_NAME);
    expect(PRODUCTION_SIMULATOR_RAIL_NAME).toBe("production_simulator");
  });

  it("any other amount follows the default path: acknowledged, estimated arrival, disbursed, delivered", async () => {
    for (const amount of [1, 100_000, 100_012, 4_250_00]) {
      expect(schedule(await rail().submit(request(amount)))).toEqual(DEFAULT_PATH);
    }
  });

  it("100001 is refused at submission with a reason and no rail reference", async () => {
    const result = await rail().submit(request(100_001));
    expect(result).toEqual({ accepted: false, reason: "The receiving bank refused the payment: the account number is invalid." });
  });

  it("100002 is acknowledged, then fails after 5 minutes", async () => {
    expect(schedule(await rail().submit(request(100_002)))).toEqual([
      [0, "acknowledged"],
      [5 * MIN, "failed", "The receiving bank could not credit the account; no funds left the service."],
    ]);
  });

  it("100003 is acknowledged, then canceled before money moved", async () => {
    expect(schedule(await rail().submit(request(100_003)))).toEqual([
      [0, "acknowledged"],
      [5 * MIN, "canceled", "The payment was withdrawn by the rail before any funds moved."],
    ]);
  });

  it("100004 is delivered, then returned after one day", async () => {
    expect(schedule(await rail().submit(request(100_004)))).toEqual([
      ...DEFAULT_PATH,
      [D, "returned", "The receiving bank returned the funds: account closed."],
    ]);
  });

  it("100005 is returned late (60 days by default, or the configured delay)", async () => {
    const late = [
      "returned",
      "The receiving bank returned the funds after settlement: payment disputed as unauthorized.",
    ] as const;
    expect(schedule(await rail().submit(request(100_005)))).toEqual([...DEFAULT_PATH, [60 * D, ...late]]);
    expect(schedule(await rail(10 * D).submit(request(100_005)))).toEqual([...DEFAULT_PATH, [10 * D, ...late]]);
  });

  it("100006 goes on compliance hold after 1 minute, is cleared after 1 hour, then follows the default path", async () => {
    expect(schedule(await rail().submit(request(100_006)))).toEqual([
      [0, "acknowledged"],
      [MIN, "compliance_hold", "Held for sanctions screening: a possible name match is under review."],
      [H, "compliance_hold_cleared"],
      [H + S, "estimated_arrival", at(H + 2 * D).toISOString()],
      [H + 5 * MIN, "disbursed"],
      [3 * H, "delivered", at(3 * H).toISOString()],
    ]);
  });

  it("100007 stays on compliance hold (an operator clears it)", async () => {
    expect(schedule(await rail().submit(request(100_007)))).toEqual([
      [0, "acknowledged"],
      [MIN, "compliance_hold", "Held for sanctions screening: a possible name match is under review."],
    ]);
  });

  it("100008 updates its estimated arrival", async () => {
    expect(schedule(await rail().submit(request(100_008)))).toEqual([
      [0, "acknowledged"],
      [S, "estimated_arrival", at(2 * D).toISOString()],
      [H, "estimated_arrival", at(4 * D).toISOString()],
      [2 * H, "disbursed"],
      [4 * D, "delivered", at(4 * D).toISOString()],
    ]);
  });

  it("100009 corrects its delivered_at after delivery", async () => {
    expect(schedule(await rail().submit(request(100_009)))).toEqual([
      ...DEFAULT_PATH,
      [3 * H, "delivered", at(90 * MIN).toISOString()],
    ]);
  });

  it("100010 reports a delivery time earlier than its disbursed report", async () => {
    expect(schedule(await rail().submit(request(100_010)))).toEqual([
      [0, "acknowledged"],
      [S, "estimated_arrival", at(2 * D).toISOString()],
      [2 * H, "disbursed"],
      [2 * H + S, "delivered", at(30 * MIN).toISOString()],
    ]);
  });

  it("100011 is acknowledged and then left to the operator", async () => {
    expect(schedule(await rail().submit(request(100_011)))).toEqual([[0, "acknowledged"]]);
  });

  it("delays strictly increase in every scenario, so delay order is the listed order", async () => {
    for (const scenario of SIMULATOR_SCENARIOS) {
      const result = await rail().submit(request(scenario.amountMinor ?? 5_00));
      if (!result.accepted) continue;
      const delays = result.scheduledOutcomes.map((o) => o.afterMs);
      expect(
        [...delays].sort((a, b) => a - b),
        scenario.name,
      ).toEqual(delays);
      expect(new Set(delays).size, scenario.name).toBe(delays.length);
    }
  });

  it("the same idempotency key yields the same rail reference; another key another one", async () => {
    const first = await rail().submit(request(5_00, "key-a"));
    const again = await rail().submit(request(9_99, "key-a"));
    const other = await rail().submit(request(5_00, "key-b"));
    if (!first.accepted || !again.accepted || !other.accepted) throw new Error("refused");
    expect(first.railRef).toMatch(/^sim_[0-9a-f]{24}$/);
    expect(again.railRef).toBe(first.railRef);
    expect(other.railRef).not.toBe(first.railRef);
  });

  it("the schedule depends on the request alone: two submissions at the same instant are identical", async () => {
    const a = await rail().submit(request(100_008));
    const b = await rail().submit(request(100_008));
    expect(b).toEqual(a);
  });
});

describe("production simulator: enrollment", () => {
  const enroll = (email: string, dest: RailDestination | null) =>
    rail().enroll({ environment: "production", beneficiary: { ...beneficiary, email }, destination: dest });

  it("verifies an ordinary Beneficiary, with or without a destination", async () => {
    expect(await enroll("ana@example.com", destination)).toEqual({ outcome: "verified" });
    expect(await enroll("ana@example.com", null)).toEqual({ outcome: "verified" });
  });

  it("an e-mail tagged +refuse_enrollment is refused person-level, naming no account", async () => {
    const expected = {
      outcome: "rejected",
      detail: "The payee's identity could not be verified against the name and country given.",
      rejectedDestinationId: null,
    };
    expect(await enroll("ana+refuse_enrollment@example.com", destination)).toEqual(expected);
    expect(await enroll("Ana+Refuse_Enrollment@Example.com", null)).toEqual(expected);
    // Only the local part counts.
    expect(await enroll("ana@refuse_enrollment.example.com", null)).toEqual({ outcome: "verified" });
  });

  it("a destination ending in 0911 is refused as closed, naming it", async () => {
    expect(await enroll("ana@example.com", { ...destination, last4: "0911" })).toEqual({
      outcome: "rejected",
      detail: "The account is closed.",
      rejectedDestinationId: destination.destinationId,
    });
  });

  it("a destination ending in 0912 is refused for a holder-name mismatch, naming it", async () => {
    expect(await enroll("ana@example.com", { ...destination, last4: "0912" })).toEqual({
      outcome: "rejected",
      detail: "The account holder name does not match the bank's records.",
      rejectedDestinationId: destination.destinationId,
    });
  });

  it("no refusal wording names a provider, the simulator or the sandbox", async () => {
    const details = [
      await enroll("a+refuse_enrollment@example.com", null),
      await enroll("a@example.com", { ...destination, last4: "0911" }),
      await enroll("a@example.com", { ...destination, last4: "0912" }),
    ].map((r) => (r.outcome === "rejected" ? r.detail : ""));
    for (const detail of details) expect(detail).not.toMatch(/simulat|sandbox|provider|stripe|wise|dwolla/i);
  });
});
