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
import { isScreeningBlocked } from "./payouts.gates.js";
import type { Lifecycle } from "./payouts.lifecycle.js";
import {
  deleteUnsentAttempt,
  findBeneficiaryById,
  findDestinationById,
  findLatestAttempt,
  lockPayoutById,
  resolveAttempt,
  updatePayoutIf,
} from "./payouts.repo.js";

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
   * their bank file: approved, their attempt recorded and not yet resolved. Others are left out (the cut-off
   * takes them out of the queue).
   *
   * A payout whose Beneficiary became a sanctions `potential_match` or `confirmed_match` while it waited is held,
   * not written into the file: the bank has not heard of it, so it goes back to the state the disbursement job
   * leaves a payout it holds (approved, not dispatched, `disbursement_deferred_at` set; its unsent attempt
   * removed), and clearing the hit dispatches it again through the same release (`releaseScreeningHold`), which
   * queues it for the next cut-off. Until then the Business may cancel it, as any payout the rail never heard of.
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
      if (isScreeningBlocked(beneficiary.screeningStatus)) {
        await holdForScreening(tx, id, attempt.id);
        continue;
      }
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

  async function holdForScreening(tx: Tx, payoutId: string, attemptId: string): Promise<void> {
    if (!(await deleteUnsentAttempt(tx, attemptId))) throw new Error("a waiting payout's attempt left submitting while locked");
    const held = await updatePayoutIf(tx, payoutId, "approved", {
      disbursementStartedAt: null,
      rail: null,
      disbursementStatus: null,
      disbursementDeferredAt: clock.now(),
      updatedAt: clock.now(),
    });
    if (held === null) throw new Error("payout left approved while locked");
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
