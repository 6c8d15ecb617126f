// Queries of enrollment: the enrollment columns of beneficiaries and the rail-verification columns of
// destinations (status, rail_rejection_reason). Everything is scoped by tenant and Beneficiary.
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { beneficiaries, destinations } from "../../platform/db/schema.js";

export type EnrollmentDestinationRow = typeof destinations.$inferSelect;
export type EnrollmentStatus = "pending" | "verified" | "rejected" | "suspended" | "closed";

const ofBeneficiary = (tenant: Tenant, beneficiaryId: string) =>
  and(
    eq(destinations.businessId, tenant.businessId),
    eq(destinations.environment, tenant.environment),
    eq(destinations.beneficiaryId, beneficiaryId),
  );

/** Live destinations of the Beneficiary whose verification status is one of `statuses`, oldest first. */
export async function listEnrollableDestinations(
  db: Db,
  tenant: Tenant,
  beneficiaryId: string,
  statuses: ReadonlyArray<"unverified" | "rejected">,
): Promise<EnrollmentDestinationRow[]> {
  return db
    .select()
    .from(destinations)
    .where(and(ofBeneficiary(tenant, beneficiaryId), isNull(destinations.deletedAt), inArray(destinations.status, [...statuses])))
    .orderBy(destinations.id);
}

export async function setRailRejectionReason(
  db: Db,
  tenant: Tenant,
  beneficiaryId: string,
  destinationId: string,
  reason: string | null,
  at: Date,
): Promise<void> {
  await db
    .update(destinations)
    .set({ railRejectionReason: reason, updatedAt: at })
    .where(and(ofBeneficiary(tenant, beneficiaryId), eq(destinations.id, destinationId)));
}

/** The rail verified these destinations (deleted ones are left alone). */
export async function markDestinationsVerified(
  db: Db,
  tenant: Tenant,
  beneficiaryId: string,
  destinationIds: readonly string[],
  at: Date,
): Promise<void> {
  if (destinationIds.length === 0) return;
  await db
    .update(destinations)
    .set({ status: "verified", railRejectionReason: null, updatedAt: at })
    .where(
      and(ofBeneficiary(tenant, beneficiaryId), inArray(destinations.id, [...destinationIds]), isNull(destinations.deletedAt)),
    );
}

/** The rail refused this destination; returns false when it is not a destination of the Beneficiary. */
export async function markDestinationRejected(
  db: Db,
  tenant: Tenant,
  beneficiaryId: string,
  destinationId: string,
  reason: string,
  at: Date,
): Promise<boolean> {
  const updated = await db
    .update(destinations)
    .set({ status: "rejected", railRejectionReason: reason, updatedAt: at })
    .where(and(ofBeneficiary(tenant, beneficiaryId), eq(destinations.id, destinationId)))
    .returning({ id: destinations.id });
  return updated.length > 0;
}

/** Starts an attempt: `pending`, no failure fields (spec: null while a retry is in flight), this attempt current. */
export async function markEnrollmentPending(
  db: Db,
  tenant: Tenant,
  beneficiaryId: string,
  attemptId: string,
  at: Date,
): Promise<void> {
  await db
    .update(beneficiaries)
    .set({
      enrollmentStatus: "pending",
      enrollmentFailureDetail: null,
      enrollmentFailureBankAccountId: null,
      enrollmentAttemptId: attemptId,
      enrollmentAttemptStartedAt: at,
      updatedAt: at,
    })
    .where(
      and(
        eq(beneficiaries.id, beneficiaryId),
        eq(beneficiaries.businessId, tenant.businessId),
        eq(beneficiaries.environment, tenant.environment),
      ),
    );
}

/**
 * Writes an attempt's result, only while it is still the current attempt and pending (conditional update):
 * a newer attempt that started meanwhile wins, and the older result is dropped. Returns whether it applied.
 */
export async function finishEnrollment(
  db: Db,
  tenant: Tenant,
  beneficiaryId: string,
  attemptId: string,
  result: { status: EnrollmentStatus | null; detail: string | null; bankAccountId: string | null },
  at: Date,
): Promise<boolean> {
  const updated = await db
    .update(beneficiaries)
    .set({
      enrollmentStatus: result.status,
      enrollmentFailureDetail: result.detail,
      enrollmentFailureBankAccountId: result.bankAccountId,
      enrollmentAttemptId: null,
      enrollmentAttemptStartedAt: null,
      updatedAt: at,
    })
    .where(
      and(
        eq(beneficiaries.id, beneficiaryId),
        eq(beneficiaries.businessId, tenant.businessId),
        eq(beneficiaries.environment, tenant.environment),
        eq(beneficiaries.enrollmentAttemptId, attemptId),
        eq(beneficiaries.enrollmentStatus, "pending"),
      ),
    )
    .returning({ id: beneficiaries.id });
  return updated.length > 0;
}

/** The refusal named an id that is not a destination of this Beneficiary: it names none. */
export async function clearEnrollmentFailureAccount(db: Db, tenant: Tenant, beneficiaryId: string): Promise<void> {
  await db
    .update(beneficiaries)
    .set({ enrollmentFailureBankAccountId: null })
    .where(
      and(
        eq(beneficiaries.id, beneficiaryId),
        eq(beneficiaries.businessId, tenant.businessId),
        eq(beneficiaries.environment, tenant.environment),
      ),
    );
}
