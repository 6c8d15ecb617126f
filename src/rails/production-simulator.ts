// The PRODUCTION SIMULATOR rail. It moves no money and calls nobody: it is what `production` uses until a
// real rail is configured (PRODUCTION_RAIL=simulator, the default and for now the only accepted value), so a
// Business can drive every payout transition of the spec end to end before going live.
//
// Every outcome follows from the request alone (src/rails/README.md has the table):
//   - payouts: the exact `amount_minor` picks a scenario (SIMULATOR_SCENARIOS); any other amount follows the
//     default path (acknowledged, estimated arrival, disbursed, delivered; the payouts side settles it when
//     the return window closes);
//   - enrollment: a Beneficiary e-mail tagged `+refuse_enrollment` is refused person-level (no account named);
//     a destination whose last four characters are 0911 or 0912 is refused naming that destination.
// Outcomes come back as `scheduledOutcomes` with strictly increasing delays, so applying them in delay order
// is applying them in the order listed. The only inputs besides the request are the injected clock (for the
// absolute estimated-arrival and delivery times) and the configured late-return delay.
// A repeated idempotencyKey yields the same railRef, as a real rail's idempotency would.
import { createHash } from "node:crypto";
import type { Clock } from "../platform/clock.js";
import type {
  PayoutRail,
  RailDestination,
  RailEnrollmentRequest,
  RailEnrollmentResult,
  RailOutcome,
  RailPayoutRequest,
  RailSubmitResult,
} from "./rail.js";

export const PRODUCTION_SIMULATOR_RAIL_NAME = "production_simulator";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Delays of the default path, relative to submission. */
export const SIMULATOR_TIMINGS = {
  acknowledged: 0,
  estimatedArrival: 1 * SECOND,
  /** The estimated arrival given at submission: two days after it. */
  estimatedArrivalOffset: 2 * DAY,
  disbursed: 5 * MINUTE,
  delivered: 2 * HOUR,
  /** Default delay of a late return (after settlement); beyond any return window up to 59 days. */
  lateReturn: 60 * DAY,
} as const;

/** A scheduled outcome before the clock turns relative instants into dates. */
type Step =
  | { readonly afterMs: number; readonly outcome: Exclude<RailOutcome, { type: "estimated_arrival" | "delivered" }> }
  | { readonly afterMs: number; readonly estimatedArrivalInMs: number }
  | { readonly afterMs: number; readonly deliveredInMs: number };

export interface SimulatorScenario {
  /** The exact amount (minor units) that selects it; null for the default path. */
  readonly amountMinor: number | null;
  readonly name: string;
  readonly description: string;
  /** Refused at submission with this reason (the payout fails; no railRef, no outcome). */
  readonly refusal?: string;
  /** `lateReturnMs` is the configured late-return delay. */
  readonly steps: (lateReturnMs: number) => readonly Step[];
}

export const SIMULATOR_REASONS = {
  refusedAtSubmit: "The receiving bank refused the payment: the account number is invalid.",
  failedAfterAcknowledgment: "The receiving bank could not credit the account; no funds left the service.",
  canceled: "The payment was withdrawn by the rail before any funds moved.",
  returned: "The receiving bank returned the funds: account closed.",
  lateReturn: "The receiving bank returned the funds after settlement: payment disputed as unauthorized.",
  complianceHold: "Held for sanctions screening: a possible name match is under review.",
  personRefused: "The payee's identity could not be verified against the name and country given.",
  accountClosed: "The account is closed.",
  accountNameMismatch: "The account holder name does not match the bank's records.",
} as const;

const T = SIMULATOR_TIMINGS;
const R = SIMULATOR_REASONS;

const acknowledged: Step = { afterMs: T.acknowledged, outcome: { type: "acknowledged" } };
const estimate: Step = { afterMs: T.estimatedArrival, estimatedArrivalInMs: T.estimatedArrivalOffset };
const disbursed: Step = { afterMs: T.disbursed, outcome: { type: "disbursed" } };
const delivered: Step = { afterMs: T.delivered, deliveredInMs: T.delivered };
const defaultPath: readonly Step[] = [acknowledged, estimate, disbursed, delivered];

/** Every payout scenario, the default path first. The README's table lists the same rows. */
export const SIMULATOR_SCENARIOS: readonly SimulatorScenario[] = [
  {
    amountMinor: null,
    name: "default",
    description:
      "acknowledged, estimated arrival (two days ahead), disbursed after 5 min, delivered after 2 h; settled by the service when the return window closes",
    steps: () => defaultPath,
  },
  {
    amountMinor: 100_001,
    name: "refused_at_submit",
    description: "refused at submission: the payout fails at once, no money moves",
    refusal: R.refusedAtSubmit,
    steps: () => [],
  },
  {
    amountMinor: 100_002,
    name: "failed_after_acknowledgment",
    description: "acknowledged, then failed after 5 min",
    steps: () => [acknowledged, { afterMs: T.disbursed, outcome: { type: "failed", reason: R.failedAfterAcknowledgment } }],
  },
  {
    amountMinor: 100_003,
    name: "canceled",
    description: "acknowledged, then canceled by the rail after 5 min, before any money moved",
    steps: () => [acknowledged, { afterMs: T.disbursed, outcome: { type: "canceled", reason: R.canceled } }],
  },
  {
    amountMinor: 100_004,
    name: "returned",
    description: "the default path up to delivered, then returned after 1 day (inside the return window)",
    steps: () => [...defaultPath, { afterMs: 1 * DAY, outcome: { type: "returned", reason: R.returned } }],
  },
  {
    amountMinor: 100_005,
    name: "late_return",
    description: "the default path (settled when the return window closes), then returned after the late-return delay (60 days)",
    steps: (lateReturnMs) => [...defaultPath, { afterMs: lateReturnMs, outcome: { type: "returned", reason: R.lateReturn } }],
  },
  {
    amountMinor: 100_006,
    name: "compliance_hold_cleared",
    description:
      "acknowledged, on compliance hold after 1 min, cleared after 1 h (back to the state before), then the default path",
    steps: () => [
      acknowledged,
      { afterMs: 1 * MINUTE, outcome: { type: "compliance_hold", reason: R.complianceHold } },
      { afterMs: 1 * HOUR, outcome: { type: "compliance_hold_cleared" } },
      { afterMs: 1 * HOUR + T.estimatedArrival, estimatedArrivalInMs: 1 * HOUR + T.estimatedArrivalOffset },
      { afterMs: 1 * HOUR + T.disbursed, outcome: { type: "disbursed" } },
      { afterMs: 1 * HOUR + T.delivered, deliveredInMs: 1 * HOUR + T.delivered },
    ],
  },
  {
    amountMinor: 100_007,
    name: "compliance_hold",
    description: "acknowledged, then on compliance hold after 1 min until an operator clears it (control endpoint)",
    steps: () => [acknowledged, { afterMs: 1 * MINUTE, outcome: { type: "compliance_hold", reason: R.complianceHold } }],
  },
  {
    amountMinor: 100_008,
    name: "estimated_arrival_updated",
    description:
      "acknowledged, estimated arrival two days ahead, updated after 1 h to four days ahead, disbursed after 2 h, delivered after 4 days",
    steps: () => [
      acknowledged,
      estimate,
      { afterMs: 1 * HOUR, estimatedArrivalInMs: 4 * DAY },
      { afterMs: 2 * HOUR, outcome: { type: "disbursed" } },
      { afterMs: 4 * DAY, deliveredInMs: 4 * DAY },
    ],
  },
  {
    amountMinor: 100_009,
    name: "delivered_corrected",
    description: "the default path, then after 3 h a corrected delivery time (1 h 30 min after submission instead of 2 h)",
    steps: () => [...defaultPath, { afterMs: 3 * HOUR, deliveredInMs: 90 * MINUTE }],
  },
  {
    amountMinor: 100_010,
    name: "delivered_before_disbursed_report",
    description:
      "acknowledged, estimated arrival, disbursed reported only after 2 h, then delivered with a delivery time 30 min after submission (earlier than the disbursed report)",
    steps: () => [
      acknowledged,
      estimate,
      { afterMs: 2 * HOUR, outcome: { type: "disbursed" } },
      { afterMs: 2 * HOUR + 1 * SECOND, deliveredInMs: 30 * MINUTE },
    ],
  },
  {
    amountMinor: 100_011,
    name: "acknowledged_only",
    description: "acknowledged, then nothing: an operator drives the rest through the control endpoint",
    steps: () => [acknowledged],
  },
];

/** Enrollment triggers (README table). */
export const SIMULATOR_ENROLLMENT = {
  /** Tag in the local part of the Beneficiary's e-mail (case-insensitive): refused person-level. */
  personRefusalEmailTag: "+refuse_enrollment",
  /** Destinations whose last four characters are these are refused, naming the destination. */
  accountRefusals: { "0911": R.accountClosed, "0912": R.accountNameMismatch } as Readonly<Record<string, string>>,
} as const;

export function scenarioForAmount(amountMinor: number): SimulatorScenario {
  const found = SIMULATOR_SCENARIOS.find((scenario) => scenario.amountMinor === amountMinor);
  const fallback = SIMULATOR_SCENARIOS[0];
  if (fallback === undefined) throw new Error("the simulator has no default scenario");
  return found ?? fallback;
}

function accountRefusal(destination: RailDestination | null): string | null {
  if (destination === null) return null;
  return SIMULATOR_ENROLLMENT.accountRefusals[destination.last4.slice(-4)] ?? null;
}

function personRefused(email: string): boolean {
  const localPart = email.split("@")[0] ?? "";
  return localPart.toLowerCase().includes(SIMULATOR_ENROLLMENT.personRefusalEmailTag);
}

export interface ProductionSimulatorOptions {
  readonly clock: Clock;
  /** Delay of the late return (scenario late_return); must exceed the return window to land after settlement. */
  readonly lateReturnAfterMs?: number;
}

export function createProductionSimulatorRail(options: ProductionSimulatorOptions): PayoutRail {
  const lateReturnMs = options.lateReturnAfterMs ?? T.lateReturn;
  return {
    name: PRODUCTION_SIMULATOR_RAIL_NAME,
    async submit(request: RailPayoutRequest): Promise<RailSubmitResult> {
      const scenario = scenarioForAmount(request.amountMinor);
      if (scenario.refusal !== undefined) return { accepted: false, reason: scenario.refusal };
      const submittedAt = options.clock.now().getTime();
      return {
        accepted: true,
        // From our idempotency key only: a repeated submission of one attempt is recognisably the same payment.
        railRef: `sim_${createHash("sha256").update(request.idempotencyKey).digest("hex").slice(0, 24)}`,
        scheduledOutcomes: scenario.steps(lateReturnMs).map((step) => {
          if ("outcome" in step) return { afterMs: step.afterMs, outcome: step.outcome };
          if ("estimatedArrivalInMs" in step) {
            return {
              afterMs: step.afterMs,
              outcome: { type: "estimated_arrival", estimatedArrivalAt: new Date(submittedAt + step.estimatedArrivalInMs) },
            };
          }
          return {
            afterMs: step.afterMs,
            outcome: { type: "delivered", deliveredAt: new Date(submittedAt + step.deliveredInMs) },
          };
        }),
      };
    },
    async enroll(request: RailEnrollmentRequest): Promise<RailEnrollmentResult> {
      if (personRefused(request.beneficiary.email)) {
        return { outcome: "rejected", detail: R.personRefused, rejectedDestinationId: null };
      }
      const refusal = accountRefusal(request.destination);
      if (refusal !== null && request.destination !== null) {
        return { outcome: "rejected", detail: refusal, rejectedDestinationId: request.destination.destinationId };
      }
      return { outcome: "verified" };
    },
  };
}
