// The payout-rail contract: what the service asks of whatever moves the money (a bank API, a payments
// provider, or one of our own sandbox/simulator rails), and the outcomes a rail reports back.
//
// Flow (see src/rails/README.md):
//   approve (one transaction) -> enqueues job `payout.disburse`
//   `payout.disburse` (after commit, outside any transaction) -> rail.submit(request with our idempotency key)
//     -> the payout records `payout.disbursement_submitted` and the returned `railRef`
//     -> every outcome the rail reports (now, later, or through the operator control endpoint) becomes a
//        `payout.rail_outcome` job applied by the payouts module as one state-machine transition with its event.
// A rail call never happens inside a database transaction; a rail must treat a repeated `idempotencyKey`
// as the same request (that is what makes a crash between "called the rail" and "recorded it" safe).
import type { Environment } from "../platform/auth/api-key-format.js";

/** The decrypted routing details a rail needs to reach a destination. Never logged, never persisted in clear. */
export interface RailDestination {
  readonly destinationId: string;
  readonly kind: "bank_account" | "card";
  readonly country: string;
  readonly currency: string;
  readonly accountHolderName: string;
  readonly accountNumber: string | null;
  readonly routingCode: string | null;
  readonly iban: string | null;
  readonly swiftBic: string | null;
  readonly clabe: string | null;
  readonly pixKey: string | null;
  /** Full card number, only for card destinations. */
  readonly cardNumber: string | null;
  readonly last4: string;
}

export interface RailBeneficiary {
  readonly beneficiaryId: string;
  readonly beneficiaryType: "person" | "business";
  readonly name: string;
  readonly email: string;
  readonly country: string | null;
}

export interface RailPayoutRequest {
  readonly environment: Environment;
  readonly payoutId: string;
  /** Stable for every retry of the same disbursement attempt: the rail must not move money twice for it. */
  readonly idempotencyKey: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly externalRef: string | null;
  readonly beneficiary: RailBeneficiary;
  readonly destination: RailDestination;
}

/** Something the rail tells us about a submitted payout. Each maps to at most one payout transition. */
export type RailOutcome =
  | { readonly type: "acknowledged" }
  | { readonly type: "estimated_arrival"; readonly estimatedArrivalAt: Date }
  /** `disbursedAt`: when the money left, when the rail says so (a bank's booking date); else when it is applied. */
  | { readonly type: "disbursed"; readonly disbursedAt?: Date }
  | { readonly type: "delivered"; readonly deliveredAt: Date }
  | { readonly type: "returned"; readonly reason: string }
  | { readonly type: "failed"; readonly reason: string }
  | { readonly type: "canceled"; readonly reason: string }
  | { readonly type: "compliance_hold"; readonly reason: string }
  | { readonly type: "compliance_hold_cleared" };

export type RailOutcomeType = RailOutcome["type"];

/** Every outcome type, for validating payloads and operator input. */
export const RAIL_OUTCOME_TYPES = [
  "acknowledged",
  "estimated_arrival",
  "disbursed",
  "delivered",
  "returned",
  "failed",
  "canceled",
  "compliance_hold",
  "compliance_hold_cleared",
] as const satisfies readonly RailOutcomeType[];

/** An outcome the rail will report `afterMs` after submission (simulators script their outcomes this way). */
export interface ScheduledRailOutcome {
  readonly afterMs: number;
  readonly outcome: RailOutcome;
}

export type RailSubmitResult =
  | {
      readonly accepted: true;
      /** The rail's own reference for the payout (`rail_ref` in events). */
      readonly railRef: string;
      /** Outcomes already known at submission, in order, each with its delay. Real rails usually return none
       *  and report later through their own callbacks, which become `payout.rail_outcome` jobs. */
      readonly scheduledOutcomes: readonly ScheduledRailOutcome[];
    }
  /** Refused outright: the money never left (the payout fails with this reason). */
  | { readonly accepted: false; readonly reason: string };

export interface RailEnrollmentRequest {
  readonly environment: Environment;
  readonly beneficiary: RailBeneficiary;
  /** The destination to enroll with the rail; null when the Beneficiary has none yet (person-level check). */
  readonly destination: RailDestination | null;
}

export type RailEnrollmentResult =
  | { readonly outcome: "verified" }
  | {
      readonly outcome: "rejected";
      /** The rail's wording with the provider's name stripped out (shown to the Business). */
      readonly detail: string;
      /** The destination the refusal named, when it named one. */
      readonly rejectedDestinationId: string | null;
    };

export interface PayoutRail {
  /** Stable name stored on each attempt (e.g. `sandbox`, `production_simulator`). */
  readonly name: string;
  submit(request: RailPayoutRequest): Promise<RailSubmitResult>;
  enroll(request: RailEnrollmentRequest): Promise<RailEnrollmentResult>;
}

/** The rail used for each environment. */
export interface RailRegistry {
  forEnvironment(environment: Environment): PayoutRail;
}

/** A rail outcome as a job payload carries it (the payouts module's `payout.rail_outcome`): dates travel as ISO strings. */
export type SerializedRailOutcome =
  | Exclude<RailOutcome, { type: "estimated_arrival" } | { type: "delivered" } | { type: "disbursed" }>
  | { readonly type: "disbursed"; readonly disbursedAt?: string }
  | { readonly type: "estimated_arrival"; readonly estimatedArrivalAt: string }
  | { readonly type: "delivered"; readonly deliveredAt: string };

export function serializeRailOutcome(outcome: RailOutcome): SerializedRailOutcome {
  switch (outcome.type) {
    case "estimated_arrival":
      return { type: outcome.type, estimatedArrivalAt: outcome.estimatedArrivalAt.toISOString() };
    case "delivered":
      return { type: outcome.type, deliveredAt: outcome.deliveredAt.toISOString() };
    case "disbursed":
      return outcome.disbursedAt === undefined
        ? { type: outcome.type }
        : { type: outcome.type, disbursedAt: outcome.disbursedAt.toISOString() };
    default:
      return outcome;
  }
}

export function parseRailOutcome(serialized: SerializedRailOutcome): RailOutcome {
  switch (serialized.type) {
    case "estimated_arrival":
      return { type: serialized.type, estimatedArrivalAt: new Date(serialized.estimatedArrivalAt) };
    case "delivered":
      return { type: serialized.type, deliveredAt: new Date(serialized.deliveredAt) };
    case "disbursed":
      return serialized.disbursedAt === undefined
        ? { type: serialized.type }
        : { type: serialized.type, disbursedAt: new Date(serialized.disbursedAt) };
    default:
      return serialized;
  }
}
