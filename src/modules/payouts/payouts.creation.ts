// The one write path of payout creation. POST /v1/payouts gives it one request; the bulk route gives it each
// batch of rows. In the caller's transaction, for every request:
//   1. idempotency: claim the key (insert, or take over a claim older than the 24-hour window). A live claim
//      is a replay: the same fingerprint answers the payout as it is now, another one IDEMPOTENCY_KEY_REUSED;
//   2. the gates on the share-locked Beneficiary (docs/ARCHITECTURE.md, "State decisions under concurrency")
//      and its live destinations, read after the lock is held (payouts.gates.ts);
//   3. the bank-rail routing check (the bank-rails module's, a required port): a production payout no
//      rail of the Business can carry is refused (NO_RAIL_FOR_DESTINATION, or what SEPA needs of the payee);
//   4. the replacement checks when the request names the failed payout it replaces (payouts.gates.ts); at
//      most one live replacement per failed payout, in the request set and, against concurrent creations,
//      by the partial unique index `payouts_live_replacement_key` (see creationErrorOf);
//   5. the insert, recording the maker (key, membership, user);
//   6. the approval policy: a matching rule records its automated Decision, moves the payout with its event
//      and, on approve, enqueues the disbursement job;
//   7. the audit log: one entry per call for what it created (`payout_created` for a single request,
//      `payouts_created` naming the upload and its payouts for a bulk batch: one INSERT per batch, not per row).
// A request that fails a gate gets its error as its outcome and its claim is released, so it stores nothing
// and its key can be used again.
//
// The two callers differ only in the lock that keeps two copies of the same work apart, held to commit and
// never waited for: the idempotency key's for a single request (409 IDEMPOTENCY_KEY_IN_FLIGHT) and the
// upload's for a bulk batch (409 UPLOAD_IN_FLIGHT). The single request keeps its one-statement claim (key,
// Beneficiary share lock and policy in one round trip, measured in docs/decisions.md); a batch claims its
// keys and locks its Beneficiaries in one multi-row statement each.

import { createHash } from "node:crypto";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import { type Tx, transaction } from "../../platform/db/client.js";
import { isUniqueViolation } from "../../platform/db/errors.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import { currencyExponent } from "../../platform/reference/iso-codes.js";
import { PAYOUT_ERRORS } from "./payouts.errors.js";
import { checkPayoutLimit, checkReplacement, type NameCheckMode, resolveDestination } from "./payouts.gates.js";
import { type ApplyOutcome, DailyLimitExceeded, type Lifecycle, type PayoutLimitRules } from "./payouts.lifecycle.js";
import { evaluatePolicy } from "./payouts.policy.js";
import {
  claimKeyAndReadGates,
  claimKeys,
  findKeys,
  findLiveReplacementsOf,
  findPayoutsByIds,
  findPolicy,
  type GateBeneficiary,
  type GateDestination,
  insertDecision,
  insertPayout,
  insertPayouts,
  listLiveDestinationsOf,
  lockBeneficiariesShared,
  type NewPayoutRow,
  type PayoutRow,
  type PolicyRow,
  releaseKeys,
  tryLockUpload,
} from "./payouts.repo.js";
import type { PolicyRule } from "./payouts.schemas.js";

export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

/** Who creates a payout: the key and the person (membership and user) behind it. */
export type Maker = Pick<Actor, "apiKeyId" | "membershipId" | "userId">;

/** A validated creation request, in the form both the single route and a bulk row give it. */
export interface PayoutRequest {
  /** Lower case, as stored. */
  readonly beneficiaryId: string;
  readonly bankAccountId: string | null;
  readonly amountMinor: number;
  readonly currency: string;
  readonly externalRef: string | null;
  /** Lower case, as stored. */
  readonly replacesPayoutId: string | null;
  readonly idempotencyKey: string;
  readonly channel: "api" | "csv";
  readonly uploadId: string | null;
}

/** The creation fields of the single route's body and of a bulk row alike. */
export interface CreationFields {
  readonly beneficiary_id: string;
  readonly bank_account_id?: string | undefined;
  readonly amount_minor: number;
  readonly currency: string;
  readonly external_ref?: string | undefined;
  readonly replaces_payout_id?: string | undefined;
}

/** The request a body or a row makes, once its shape is valid (ids are lower-cased: UUIDs may come in capitals). */
export function payoutRequestOf(
  fields: CreationFields,
  source: { readonly idempotencyKey: string; readonly channel: "api" | "csv"; readonly uploadId: string | null },
): PayoutRequest {
  return {
    beneficiaryId: fields.beneficiary_id.toLowerCase(),
    bankAccountId: fields.bank_account_id ?? null,
    amountMinor: fields.amount_minor,
    currency: fields.currency,
    externalRef: fields.external_ref ?? null,
    replacesPayoutId: fields.replaces_payout_id?.toLowerCase() ?? null,
    idempotencyKey: source.idempotencyKey,
    channel: source.channel,
    uploadId: source.uploadId,
  };
}

/** SHA-256 of the request's canonical form (ids lower-cased): what "the same request" means for a key. */
export function requestFingerprint(request: PayoutRequest): string {
  const canonical = JSON.stringify([
    request.beneficiaryId.toLowerCase(),
    request.bankAccountId?.toLowerCase() ?? null,
    request.amountMinor,
    request.currency,
    request.externalRef,
    request.replacesPayoutId?.toLowerCase() ?? null,
    request.channel,
    request.uploadId,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

/** A currency that is not ISO 4217 is a validation failure of the field, like a bad shape. */
export function currencyError(currency: string, field = "currency"): AppError | null {
  if (currencyExponent(currency) !== null) return null;
  return new AppError("validation_failed", {
    details: [{ field, code: "invalid_enum", message: `${currency} is not an ISO 4217 currency code.` }],
  });
}

/**
 * The error a creation gets when the database refused its transaction for a reason of the request: a second
 * live replacement of one failed payout, created concurrently (the unique index decides). Null otherwise.
 */
export function creationErrorOf(error: unknown): AppError | null {
  return isUniqueViolation(error, "payouts_live_replacement_key") ? new AppError(PAYOUT_ERRORS.PAYOUT_ALREADY_REPLACED) : null;
}

export { enqueueDisbursement } from "./payouts.jobs.js";

/** What keeps two copies of the same work apart (a try-lock held to commit). */
export type CreationLock = { readonly kind: "idempotency_key" } | { readonly kind: "upload"; readonly uploadId: string };

export type CreationOutcome =
  | { readonly kind: "created" | "replayed"; readonly payout: PayoutRow }
  | { readonly kind: "failed"; readonly error: AppError };

/**
 * The bank-rails routing check, run in the creating transaction for every request of a creation at once: per
 * request, in order, the refusal, or null when a rail takes it.
 */
export type RailRouteCheck = (
  tx: Tx,
  tenant: Tenant,
  requests: ReadonlyArray<{
    readonly destinationId: string;
    readonly currency: string;
    /** What the rail's file must carry of the payout itself (amount field, reference length). */
    readonly amountMinor: number;
    readonly externalRef: string | null;
  }>,
) => Promise<ReadonlyArray<AppError | null>>;

export interface PayoutWriterDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly lifecycle: Lifecycle;
  /** From the bank-rails module (a port, src/composition.ts): refuses a production payout no configured rail can carry. */
  readonly checkRailRoutes: RailRouteCheck;
  /** From the payout-limits module (a port): the per-payout maxima of the currencies of a creation, one query. */
  readonly perPayoutMaxima: PayoutLimitRules["perPayoutMaxima"];
  /** The destination policy's `name_check` mode of the tenant (destinations module), read in the creating transaction. */
  readonly nameCheckMode: (tx: Tx, tenant: Tenant) => Promise<NameCheckMode>;
  /** The audit log (people module, a port passed in src/composition.ts): every creation is recorded with its maker. */
  readonly recordAudit: RecordActorAudit;
}

export type PayoutWriter = ReturnType<typeof createPayoutWriter>;

interface Claimed {
  /** The keys this transaction claimed; the others are live already (replays). */
  readonly keys: ReadonlySet<string>;
  /** The claimed requests' Beneficiaries that exist, share-locked, by id. */
  readonly beneficiaries: ReadonlyMap<string, GateBeneficiary>;
  readonly policy: PolicyRow | null;
}

export function createPayoutWriter(deps: PayoutWriterDeps) {
  const { clock, ids, lifecycle, checkRailRoutes, perPayoutMaxima, recordAudit } = deps;

  /**
   * The audit entry of what one call created: the payout itself for a single request; for a bulk batch one
   * entry naming the upload, its payout ids and totals per currency (one INSERT, whatever the batch size;
   * each payout also names its maker in `created_by`). Nothing for replays: they create nothing.
   */
  async function auditCreation(tx: Tx, actor: Actor, lock: CreationLock, created: readonly PayoutRow[]): Promise<void> {
    const [first] = created;
    if (first === undefined) return;
    if (lock.kind === "idempotency_key") {
      await recordAudit(tx, actor, {
        action: "payout_created",
        subjectType: "payout",
        subjectId: first.id,
        details: {
          amount_minor: first.amountMinor,
          currency: first.currency,
          beneficiary_id: first.beneficiaryId,
          bank_account_id: first.destinationId,
          destination_last4: first.destinationLast4,
          channel: first.channel,
        },
      });
      return;
    }
    const totals = new Map<string, bigint>();
    for (const row of created) totals.set(row.currency, (totals.get(row.currency) ?? 0n) + BigInt(row.amountMinor));
    await recordAudit(tx, actor, {
      action: "payouts_created",
      subjectType: "upload",
      subjectId: lock.uploadId,
      details: {
        count: created.length,
        payout_ids: created.map((row) => row.id),
        // A sum beyond 2^53 is kept exact as a string.
        amount_minor_by_currency: Object.fromEntries(
          [...totals].map(([currency, sum]) => [currency, sum <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(sum) : sum.toString()]),
        ),
      },
    });
  }

  /**
   * Takes the lock (or throws its 409), claims the keys, share-locks the Beneficiaries of the claimed
   * requests and reads the policy.
   */
  async function claim(
    tx: Tx,
    tenant: Tenant,
    lock: CreationLock,
    requests: readonly PayoutRequest[],
    payoutIds: readonly string[],
    fingerprints: readonly string[],
    now: Date,
  ): Promise<Claimed> {
    const windowStart = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
    if (lock.kind === "idempotency_key") {
      const [request] = requests;
      if (request === undefined || requests.length !== 1) throw new Error("an idempotency-key lock covers one request");
      // One round trip: the key's try-lock and claim, the Beneficiary share-locked, the policy.
      const read = await claimKeyAndReadGates(tx, {
        tenant,
        key: request.idempotencyKey,
        payoutId: payoutIds[0] as string,
        fingerprint: fingerprints[0] as string,
        now,
        windowStart,
        beneficiaryId: request.beneficiaryId,
      });
      if (!read.locked) throw new AppError(PAYOUT_ERRORS.IDEMPOTENCY_KEY_IN_FLIGHT);
      return {
        keys: new Set(read.claimed ? [request.idempotencyKey] : []),
        beneficiaries: new Map(read.beneficiary === null ? [] : [[read.beneficiary.id, read.beneficiary]]),
        policy: read.policy,
      };
    }
    if (!(await tryLockUpload(tx, tenant, lock.uploadId))) throw new AppError(PAYOUT_ERRORS.UPLOAD_IN_FLIGHT);
    const keys = await claimKeys(
      tx,
      tenant,
      requests.map((request, i) => ({
        key: request.idempotencyKey,
        payoutId: payoutIds[i] as string,
        fingerprint: fingerprints[i] as string,
      })),
      now,
      windowStart,
    );
    const beneficiaryIds = [...new Set(requests.filter((r) => keys.has(r.idempotencyKey)).map((r) => r.beneficiaryId))];
    const beneficiaries = await lockBeneficiariesShared(tx, tenant, beneficiaryIds);
    return {
      keys,
      beneficiaries: new Map(beneficiaries.map((b) => [b.id, b])),
      policy: keys.size > 0 ? await findPolicy(tx, tenant) : null,
    };
  }

  /** The payout row a request makes, once its gates passed. */
  function newPayoutRow(
    tenant: Tenant,
    id: string,
    request: PayoutRequest,
    destination: GateDestination,
    maker: Maker,
    now: Date,
  ): NewPayoutRow {
    return {
      id,
      businessId: tenant.businessId,
      environment: tenant.environment,
      beneficiaryId: destination.beneficiaryId,
      destinationId: destination.id,
      destinationLast4: destination.last4,
      amountMinor: request.amountMinor,
      currency: request.currency,
      externalRef: request.externalRef,
      idempotencyKey: request.idempotencyKey,
      channel: request.channel,
      uploadId: request.uploadId,
      replacesPayoutId: request.replacesPayoutId,
      status: "pending_approval",
      createdByApiKeyId: maker.apiKeyId,
      createdByMembershipId: maker.membershipId,
      createdByUserId: maker.userId,
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * The approval policy decides at creation when a rule matches: an automated Decision naming the rule,
   * and the same move a person's Decision makes (approve enqueues the disbursement).
   */
  async function applyPolicy(
    tx: Tx,
    payout: PayoutRow,
    beneficiary: GateBeneficiary,
    destination: GateDestination,
    policy: PolicyRow | null,
  ): Promise<PayoutRow> {
    const rules = (policy?.rules as PolicyRule[] | undefined) ?? [];
    if (rules.length === 0) return payout;
    const now = clock.now();
    const rule = evaluatePolicy(rules, {
      amountMinor: payout.amountMinor,
      currency: payout.currency,
      channel: payout.channel as "api" | "csv",
      beneficiaryCreatedAt: beneficiary.createdAt,
      // The later of when the bank details were set and when the destination became usable (approval plus
      // cooling-off, restarted when it became the declared destination).
      destinationSince: destinationSince(destination),
      now,
    });
    if (rule === null) return payout;
    const matched = rule;
    const reason = `Approval policy rule "${matched.name}"`;
    // The Decision is written with the move, before its posting on the funding account (see lifecycle.apply); in a
    // savepoint, because a daily limit refusing the approval throws after those writes and only they roll back.
    let moved: ApplyOutcome;
    try {
      moved = await transaction(tx, (savepoint) => applyPolicyDecision(savepoint));
    } catch (error) {
      // The day's limit is reached: the policy does not approve it; it waits for a person (who meets the same limit).
      if (error instanceof DailyLimitExceeded) return payout;
      throw error;
    }
    if (moved.kind !== "moved") throw new Error(`policy decision on a new payout did not apply: ${moved.kind}`);
    // An approval's disbursement is enqueued by the lifecycle (not for a payout waiting for funds).
    return moved.payout;

    async function applyPolicyDecision(tx: Tx): Promise<ApplyOutcome> {
      return lifecycle.apply(
        tx,
        payout,
        { type: matched.outcome },
        {
          extraData: { reason },
          beforeMoney: async () => {
            await insertDecision(tx, {
              id: ids.newId(),
              businessId: payout.businessId,
              environment: payout.environment,
              payoutId: payout.id,
              outcome: matched.outcome,
              reason,
              validatorType: "automated",
              validatorName: "approval_policy",
              policyRule: matched.name,
              createdAt: now,
            });
          },
        },
      );
    }
  }

  /**
   * The answers to requests whose key is live already: the payout as it is now for the same request,
   * IDEMPOTENCY_KEY_REUSED for another one.
   */
  async function replay(
    tx: Tx,
    tenant: Tenant,
    replays: ReadonlyArray<{ readonly request: PayoutRequest; readonly fingerprint: string }>,
  ): Promise<CreationOutcome[]> {
    if (replays.length === 0) return [];
    const keys = await findKeys(
      tx,
      tenant,
      replays.map((r) => r.request.idempotencyKey),
    );
    const payoutsById = await findPayoutsByIds(
      tx,
      tenant,
      [...keys.values()].map((k) => k.payoutId),
    );
    return replays.map(({ request, fingerprint }): CreationOutcome => {
      const key = keys.get(request.idempotencyKey);
      const payout = key === undefined ? undefined : payoutsById.get(key.payoutId);
      if (key === undefined || payout === undefined)
        return { kind: "failed", error: new AppError(PAYOUT_ERRORS.IDEMPOTENCY_KEY_IN_FLIGHT) };
      if (key.requestFingerprint !== fingerprint)
        return { kind: "failed", error: new AppError(PAYOUT_ERRORS.IDEMPOTENCY_KEY_REUSED) };
      return { kind: "replayed", payout };
    });
  }

  /**
   * Creates the payouts the requests ask for, in `tx`: one outcome per request, in the requests' order.
   * Throws only the lock's 409 (nothing done) and what the database refuses (the caller's transaction is
   * then lost: see creationErrorOf).
   */
  async function createPayouts(
    tx: Tx,
    tenant: Tenant,
    maker: Actor,
    lock: CreationLock,
    requests: readonly PayoutRequest[],
  ): Promise<CreationOutcome[]> {
    const now = clock.now();
    const payoutIds = requests.map(() => ids.newId());
    const fingerprints = requests.map(requestFingerprint);
    const claimed = await claim(tx, tenant, lock, requests, payoutIds, fingerprints, now);
    const outcomes = new Array<CreationOutcome | undefined>(requests.length);
    const fresh: number[] = [];
    const replays: number[] = [];
    for (const [i, request] of requests.entries()) (claimed.keys.has(request.idempotencyKey) ? fresh : replays).push(i);

    const replayed = await replay(
      tx,
      tenant,
      replays.map((i) => ({ request: requests[i] as PayoutRequest, fingerprint: fingerprints[i] as string })),
    );
    replays.forEach((i, n) => {
      outcomes[i] = replayed[n];
    });

    if (fresh.length > 0) {
      // Read after the share locks are held, so a deletion that committed meanwhile is seen.
      const live = await listLiveDestinationsOf(tx, tenant, [...claimed.beneficiaries.keys()]);
      const replacedIds = [...new Set(fresh.map((i) => (requests[i] as PayoutRequest).replacesPayoutId))].filter(
        (id): id is string => id !== null,
      );
      // A failed payout is terminal, so what is read of it cannot change before commit. A replacement that
      // commits meanwhile is caught by the unique index instead (creationErrorOf).
      const replaced = replacedIds.length === 0 ? new Map<string, PayoutRow>() : await findPayoutsByIds(tx, tenant, replacedIds);
      /** Failed payouts whose one live replacement exists already, or is made by an earlier request here. */
      const taken = await findLiveReplacementsOf(tx, tenant, replacedIds);
      /** The replacement checks, once the gates resolved the destination; a passing request takes the slot. */
      const replacementError = (request: PayoutRequest, beneficiaryId: string): AppError | null => {
        if (request.replacesPayoutId === null) return null;
        const refused = checkReplacement(replaced.get(request.replacesPayoutId) ?? null, beneficiaryId);
        if (refused !== null) return refused;
        if (taken.has(request.replacesPayoutId)) return new AppError(PAYOUT_ERRORS.PAYOUT_ALREADY_REPLACED);
        taken.add(request.replacesPayoutId);
        return null;
      };
      const rows: NewPayoutRow[] = [];
      const release: string[] = [];
      const refuse = (i: number, error: AppError) => {
        release.push((requests[i] as PayoutRequest).idempotencyKey);
        outcomes[i] = { kind: "failed", error };
      };
      const maxima = await perPayoutMaxima(
        tx,
        tenant,
        fresh.map((i) => (requests[i] as PayoutRequest).currency),
      );
      const nameCheckMode = await deps.nameCheckMode(tx, tenant);
      const gates = fresh.map((i) => {
        const request = requests[i] as PayoutRequest;
        const gate = resolveDestination(
          claimed.beneficiaries.get(request.beneficiaryId) ?? null,
          live,
          request,
          now,
          nameCheckMode,
        );
        if (!gate.ok) return gate;
        const overLimit = checkPayoutLimit(maxima.get(request.currency), request.amountMinor, request.currency);
        return overLimit === null ? gate : { ok: false as const, error: overLimit };
      });
      // The rail check of every request that passed its gate, in one call (a fixed number of queries).
      const routable = fresh.flatMap((i, k) => {
        const gate = gates[k];
        const request = requests[i] as PayoutRequest;
        return gate?.ok
          ? [
              {
                i,
                destinationId: gate.destination.id,
                currency: request.currency,
                amountMinor: request.amountMinor,
                externalRef: request.externalRef,
              },
            ]
          : [];
      });
      const routeRefusals = new Map<number, AppError>();
      if (routable.length > 0) {
        const refusals = await checkRailRoutes(tx, tenant, routable);
        routable.forEach(({ i }, k) => {
          const refusal = refusals[k];
          if (refusal) routeRefusals.set(i, refusal);
        });
      }
      fresh.forEach((i, k) => {
        const request = requests[i] as PayoutRequest;
        const gate = gates[k] as ReturnType<typeof resolveDestination>;
        if (!gate.ok) {
          refuse(i, gate.error);
          return;
        }
        // Before the replacement checks, so a refused request does not take a failed payout's one replacement.
        const unroutable = routeRefusals.get(i) ?? null;
        if (unroutable !== null) {
          refuse(i, unroutable);
          return;
        }
        const refused = replacementError(request, gate.destination.beneficiaryId);
        if (refused !== null) {
          refuse(i, refused);
          return;
        }
        rows.push(newPayoutRow(tenant, payoutIds[i] as string, request, gate.destination, maker, now));
      });
      await releaseKeys(tx, tenant, release);
      const inserted = rows.length === 1 ? [await insertPayout(tx, rows[0] as NewPayoutRow)] : await insertPayouts(tx, rows);
      const indexOf = new Map(fresh.map((i) => [payoutIds[i] as string, i]));
      const destinationOf = new Map(live.map((d) => [d.id, d]));
      for (const row of inserted) {
        const beneficiary = claimed.beneficiaries.get(row.beneficiaryId) as GateBeneficiary;
        const destination = destinationOf.get(row.destinationId) as GateDestination;
        outcomes[indexOf.get(row.id) as number] = {
          kind: "created",
          payout: await applyPolicy(tx, row, beneficiary, destination, claimed.policy),
        };
      }
      await auditCreation(tx, maker, lock, inserted);
    }
    return outcomes.map((outcome) => {
      if (outcome === undefined) throw new Error("a creation request got no outcome");
      return outcome;
    });
  }

  return { createPayouts };
}

/** Since when a destination is what it is: its details set (or changed), or its cooling-off restarted, whichever is later. */
function destinationSince(destination: GateDestination): Date {
  const set = destination.detailsChangedAt ?? destination.createdAt;
  const usable = destination.usableFrom;
  return usable !== null && usable.getTime() > set.getTime() ? usable : set;
}
