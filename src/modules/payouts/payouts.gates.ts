// The creation gates, destination resolution and replacement checks, as pure functions of the rows read in
// the creating transaction. The single route and every bulk row go through them (payouts.creation.ts), so
// they refuse alike.

import { AppError } from "../../platform/errors.js";
import { BENEFICIARY_ERRORS } from "../beneficiaries/beneficiaries.errors.js";
import { DESTINATION_ERRORS, hasUsableDetails } from "../destinations/index.js";
import { PAYOUT_LIMIT_ERRORS } from "../payout-limits/payout-limits.errors.js";
import { SCREENING_ERRORS } from "../screening/screening.errors.js";
import { PAYOUT_ERRORS } from "./payouts.errors.js";
import type { DailyLimitRefusal } from "./payouts.lifecycle.js";
import type { GateBeneficiary, GateDestination, PayoutRow } from "./payouts.repo.js";

/** A sanctions hit waiting for review, or confirmed: no new payout, and approved ones are held (payouts.disbursement.ts). */
export function isScreeningBlocked(status: GateBeneficiary["screeningStatus"]): boolean {
  return status === "potential_match" || status === "confirmed_match";
}

export interface GateInput {
  readonly bankAccountId: string | null;
  readonly currency: string;
}

/** The destination policy's `name_check` (issue 29): `block` refuses a destination whose name check found no match. */
export type NameCheckMode = "off" | "warn" | "block";

/**
 * Order: the Beneficiary (exists, not archived, not suspended, no pending re-acknowledgment, compliant,
 * enrollment not rejected), then the destination (named; else declared; else the only payout-usable one),
 * then the currency, then the destination policy (bank details approved, cooling-off over at `now`). Returns
 * the destination or the error the request gets.
 */
export function resolveDestination(
  beneficiary: GateBeneficiary | null,
  liveDestinations: readonly GateDestination[],
  input: GateInput,
  now: Date,
  nameCheckMode: NameCheckMode = "warn",
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
    if (!hasUsableDetails(destination)) return fail(new AppError(DESTINATION_ERRORS.BANK_ACCOUNT_NOT_VALIDATED));
  } else {
    // Bank details waiting for approval still count here: the one account is named, then refused as not approved
    // (a second, unapproved account makes the choice ambiguous rather than silently paying the older one).
    const usable = liveDestinations.filter(
      (d) => d.beneficiaryId === beneficiary.id && hasUsableDetails(d) && d.approvalStatus !== "rejected",
    );
    if (usable.length === 0) return fail(new AppError(PAYOUT_ERRORS.NO_PAYOUT_DESTINATION));
    if (usable.length > 1) return fail(new AppError(PAYOUT_ERRORS.DESTINATION_AMBIGUOUS));
    destination = usable[0] as GateDestination;
  }
  // The resolved destination, however it was chosen: under `block` the bank holds it in another name.
  if (nameCheckMode === "block" && destination.nameCheckResult === "no_match")
    return fail(new AppError(DESTINATION_ERRORS.NAME_CHECK_NO_MATCH));
  if (destination.currency !== input.currency) {
    return fail(
      new AppError(PAYOUT_ERRORS.CURRENCY_MISMATCH, {
        message: `The destination receives ${destination.currency}; the payout is in ${input.currency}.`,
      }),
    );
  }
  if (destination.approvalStatus !== "approved") return fail(new AppError(DESTINATION_ERRORS.DESTINATION_NOT_APPROVED));
  if (destination.usableFrom !== null && destination.usableFrom.getTime() > now.getTime()) {
    const usableFrom = destination.usableFrom.toISOString();
    return fail(
      new AppError(DESTINATION_ERRORS.DESTINATION_COOLING_OFF, {
        message: `The destination is in its cooling-off period: payouts to it can be created from ${usableFrom}.`,
        details: [{ field: "usable_from", code: "cooling_off", message: usableFrom }],
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

/** The per-payout limit of the currency (payout-limits), after the destination resolved: 422 with the limit. */
export function checkPayoutLimit(maxMinor: number | undefined, amountMinor: number, currency: string): AppError | null {
  if (maxMinor === undefined || amountMinor <= maxMinor) return null;
  return new AppError(PAYOUT_LIMIT_ERRORS.PAYOUT_LIMIT_EXCEEDED, {
    message: `The amount (${amountMinor} minor units) is above the per-payout limit for ${currency} (${maxMinor} minor units).`,
    details: [
      {
        field: "amount_minor",
        code: "per_payout_limit",
        message: `At most ${maxMinor} minor units of ${currency} per payout.`,
        limit_minor: maxMinor,
      },
    ],
  });
}

/** An approval the daily limit refuses (409; the payout stays pending), with the limit and the day's usage. */
export function dailyLimitError(refusal: DailyLimitRefusal, currency: string): AppError {
  return new AppError(PAYOUT_LIMIT_ERRORS.DAILY_LIMIT_EXCEEDED, {
    message: `Approving it would take the approvals of ${refusal.day} past the daily limit for ${currency} (${refusal.dailyMaxMinor} minor units; ${refusal.usedMinor} taken). The payout stays pending.`,
    details: [
      {
        field: "amount_minor",
        code: "daily_limit",
        message: `At most ${refusal.dailyMaxMinor} minor units of ${currency} per day; ${refusal.usedMinor} taken on ${refusal.day}.`,
        limit_minor: refusal.dailyMaxMinor,
        used_minor: refusal.usedMinor,
      },
    ],
  });
}
