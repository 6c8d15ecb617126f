// Enrollment of a Beneficiary (and its destinations) with the environment's payout rail.
//
// Triggers (docs/decisions.md, "Enrollment"): the compliance acknowledgment, a destination registered for a
// compliant Beneficiary (both automatic, after their own transaction committed), and the retry route.
// One attempt = three steps, never a rail call inside a transaction:
//   1. transaction: lock the Beneficiary, check it may be enrolled, mark `pending` (failure fields null),
//      make this attempt the current one, pick the destinations to submit;
//   2. no transaction: one rail call per destination (or one person-level call when there is none to
//      submit), stopping at the first refusal;
//   3. transaction: if this attempt is still the current one (conditional update), write `verified` or
//      `rejected` with the rail's wording, the destinations' verification, and on a refusal the
//      `beneficiary.enrollment_rejected` event. If the rail failed to answer, restore the state before step 1.

import { Type } from "@sinclair/typebox";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import type { IdGenerator } from "../../platform/ids.js";
import { defineJob, jobHandler } from "../../platform/jobs/job-definition.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { PayoutRail, RailBeneficiary, RailDestination, RailRegistry } from "../../rails/rail.js";
import { BENEFICIARY_ERRORS } from "../beneficiaries/beneficiaries.errors.js";
import {
  clearEnrollmentFailureAccount,
  type EnrollmentStatus,
  finishEnrollment,
  lockBeneficiary,
  markEnrollmentPending,
} from "../beneficiaries/beneficiaries.shared.js";
import type { BeneficiaryBody, BeneficiaryRow } from "../beneficiaries/index.js";
import {
  type EnrollmentDestinationRow,
  listEnrollableDestinations,
  markDestinationRejected,
  markDestinationsVerified,
  setRailRejectionReason,
} from "../destinations/destinations.shared.js";
import { railDestinationOf } from "../destinations/index.js";
import { ENROLLMENT_ERRORS } from "./enrollment.errors.js";

/** An attempt still `pending` after this long is taken as abandoned (its process died) and may be superseded. */
export const ENROLLMENT_STALE_AFTER_MS = 60_000;

export interface EnrollmentLogger {
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

export interface EnrollmentServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly cipher: FieldCipher;
  readonly events: EventRecorder;
  readonly rails: RailRegistry;
  readonly logger: EnrollmentLogger;
  /** Reads the Beneficiary as the API presents it (injected from the beneficiaries module; the retry route needs it). */
  readonly readBeneficiary: (actor: Actor, id: string) => Promise<BeneficiaryBody>;
  /** For queueing enrollments (the import); the job handler and the API both have one. */
  readonly jobStore: Pick<JobStore, "enqueue">;
}

/** Durable enrollment of Beneficiaries created in bulk (the import): enrolled by the worker after commit. */
export const BENEFICIARY_ENROLL_JOB = defineJob({
  type: "beneficiary.enroll",
  version: 1,
  payload: Type.Object({
    businessId: Type.String(),
    environment: Type.Union([Type.Literal("sandbox"), Type.Literal("production")]),
    beneficiaryIds: Type.Array(Type.String()),
  }),
});

export type EnrollmentService = ReturnType<typeof createEnrollmentService>;

/** `queued`: an automatic attempt from the job, skipped when the Beneficiary was already enrolled or attempted. */
type Mode = "automatic" | "queued" | "retry";

interface StartedAttempt {
  /** The stored id (the path may spell it in capitals). */
  readonly beneficiaryId: string;
  readonly attemptId: string;
  readonly rail: PayoutRail;
  readonly beneficiary: RailBeneficiary;
  readonly destinations: readonly RailDestination[];
  /** What step 1 overwrote, to put back if the rail does not answer. */
  readonly previous: {
    readonly status: EnrollmentStatus | null;
    readonly detail: string | null;
    readonly bankAccountId: string | null;
    readonly railRejectionReasons: ReadonlyMap<string, string | null>;
  };
}

type RailAnswer =
  | { readonly outcome: "verified"; readonly verifiedIds: readonly string[] }
  | {
      readonly outcome: "rejected";
      readonly detail: string;
      readonly rejectedDestinationId: string | null;
      readonly verifiedIds: readonly string[];
    };

class Skip {
  constructor(readonly reason: string) {}
}

function railBeneficiary(row: BeneficiaryRow): RailBeneficiary {
  return {
    beneficiaryId: row.id,
    beneficiaryType: row.beneficiaryType,
    name: row.name,
    email: row.email,
    country: row.countryOfResidence ?? row.countryOfIncorporation ?? null,
  };
}

export function createEnrollmentService(deps: EnrollmentServiceDeps) {
  const { db, clock, ids, cipher, events, rails, logger } = deps;

  const railDestination = (row: EnrollmentDestinationRow): RailDestination => railDestinationOf(cipher, row);

  /** Step 1. Throws AppError for the retry route; returns a Skip for an automatic trigger that does not apply. */
  async function start(tenant: Tenant, beneficiaryId: string, mode: Mode): Promise<StartedAttempt | Skip> {
    return transaction(db, async (tx) => {
      const row = await lockBeneficiary(tx, tenant, beneficiaryId);
      if (row === null) throw new AppError("not_found", { message: "No such Beneficiary." });
      if (row.archivedAt !== null) {
        if (mode !== "retry") return new Skip("archived");
        throw new AppError(BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED);
      }
      if (row.complianceStatus !== "compliant" || row.reacknowledgmentRequired) {
        if (mode !== "retry") return new Skip("not compliant");
        throw new AppError(ENROLLMENT_ERRORS.ENROLLMENT_NOT_ALLOWED, {
          message: row.reacknowledgmentRequired
            ? "The Beneficiary must be re-acknowledged before it can be enrolled."
            : `The Beneficiary's compliance_status is ${row.complianceStatus}; enrollment needs compliant.`,
        });
      }
      const now = clock.now();
      const inFlight =
        row.enrollmentStatus === "pending" &&
        row.enrollmentAttemptStartedAt !== null &&
        now.getTime() - row.enrollmentAttemptStartedAt.getTime() < ENROLLMENT_STALE_AFTER_MS;
      // A retry does not race an attempt in flight; an automatic trigger supersedes it (its newer attempt
      // submits every destination the older one would have, and the older answer is dropped).
      if (inFlight && mode === "retry") throw new AppError(ENROLLMENT_ERRORS.ENROLLMENT_IN_PROGRESS);
      // A queued enrollment is done once any attempt finished or is still fresh (a re-run job changes nothing).
      if (mode === "queued" && row.enrollmentStatus !== null && (row.enrollmentStatus !== "pending" || inFlight)) {
        return new Skip("already enrolled");
      }

      // Automatic attempts submit destinations the rail has not judged yet; a retry also resubmits refused ones.
      const candidates = await listEnrollableDestinations(
        tx,
        tenant,
        row.id,
        mode === "retry" ? ["unverified", "rejected"] : ["unverified"],
      );
      const railRejectionReasons = new Map<string, string | null>();
      for (const destination of candidates) {
        if (destination.status !== "rejected") continue;
        // The refusal is being asked again: its reason is withdrawn while the retry is in flight.
        railRejectionReasons.set(destination.id, destination.railRejectionReason);
        await setRailRejectionReason(tx, tenant, row.id, destination.id, null, now);
      }
      const attemptId = ids.newId();
      await markEnrollmentPending(tx, tenant, row.id, attemptId, now);
      return {
        beneficiaryId: row.id,
        attemptId,
        rail: rails.forEnvironment(tenant.environment),
        beneficiary: railBeneficiary(row),
        destinations: candidates.map(railDestination),
        previous: {
          status: row.enrollmentStatus,
          detail: row.enrollmentFailureDetail,
          bankAccountId: row.enrollmentFailureBankAccountId,
          railRejectionReasons,
        },
      };
    });
  }

  /** Step 2: no transaction is open here. */
  async function callRail(tenant: Tenant, attempt: StartedAttempt): Promise<RailAnswer> {
    const verifiedIds: string[] = [];
    const targets: ReadonlyArray<RailDestination | null> = attempt.destinations.length > 0 ? attempt.destinations : [null];
    for (const destination of targets) {
      const result = await attempt.rail.enroll({
        environment: tenant.environment,
        beneficiary: attempt.beneficiary,
        destination,
      });
      if (result.outcome === "rejected") {
        return { outcome: "rejected", detail: result.detail, rejectedDestinationId: result.rejectedDestinationId, verifiedIds };
      }
      if (destination !== null) verifiedIds.push(destination.destinationId);
    }
    return { outcome: "verified", verifiedIds };
  }

  /** Step 3. Returns false when a newer attempt superseded this one (nothing written). */
  async function finish(tenant: Tenant, attempt: StartedAttempt, answer: RailAnswer): Promise<boolean> {
    const { beneficiaryId } = attempt;
    return transaction(db, async (tx) => {
      const now = clock.now();
      const rejectedId = answer.outcome === "rejected" ? answer.rejectedDestinationId : null;
      const applied = await finishEnrollment(
        tx,
        tenant,
        beneficiaryId,
        attempt.attemptId,
        answer.outcome === "verified"
          ? { status: "verified", detail: null, bankAccountId: null }
          : { status: "rejected", detail: answer.detail, bankAccountId: rejectedId },
        now,
      );
      if (!applied) return false;
      await markDestinationsVerified(tx, tenant, beneficiaryId, answer.verifiedIds, now);
      if (answer.outcome === "verified") return true;
      let namedAccountId: string | null = null;
      if (rejectedId !== null) {
        // Only a destination of this Beneficiary can be named; any other id is treated as naming none.
        if (await markDestinationRejected(tx, tenant, beneficiaryId, rejectedId, answer.detail, now)) {
          namedAccountId = rejectedId;
        } else {
          await clearEnrollmentFailureAccount(tx, tenant, beneficiaryId);
        }
      }
      await events.record(tx, {
        tenant,
        type: "beneficiary.enrollment_rejected",
        subjectId: beneficiaryId,
        data: { beneficiary_id: beneficiaryId, bank_account_id: namedAccountId, reason: answer.detail, status: "rejected" },
      });
      return true;
    });
  }

  /** The rail did not answer: put back what step 1 changed, unless a newer attempt took over. */
  async function abandon(tenant: Tenant, attempt: StartedAttempt): Promise<void> {
    const { beneficiaryId } = attempt;
    await transaction(db, async (tx) => {
      const now = clock.now();
      const { previous } = attempt;
      const applied = await finishEnrollment(
        tx,
        tenant,
        beneficiaryId,
        attempt.attemptId,
        { status: previous.status, detail: previous.detail, bankAccountId: previous.bankAccountId },
        now,
      );
      if (!applied) return;
      for (const [destinationId, reason] of previous.railRejectionReasons) {
        await setRailRejectionReason(tx, tenant, beneficiaryId, destinationId, reason, now);
      }
    });
  }

  async function attempt(tenant: Tenant, beneficiaryId: string, mode: Mode): Promise<void> {
    const started = await start(tenant, beneficiaryId, mode);
    if (started instanceof Skip) return;
    const id = started.beneficiaryId;
    let answer: RailAnswer;
    try {
      answer = await callRail(tenant, started);
    } catch (error) {
      logger.warn(
        { beneficiary_id: id, rail: started.rail.name, err: error instanceof Error ? error.message : String(error) },
        "enrollment: the rail did not answer",
      );
      await abandon(tenant, started);
      throw new AppError(ENROLLMENT_ERRORS.RAIL_UNAVAILABLE, { cause: error });
    }
    await finish(tenant, started, answer);
  }

  /**
   * An automatic trigger, called after the triggering transaction committed. It never fails the request that
   * triggered it (that change is already committed): a failure is logged and the retry route recovers.
   */
  async function enrollAfterCommit(tenant: Tenant, beneficiaryId: string): Promise<void> {
    try {
      await attempt(tenant, beneficiaryId, "automatic");
    } catch (error) {
      logger.error(
        { beneficiary_id: beneficiaryId, err: error instanceof Error ? error.message : String(error) },
        "enrollment after commit failed; POST /v1/beneficiaries/{id}/enrollment retries it",
      );
    }
  }

  /** POST /v1/beneficiaries/{id}/enrollment: a synchronous attempt; answers the Beneficiary after it. */
  async function retry(actor: Actor, beneficiaryId: string): Promise<BeneficiaryBody> {
    await attempt(tenantOf(actor), beneficiaryId, "retry");
    return deps.readBeneficiary(actor, beneficiaryId);
  }

  /** Queues the enrollment of Beneficiaries created in `tx` (one job for the batch). */
  async function enqueueEnrollment(tx: Tx, tenant: Tenant, beneficiaryIds: readonly string[]): Promise<void> {
    if (beneficiaryIds.length === 0) return;
    await deps.jobStore.enqueue(tx, BENEFICIARY_ENROLL_JOB, {
      businessId: tenant.businessId,
      environment: tenant.environment,
      beneficiaryIds: [...beneficiaryIds],
    });
  }

  /**
   * BENEFICIARY_ENROLL_JOB: enrolls each Beneficiary not yet enrolled. A rail failure fails the job after the
   * others were tried; the retry skips the ones already done.
   */
  const enrollJobHandler = jobHandler(BENEFICIARY_ENROLL_JOB, async (job) => {
    const tenant: Tenant = { businessId: job.businessId, environment: job.environment };
    let failures = 0;
    for (const beneficiaryId of job.beneficiaryIds) {
      try {
        await attempt(tenant, beneficiaryId, "queued");
      } catch (error) {
        if (error instanceof AppError && error.is("not_found")) continue;
        failures += 1;
      }
    }
    if (failures > 0) throw new Error(`enrollment failed for ${failures} of ${job.beneficiaryIds.length} Beneficiaries`);
  });

  return { enrollAfterCommit, retry, enqueueEnrollment, enrollJobHandler };
}
