// The payee name check of destinations (issue 29): a durable job verifies a destination's account holder name
// against its payee's legal name through the PayeeNameVerifier port (src/rails/payee-name) and records the
// answer on the destination. The job is queued in the transaction that writes what the check depends on (a
// destination added, its account details corrected, the payee's legal name changed), and runs after commit with
// no transaction open, so a Verification of Payee provider may answer over the network; a provider that cannot
// be reached fails the job, which the worker retries. The answer is written only if the holder name, the account
// and the legal name are still those that were checked: a change in between queued its own check.
import { Type } from "@sinclair/typebox";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { defineJob, jobHandler } from "../../platform/jobs/job-definition.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { PayeeNameVerifiers } from "../../rails/payee-name/payee-name-verifier.js";
import { findBeneficiary } from "../beneficiaries/beneficiaries.shared.js";
import { findDestinationOfTenant, listLiveDestinations, lockLiveDestination, recordNameCheck } from "./destinations.repo.js";

export const DESTINATION_NAME_CHECK_JOB = defineJob({
  type: "destination.name_check",
  version: 1,
  payload: Type.Object({
    businessId: Type.String(),
    environment: Type.Union([Type.Literal("sandbox"), Type.Literal("production")]),
    destinationIds: Type.Array(Type.String()),
  }),
});

/** Queue name checks in the caller's transaction (what they depend on is written there). */
export interface NameCheckRequests {
  /** Checks these destinations (added or corrected in `tx`). */
  readonly ofDestinations: (tx: Tx, tenant: Tenant, destinationIds: readonly string[]) => Promise<void>;
  /** Checks every live destination of the Beneficiary (its legal name changed in `tx`). */
  readonly ofBeneficiary: (tx: Tx, tenant: Tenant, beneficiaryId: string) => Promise<void>;
}

export function createNameCheckRequests(jobStore: Pick<JobStore, "enqueue">): NameCheckRequests {
  async function ofDestinations(tx: Tx, tenant: Tenant, destinationIds: readonly string[]): Promise<void> {
    if (destinationIds.length === 0) return;
    await jobStore.enqueue(tx, DESTINATION_NAME_CHECK_JOB, {
      businessId: tenant.businessId,
      environment: tenant.environment,
      destinationIds: [...destinationIds],
    });
  }
  async function ofBeneficiary(tx: Tx, tenant: Tenant, beneficiaryId: string): Promise<void> {
    const live = await listLiveDestinations(tx, tenant, beneficiaryId);
    await ofDestinations(
      tx,
      tenant,
      live.map((row) => row.id),
    );
  }
  return { ofDestinations, ofBeneficiary };
}

export interface NameCheckDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly cipher: Pick<FieldCipher, "decrypt">;
  readonly verifiers: PayeeNameVerifiers;
}

/** Checks one destination now (no transaction open) and records the answer; false when there was nothing to check. */
export async function checkDestinationName(deps: NameCheckDeps, tenant: Tenant, destinationId: string): Promise<boolean> {
  const destination = await findDestinationOfTenant(deps.db, tenant, destinationId);
  if (destination === null || destination.deletedAt !== null) return false;
  const payee = await findBeneficiary(deps.db, tenant, destination.beneficiaryId);
  if (payee === null) return false;
  const account = JSON.parse(deps.cipher.decrypt(destination.sensitiveEncrypted)) as Record<string, string>;
  const answer = await deps.verifiers(tenant.environment).verify({
    accountHolderName: destination.accountHolderName,
    payeeName: payee.row.name,
    payeeType: payee.row.beneficiaryType,
    country: destination.country,
    scheme: destination.scheme,
    last4: destination.last4,
    account: {
      ...account,
      ...(destination.routingCode === null ? {} : { routing_code: destination.routingCode }),
      ...(destination.swiftBic === null ? {} : { swift_bic: destination.swiftBic }),
    },
  });
  return transaction(deps.db, async (tx) => {
    const locked = await lockLiveDestination(tx, tenant, destination.beneficiaryId, destination.id);
    if (
      locked === null ||
      locked.accountHolderName !== destination.accountHolderName ||
      locked.fingerprint !== destination.fingerprint
    )
      return false;
    const current = await findBeneficiary(tx, tenant, destination.beneficiaryId);
    if (current === null || current.row.name !== payee.row.name) return false;
    await recordNameCheck(tx, tenant, destination.id, {
      nameCheckResult: answer.result,
      nameCheckBankName: answer.bankName,
      nameCheckSource: answer.source,
      nameCheckAt: deps.clock.now(),
    });
    return true;
  });
}

export function createNameCheckJobHandler(deps: NameCheckDeps) {
  return jobHandler(DESTINATION_NAME_CHECK_JOB, async (job) => {
    const tenant: Tenant = { businessId: job.businessId, environment: job.environment };
    // One after another: a provider's rate limits are per payer. A failure fails the job after the others
    // were tried; the retry checks them all again (cheap for the local comparator, and the answer may change).
    let failures = 0;
    let last: unknown = null;
    for (const id of job.destinationIds) {
      try {
        await checkDestinationName(deps, tenant, id);
      } catch (error) {
        failures += 1;
        last = error;
      }
    }
    if (failures > 0)
      throw new Error(
        `name check failed for ${failures} of ${job.destinationIds.length} destinations: ${last instanceof Error ? last.message : String(last)}`,
      );
  });
}
