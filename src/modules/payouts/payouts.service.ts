// Use cases of payouts: create (idempotent), read, list, decide (approve / reject), cancel, and the
// approval policy. Each owns its transaction; events and jobs are written in that same transaction.
//
// Idempotency (POST /v1/payouts), in the creating transaction:
//   1. one statement tries the key's advisory lock and claims the key (insert, or take over a claim older
//      than 24 hours). The lock is held to commit: a second request with the key meanwhile gets 409
//      IDEMPOTENCY_KEY_IN_FLIGHT instead of waiting; once the first committed, it replays.
//   2. a live claim is a replay: same request fingerprint -> the payout with 200 and Idempotent-Replayed;
//      another fingerprint -> 422 IDEMPOTENCY_KEY_REUSED.
//   3. a fresh claim runs the gates and inserts the payout. Any failure (a gate's 4xx, or ours) rolls the
//      whole transaction back, claim included: nothing is stored, and the same key may be used again.
import { createHash } from "node:crypto";
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/client.js";
import { isUniqueViolation } from "../../platform/db/errors.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import { DEFAULT_PAGE_SIZE, decodeCursor } from "../../platform/pagination/cursor.js";
import { currencyExponent } from "../../platform/reference/iso-codes.js";
import { PAYOUT_DISBURSE_JOB } from "../../rails/rail.js";
import { resolveDestination } from "./payouts.gates.js";
import { type Lifecycle, majorAmount } from "./payouts.lifecycle.js";
import { evaluatePolicy } from "./payouts.policy.js";
import {
  claimKeyAndReadGates,
  type DecisionRow,
  findKey,
  findPayout,
  findPolicy,
  type GateBeneficiary,
  type GateDestination,
  hasPendingPayoutTo,
  insertDecision,
  insertPayout,
  listDecisions,
  listLiveDestinationsOf,
  listPayoutsNewestFirst,
  listPayoutsUpdatedSince,
  lockPayout,
  type NewPayoutRow,
  type PayoutRow,
  type PolicyRow,
  upsertPolicy,
} from "./payouts.repo.js";
import type {
  ApprovalPolicyBody,
  CreatePayoutBody,
  DecisionBody,
  DecisionRequestBody,
  ListPayoutsQuery,
  PayoutBody,
  PolicyRule,
  PutApprovalPolicyBody,
} from "./payouts.schemas.js";

export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

export interface PayoutServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly jobStore: Pick<JobStore, "enqueue">;
  readonly lifecycle: Lifecycle;
  readonly checkRailRoute?: RailRouteCheck;
}

/** The bank-rails routing check, run in the creating transaction: the refusal, or null when a rail takes it. */
export type RailRouteCheck = (tx: Db, tenant: Tenant, destinationId: string, currency: string) => Promise<AppError | null>;

export type PayoutService = ReturnType<typeof createPayoutService>;

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export function presentPayout(row: PayoutRow): PayoutBody {
  return {
    payout_id: row.id,
    environment: row.environment,
    status: row.status,
    held_from_status: row.heldFromStatus,
    amount_minor: row.amountMinor,
    amount: majorAmount(row),
    currency: row.currency,
    beneficiary_id: row.beneficiaryId,
    bank_account_id: row.destinationId,
    destination_last4: row.destinationLast4,
    external_ref: row.externalRef,
    idempotency_key: row.idempotencyKey,
    channel: row.channel as PayoutBody["channel"],
    upload_id: row.uploadId,
    replaces_payout_id: row.replacesPayoutId,
    rail: row.rail,
    rail_ref: row.railRef,
    disbursement_status: row.disbursementStatus as PayoutBody["disbursement_status"],
    failure_reason: row.failureReason,
    estimated_arrival_at: iso(row.estimatedArrivalAt),
    disbursed_at: iso(row.disbursedAt),
    delivered_at: iso(row.deliveredAt),
    settled_at: iso(row.settledAt),
    returned_at: iso(row.returnedAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentDecision(row: DecisionRow): DecisionBody {
  return {
    id: row.id,
    payout_id: row.payoutId,
    outcome: row.outcome,
    reason: row.reason,
    validator: {
      type: row.validatorType,
      name: row.validatorName,
      api_key_id: row.apiKeyId,
      user_id: row.userId,
      membership_id: row.membershipId,
      policy_rule: row.policyRule,
    },
    created_at: row.createdAt.toISOString(),
  };
}

export function presentPolicy(environment: Tenant["environment"], row: PolicyRow | null): ApprovalPolicyBody {
  return {
    environment,
    rules: (row?.rules as PolicyRule[] | undefined) ?? [],
    maker_checker: row?.makerChecker ?? false,
    updated_at: iso(row?.updatedAt ?? null),
  };
}

/** What a creation request says, in the form both the single route and a bulk row give it. */
/** Who creates a payout: the key and the person (membership and user) behind it. */
export type Maker = Pick<Actor, "apiKeyId" | "membershipId" | "userId">;

/**
 * Validator names the service itself records: a caller may not record a Decision in their name.
 * Compared without case and surrounding space.
 */
export const RESERVED_VALIDATOR_NAMES: ReadonlySet<string> = new Set(["approval_policy"]);

/**
 * Maker-checker compares people, not keys: the approver is the maker when the same key, the same
 * membership or the same user created the payout (a second key minted by the same person is still the
 * same person).
 */
export function isSameMaker(
  payout: Pick<PayoutRow, "createdByApiKeyId" | "createdByMembershipId" | "createdByUserId">,
  actor: Maker,
): boolean {
  return (
    payout.createdByApiKeyId === actor.apiKeyId ||
    (payout.createdByMembershipId !== null && payout.createdByMembershipId === actor.membershipId) ||
    (payout.createdByUserId !== null && payout.createdByUserId === actor.userId)
  );
}

export interface PayoutRequest {
  readonly beneficiaryId: string;
  readonly bankAccountId: string | null;
  readonly amountMinor: number;
  readonly currency: string;
  readonly externalRef: string | null;
  readonly replacesPayoutId: string | null;
  readonly idempotencyKey: string;
  readonly channel: "api" | "csv";
  readonly uploadId: string | null;
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

export function createPayoutService(deps: PayoutServiceDeps) {
  const { db, clock, ids, jobStore, lifecycle } = deps;

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
      replacesPayoutId: request.replacesPayoutId?.toLowerCase() ?? null,
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
    tx: Db,
    payout: PayoutRow,
    beneficiary: GateBeneficiary,
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
      now,
    });
    if (rule === null) return payout;
    const reason = `Approval policy rule "${rule.name}"`;
    const moved = await lifecycle.apply(tx, payout, { type: rule.outcome }, { extraData: { reason } });
    if (moved.kind !== "moved") throw new Error(`policy decision on a new payout did not apply: ${moved.kind}`);
    await insertDecision(tx, {
      id: ids.newId(),
      businessId: payout.businessId,
      environment: payout.environment,
      payoutId: payout.id,
      outcome: rule.outcome,
      reason,
      validatorType: "automated",
      validatorName: "approval_policy",
      policyRule: rule.name,
      createdAt: now,
    });
    if (rule.outcome === "approve") await enqueueDisbursement(tx, payout.id);
    return moved.payout;
  }

  async function enqueueDisbursement(tx: Db, payoutId: string): Promise<void> {
    await jobStore.enqueue(tx, { type: PAYOUT_DISBURSE_JOB, payload: { payoutId }, dedupeKey: `payout-disburse:${payoutId}` });
  }

  /**
   * Gates + insert + policy for a claimed key, inside the creating transaction; the Beneficiary is already
   * share-locked (claimKeyAndReadGates), so its destinations are read now.
   */
  async function createClaimed(
    tx: Db,
    tenant: Tenant,
    payoutId: string,
    request: PayoutRequest,
    maker: Maker,
    beneficiary: GateBeneficiary | null,
    policy: PolicyRow | null,
  ) {
    const live = beneficiary === null ? [] : await listLiveDestinationsOf(tx, tenant, [beneficiary.id]);
    const gate = resolveDestination(beneficiary, live, request);
    if (!gate.ok) throw gate.error;
    const unroutable = (await deps.checkRailRoute?.(tx, tenant, gate.destination.id, request.currency)) ?? null;
    if (unroutable !== null) throw unroutable;
    if (request.replacesPayoutId !== null) {
      const replaced = await findPayout(tx, tenant, request.replacesPayoutId);
      if (replaced === null) throw new AppError("REPLACED_PAYOUT_NOT_FOUND");
      if (replaced.status !== "failed") throw new AppError("REPLACED_PAYOUT_NOT_FAILED");
      if (replaced.beneficiaryId !== gate.destination.beneficiaryId) throw new AppError("REPLACEMENT_BENEFICIARY_MISMATCH");
    }
    const now = clock.now();
    const inserted = await insertPayout(tx, newPayoutRow(tenant, payoutId, request, gate.destination, maker, now));
    return applyPolicy(tx, inserted, beneficiary as GateBeneficiary, policy);
  }

  async function create(
    actor: Actor,
    body: CreatePayoutBody,
    headerKey: string | undefined,
  ): Promise<{ payout: PayoutBody; replayed: boolean }> {
    const key = body.idempotency_key ?? headerKey;
    if (key === undefined) {
      throw new AppError("validation_failed", {
        details: [
          {
            field: "idempotency_key",
            code: "required",
            message: "An idempotency key is required (body `idempotency_key` or header `Idempotency-Key`).",
          },
        ],
      });
    }
    const badCurrency = currencyError(body.currency);
    if (badCurrency !== null) throw badCurrency;
    const request: PayoutRequest = {
      beneficiaryId: body.beneficiary_id,
      bankAccountId: body.bank_account_id ?? null,
      amountMinor: body.amount_minor,
      currency: body.currency,
      externalRef: body.external_ref ?? null,
      replacesPayoutId: body.replaces_payout_id ?? null,
      idempotencyKey: key,
      channel: "api",
      uploadId: null,
    };
    const tenant = tenantOf(actor);
    const fingerprint = requestFingerprint(request);
    try {
      return await db.transaction(async (tx) => {
        const now = clock.now();
        const payoutId = ids.newId();
        // One round trip: claim the key, share-lock the Beneficiary, read the policy.
        const claim = await claimKeyAndReadGates(tx, {
          tenant,
          key,
          payoutId,
          fingerprint,
          now,
          windowStart: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS),
          beneficiaryId: request.beneficiaryId,
        });
        if (!claim.locked) throw new AppError("IDEMPOTENCY_KEY_IN_FLIGHT");
        if (!claim.claimed) return { payout: presentPayout(await replay(tx, tenant, key, fingerprint)), replayed: true };
        const payout = await createClaimed(tx, tenant, payoutId, request, actor, claim.beneficiary, claim.policy);
        return { payout: presentPayout(payout), replayed: false };
      });
    } catch (error) {
      if (isUniqueViolation(error, "payouts_live_replacement_key")) throw new AppError("PAYOUT_ALREADY_REPLACED");
      throw error;
    }
  }

  async function replay(tx: Db, tenant: Tenant, key: string, fingerprint: string): Promise<PayoutRow> {
    const existing = await findKey(tx, tenant, key);
    if (existing === null) throw new Error("idempotency key vanished inside its transaction");
    if (existing.requestFingerprint !== fingerprint) throw new AppError("IDEMPOTENCY_KEY_REUSED");
    const payout = await findPayout(tx, tenant, existing.payoutId);
    if (payout === null) throw new Error("idempotency key names a missing payout");
    return payout;
  }

  async function get(actor: Actor, payoutId: string): Promise<PayoutBody> {
    const row = await findPayout(db, tenantOf(actor), payoutId);
    if (row === null) throw new AppError("not_found", { message: "No such payout." });
    return presentPayout(row);
  }

  async function list(actor: Actor, query: ListPayoutsQuery): Promise<{ payouts: PayoutBody[]; next_cursor: string | null }> {
    const tenant = tenantOf(actor);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const filters = {
      status: query.status,
      beneficiaryId: query.beneficiary_id?.toLowerCase(),
      uploadId: query.upload_id,
      externalRef: query.external_ref,
    };
    if (query.updatedSince === undefined) {
      const rows = await listPayoutsNewestFirst(db, tenant, filters, decodeCursor(query.cursor), limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        payouts: page.map(presentPayout),
        next_cursor: rows.length > limit && last !== undefined ? encodeChangeCursor({ id: last.id }) : null,
      };
    }
    const since = new Date(query.updatedSince);
    const after = decodeChangeCursor(query.cursor);
    const rows = await listPayoutsUpdatedSince(db, tenant, filters, since, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      payouts: page.map(presentPayout),
      next_cursor:
        rows.length > limit && last !== undefined
          ? encodeChangeCursor({ id: last.id, updatedAt: last.updatedAt.toISOString() })
          : null,
    };
  }

  /**
   * Records a Decision. The move is a conditional update from pending_approval; the loser of a race (or a
   * later call) finds the payout decided: the same outcome answers the existing Decision (idempotent, 200),
   * the other one 409 PAYOUT_ALREADY_DECIDED.
   */
  async function decide(
    actor: Actor,
    payoutId: string,
    body: DecisionRequestBody,
  ): Promise<{ decision: DecisionBody; payout: PayoutBody; created: boolean }> {
    const tenant = tenantOf(actor);
    if (body.validator?.type === "automated" && body.validator.name === undefined) {
      throw new AppError("validation_failed", {
        details: [{ field: "validator.name", code: "required", message: "An automated validator must be named." }],
      });
    }
    if (body.validator?.name !== undefined && RESERVED_VALIDATOR_NAMES.has(body.validator.name.trim().toLowerCase())) {
      throw new AppError("validation_failed", {
        details: [
          {
            field: "validator.name",
            code: "reserved",
            message: `"${body.validator.name.trim()}" is the service's own validator name; name your validator otherwise.`,
          },
        ],
      });
    }
    const outcome = await db.transaction(async (tx) => {
      // Locked: the decision and its write see the same payout (a cancel or another Decision waits).
      const payout = await lockPayout(tx, tenant, payoutId);
      if (payout === null) throw new AppError("not_found", { message: "No such payout." });
      if (payout.status !== "pending_approval") return { kind: "decided" as const };
      if (body.outcome === "approve" && isSameMaker(payout, actor)) {
        const policy = await findPolicy(tx, tenant);
        if (policy?.makerChecker === true) throw new AppError("MAKER_CHECKER_VIOLATION");
      }
      const reason = body.reason ?? null;
      const moved = await lifecycle.apply(tx, payout, { type: body.outcome }, { extraData: { reason } });
      if (moved.kind !== "moved") return { kind: "decided" as const };
      const decision = await insertDecision(tx, {
        id: ids.newId(),
        businessId: payout.businessId,
        environment: payout.environment,
        payoutId: payout.id,
        outcome: body.outcome,
        reason,
        validatorType: body.validator?.type ?? "human",
        validatorName: body.validator?.type === "automated" ? (body.validator.name ?? null) : null,
        apiKeyId: actor.apiKeyId,
        userId: actor.userId,
        membershipId: actor.membershipId,
        createdAt: clock.now(),
      });
      if (body.outcome === "approve") await enqueueDisbursement(tx, payout.id);
      return { kind: "created" as const, decision, payout: moved.payout };
    });
    if (outcome.kind === "created") {
      return { decision: presentDecision(outcome.decision), payout: presentPayout(outcome.payout), created: true };
    }
    // Decided already (now or by the winner of a race, committed by the time we read again).
    const payout = await findPayout(db, tenant, payoutId);
    if (payout === null) throw new AppError("not_found", { message: "No such payout." });
    const [existing] = await listDecisions(db, tenant, payoutId);
    if (existing !== undefined && existing.outcome === body.outcome) {
      return { decision: presentDecision(existing), payout: presentPayout(payout), created: false };
    }
    throw new AppError("PAYOUT_ALREADY_DECIDED", {
      message:
        existing === undefined
          ? `The payout is ${payout.status} and can no longer be decided.`
          : `The payout was already ${existing.outcome === "approve" ? "approved" : "rejected"}.`,
    });
  }

  async function decisions(actor: Actor, payoutId: string): Promise<{ decisions: DecisionBody[] }> {
    const tenant = tenantOf(actor);
    if ((await findPayout(db, tenant, payoutId)) === null) throw new AppError("not_found", { message: "No such payout." });
    return { decisions: (await listDecisions(db, tenant, payoutId)).map(presentDecision) };
  }

  /** Cancellation by the Business (production only), before the payout is sent to the rail. Idempotent. */
  /**
   * Cancels before the rail is called. Decided on the locked row: the disbursement job marks the start of
   * its rail call under the same lock, so either the cancel commits first (and the job then finds the payout
   * canceled and calls no rail) or the job does (and the cancel is refused). The answer is what happens to
   * the money.
   */
  async function cancel(actor: Actor, payoutId: string, reason: string | null): Promise<PayoutBody> {
    const tenant = tenantOf(actor);
    return db.transaction(async (tx) => {
      const payout = await lockPayout(tx, tenant, payoutId);
      if (payout === null) throw new AppError("not_found", { message: "No such payout." });
      const moved = await lifecycle.apply(
        tx,
        payout,
        { type: "cancel_by_business" },
        {
          extraPatch: { failureReason: reason ?? "Canceled by the Business" },
          extraData: { reason: reason ?? "Canceled by the Business", canceled_by: "business" },
        },
      );
      if (moved.kind === "moved" || moved.kind === "noop") return presentPayout(moved.payout);
      if (moved.kind === "lost") throw new Error("a locked payout changed under its lock");
      throw new AppError("PAYOUT_NOT_CANCELABLE", { message: `The payout can no longer be canceled (${moved.reason}).` });
    });
  }

  async function getPolicy(actor: Actor): Promise<ApprovalPolicyBody> {
    const tenant = tenantOf(actor);
    return presentPolicy(tenant.environment, await findPolicy(db, tenant));
  }

  async function putPolicy(actor: Actor, body: PutApprovalPolicyBody): Promise<ApprovalPolicyBody> {
    const tenant = tenantOf(actor);
    for (const [index, rule] of body.rules.entries()) {
      const bad = rule.currency === undefined ? null : currencyError(rule.currency, `rules[${index}].currency`);
      if (bad !== null) throw bad;
    }
    const saved = await upsertPolicy(db, {
      businessId: tenant.businessId,
      environment: tenant.environment,
      rules: body.rules,
      makerChecker: body.maker_checker ?? false,
      updatedAt: clock.now(),
    });
    return presentPolicy(tenant.environment, saved);
  }

  /** For the destinations module (injected): is a payout awaiting approval headed to this destination? */
  async function pendingPayoutHeadsTo(tx: Db, tenant: Tenant, destinationId: string): Promise<boolean> {
    return hasPendingPayoutTo(tx, tenant, destinationId);
  }

  return {
    checkRailRoute: deps.checkRailRoute,
    create,
    createClaimed,
    newPayoutRow,
    applyPolicy,
    get,
    list,
    decide,
    decisions,
    cancel,
    getPolicy,
    putPolicy,
    pendingPayoutHeadsTo,
  };
}

// The list cursor: newest-first pages carry the last id; updatedSince pages carry (updated_at, id).
function encodeChangeCursor(position: { id: string; updatedAt?: string }): string {
  return Buffer.from(JSON.stringify(position), "utf8").toString("base64url");
}

function decodeChangeCursor(cursor: string | undefined): { id: string; updatedAt: Date } | null {
  if (cursor === undefined || cursor === "") return null;
  const id = decodeCursor(cursor);
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { updatedAt?: unknown };
    if (typeof parsed.updatedAt === "string" && id !== null) {
      const updatedAt = new Date(parsed.updatedAt);
      if (!Number.isNaN(updatedAt.getTime())) return { id, updatedAt };
    }
  } catch {
    // fall through
  }
  throw new AppError("validation_failed", {
    details: [{ field: "cursor", code: "invalid_format", message: "Not a cursor of an updatedSince listing." }],
  });
}
