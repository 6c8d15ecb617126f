// The creation gates, destination resolution and replacement checks, as pure functions of the rows read in
// the creating transaction. The single route and every bulk row go through them (payouts.creation.ts), so
// they refuse alike.

import { AppError } from "../../platform/errors.js";
import { BENEFICIARY_ERRORS } from "../beneficiaries/beneficiaries.errors.js";
import { DESTINATION_ERRORS, isPayoutUsable } from "../destinations/index.js";
import { SCREENING_ERRORS } from "../screening/screening.errors.js";
import { PAYOUT_ERRORS } from "./payouts.errors.js";
import type { GateBeneficiary, GateDestination, PayoutRow } from "./payouts.repo.js";

/** A sanctions hit waiting for review, or confirmed: no new payout, and approved ones are held (payouts.disbursement.ts). */
export function isScreeningBlocked(status: GateBeneficiary["screeningStatus"]): boolean {
  return status === "potential_match" || status === "confirmed_match";
}

export interface GateInput {
  readonly bankAccountId: string | null;
  readonly currency: string;
}

/**
 * Order: the Beneficiary (exists, not archived, not suspended, no pending re-acknowledgment, compliant,
 * enrollment not rejected), then the destination (named; else declared; else the only payout-usable one),
 * then the currency. Returns the destination or the error the request gets.
 */
export function resolveDestination(
  beneficiary: GateBeneficiary | null,
  liveDestinations: readonly GateDestination[],
  input: GateInput,
): { ok: true; destination: GateDestination } | { ok: false; error: AppError } {
  const fail = (error: AppError) => ({ ok: false as const, error });
  if (beneficiary === null) return fail(new AppError("not_found", { message: "No such Beneficiary." }));
  if (beneficiary.archivedAt !== null) return fail(new AppError(BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED));
  if (beneficiary.complianceStatus === "suspended") return fail(new AppError(BENEFICIARY_ERRORS.BENEFICIARY_SUSPENDED));
  if (beneficiary.reacknowledgmentRequired) return fail(new AppError(PAYOUT_ERRORS.REACKNOWLEDGMENT_REQUIRED));
  if (beneficiary.complianceStatus !== "compliant") return fail(new AppError(PAYOUT_ERRORS.BENEFICIARY_NOT_COMPLIANT));
  if (beneficiary.enrollmentStatus === "rejected") return fail(new AppError(PAYOUT_ERRORS.BENEFICIARY_ENROLLMENT_REJECTED));
  if (isScreeningBlocked(beneficiary.screeningStatus)) return fail(new AppError(SCREENING_ERRORS.SANCTIONS_REVIEW_REQUIRED));

  let destination: GateDestination | undefined;
  // Stored ids are lower case; a request may spell a UUID in capitals.
  const named = input.bankAccountId?.toLowerCase() ?? beneficiary.declaredDestinationId;
  if (named !== null) {
    // The named or declared destination, never another in its place.
    destination = liveDestinations.find((d) => d.id === named && d.beneficiaryId === beneficiary.id);
    if (destination === undefined) return fail(new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_NOT_FOUND));
    if (destination.status === "rejected") return fail(new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_REJECTED));
    if (!isPayoutUsable(destination)) return fail(new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_NOT_VALIDATED));
  } else {
    const usable = liveDestinations.filter((d) => d.beneficiaryId === beneficiary.id && isPayoutUsable(d));
    if (usable.length === 0) return fail(new AppError(PAYOUT_ERRORS.NO_PAYOUT_DESTINATION));
    if (usable.length > 1) return fail(new AppError(PAYOUT_ERRORS.DESTINATION_AMBIGUOUS));
    destination = usable[0] as GateDestination;
  }
  if (destination.currency !== input.currency) {
    return fail(
      new AppError(PAYOUT_ERRORS.CURRENCY_MISMATCH, {
        message: `The destination receives ${destination.currency}; the payout is in ${input.currency}.`,
      }),
    );
  }
  return { ok: true, destination };
}

/**
 * A replacement names a payout of the same Business and environment (`replaced` is null otherwise), in
 * `failed`, paid to the same Beneficiary as the replacement. Returns the error the request gets, or null.
 */
export function checkReplacement(
  replaced: Pick<PayoutRow, "status" | "beneficiaryId"> | null,
  beneficiaryId: string,
): AppError | null {
  if (replaced === null) return new AppError(PAYOUT_ERRORS.REPLACED_PAYOUT_NOT_FOUND);
  if (replaced.status !== "failed") return new AppError(PAYOUT_ERRORS.REPLACED_PAYOUT_NOT_FAILED);
  if (replaced.beneficiaryId !== beneficiaryId) return new AppError(PAYOUT_ERRORS.REPLACEMENT_BENEFICIARY_MISMATCH);
  return null;
}
