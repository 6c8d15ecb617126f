// What the bank-rails module asks of payouts, each inside the caller's transaction: the payouts waiting for
// a bank file (locked, with the details a file carries) and the record of their submission when the file is
// built. What the bank's status and return files report comes back as PAYOUT_RAIL_OUTCOME_JOBs, like any
// other rail's outcome.
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import type { Tx } from "../../platform/db/client.js";
import type { RailDestination } from "../../rails/rail.js";
import type { PostalAddressValue } from "../beneficiaries/index.js";
import { railDestinationOf } from "../destinations/index.js";
import type { Lifecycle } from "./payouts.lifecycle.js";
import { findBeneficiaryById, findDestinationById, findLatestAttempt, lockPayoutById, resolveAttempt } from "./payouts.repo.js";

export interface BankFilePayout {
  readonly payoutId: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly externalRef: string | null;
  readonly beneficiaryType: "person" | "business";
  readonly beneficiaryName: string;
  readonly postalAddress: PostalAddressValue | null;
  readonly destination: RailDestination;
  /** checking or savings (ACH transaction codes). */
  readonly accountType: string;
}

export function createPayoutBankFileHooks(deps: {
  readonly clock: Clock;
  readonly cipher: FieldCipher;
  readonly lifecycle: Lifecycle;
}) {
  const { clock, cipher, lifecycle } = deps;

  /**
   * Locks the payouts (in id order, so two callers cannot deadlock) and returns those still waiting for
   * their bank file: approved, their attempt recorded and not yet resolved. Others are left out.
   */
  async function lockWaiting(tx: Tx, payoutIds: readonly string[]): Promise<BankFilePayout[]> {
    const out: BankFilePayout[] = [];
    for (const id of [...payoutIds].sort()) {
      const payout = await lockPayoutById(tx, id);
      if (payout === null || payout.status !== "approved") continue;
      const attempt = await findLatestAttempt(tx, id);
      if (attempt === null || attempt.status !== "submitting") continue;
      const destination = await findDestinationById(tx, payout.destinationId);
      const beneficiary = await findBeneficiaryById(tx, payout.beneficiaryId);
      if (destination === null || beneficiary === null) continue;
      out.push({
        payoutId: id,
        amountMinor: payout.amountMinor,
        currency: payout.currency,
        externalRef: payout.externalRef,
        beneficiaryType: beneficiary.beneficiaryType,
        beneficiaryName: destination.accountHolderName,
        postalAddress: beneficiary.postalAddress ?? null,
        destination: railDestinationOf(cipher, destination),
        accountType: destination.accountType,
      });
    }
    return out;
  }

  /** The payout went out in a bank file: its attempt is submitted with `railRef`, `payout.disbursement_submitted`. */
  async function recordSubmission(tx: Tx, payoutId: string, railRef: string): Promise<boolean> {
    const payout = await lockPayoutById(tx, payoutId);
    const attempt = await findLatestAttempt(tx, payoutId);
    if (payout === null || attempt === null) return false;
    const resolved = await resolveAttempt(tx, attempt.id, {
      status: "submitted",
      railRef,
      failureReason: null,
      updatedAt: clock.now(),
    });
    if (!resolved) return false;
    const applied = await lifecycle.apply(
      tx,
      payout,
      { type: "submitted" },
      { extraPatch: { railRef, disbursementStatus: "submitted" } },
    );
    return applied.kind === "moved";
  }

  /** The payout cannot go into a bank file (an address a SEPA file cannot carry, …): it fails, nothing was sent. */
  async function failBeforeSubmission(tx: Tx, payoutId: string, reason: string): Promise<boolean> {
    const payout = await lockPayoutById(tx, payoutId);
    const attempt = await findLatestAttempt(tx, payoutId);
    if (payout === null || attempt === null) return false;
    await resolveAttempt(tx, attempt.id, { status: "refused", railRef: null, failureReason: reason, updatedAt: clock.now() });
    const applied = await lifecycle.apply(
      tx,
      payout,
      { type: "failed", reason },
      { extraPatch: { disbursementStatus: "refused" } },
    );
    return applied.kind === "moved";
  }

  return { lockWaiting, recordSubmission, failBeforeSubmission };
}

export type PayoutBankFileHooks = ReturnType<typeof createPayoutBankFileHooks>;
