// Use cases of payouts: create (idempotent), read, list, decide (approve / reject), cancel, and the
// approval policy. Each owns its transaction; events and jobs are written in that same transaction.
//
// Creation (POST /v1/payouts) goes through the one write path, payouts.creation.ts, as a single request
// locked by its idempotency key: a second request with the key meanwhile gets 409 IDEMPOTENCY_KEY_IN_FLIGHT
// instead of waiting; once the first committed, it replays (200 and Idempotent-Replayed). Any failure (a
// gate's 4xx, or ours) rolls the whole transaction back, claim included: nothing is stored, and the same key
// may be used again.

import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { ControlChangeApplier, GuardWeakening, PendingControlChange, RecordActorAudit } from "../../platform/auth/audit.js";
import { isSameMaker as isSameMakerOf } from "../../platform/auth/maker-checker.js";
import { canonicalJson } from "../../platform/canonical-json.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError, type ErrorDetail } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import { DEFAULT_PAGE_SIZE, decodeCursor } from "../../platform/pagination/cursor.js";
import { addDays, dayInZone, dayStartInZone, isTimeZone } from "../../platform/time-zone.js";
import { canonicalUploadId } from "./payouts.bulk.js";
import { creationErrorOf, currencyError, type Maker, type PayoutWriter, payoutRequestOf } from "./payouts.creation.js";
import { PAYOUT_ERRORS } from "./payouts.errors.js";
import { dailyLimitError } from "./payouts.gates.js";
import { type ApplyOutcome, DailyLimitExceeded, type Lifecycle, majorAmount } from "./payouts.lifecycle.js";
import { payeesOf } from "./payouts.payees.js";
import { approvalRulesLoosened } from "./payouts.policy.js";
import {
  type DecisionRow,
  findPayout,
  findPolicy,
  hasPendingPayoutTo,
  insertDecision,
  listDecisions,
  listPayoutsNewestFirst,
  listPayoutsUpdatedSince,
  lockPayout,
  lockPolicy,
  type PayoutFilters,
  type PayoutRow,
  type PolicyRow,
  sumVolumePerDay,
  upsertPolicy,
} from "./payouts.repo.js";
import type {
  ApprovalPolicyBody,
  CreatePayoutBody,
  DecisionBody,
  DecisionRequestBody,
  ListPayoutsQuery,
  PayoutBody,
  PayoutFilterQuery,
  PayoutPayeeBody,
  PolicyRule,
  PutApprovalPolicyBody,
  VolumeBody,
  VolumeQuery,
} from "./payouts.schemas.js";

export interface PayoutServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly lifecycle: Lifecycle;
  /** The audit log: creations, cancellations, Decisions and approval-policy changes are recorded in their transaction. */
  readonly recordAudit: RecordActorAudit;
  /** Maker-checker off or the rules loosened while maker-checker is on: waits for a second admin (control-changes). */
  readonly guardWeakening: GuardWeakening;
  readonly writer: PayoutWriter;
}

export type PayoutService = ReturnType<typeof createPayoutService>;

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/** The payouts as the API answers them, each with its `payee` (read for all of them at once). */
export async function presentPayouts(db: Db, tenant: Tenant, rows: readonly PayoutRow[]): Promise<PayoutBody[]> {
  const payees = await payeesOf(db, tenant, rows);
  return rows.map((row, i) => {
    const payee = payees[i];
    if (payee === undefined) throw new Error("a payee for every payout");
    return presentPayout(row, payee);
  });
}

async function presentOne(db: Db, tenant: Tenant, row: PayoutRow): Promise<PayoutBody> {
  const [body] = await presentPayouts(db, tenant, [row]);
  if (body === undefined) throw new Error("a body for the payout");
  return body;
}

export function presentPayout(row: PayoutRow, payee: PayoutPayeeBody): PayoutBody {
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
    funding_status: row.fundingStatus,
    reconciliation_status: row.reconciliationStatus,
    reconciled_at: iso(row.reconciledAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    created_by: {
      api_key_id: row.createdByApiKeyId,
      membership_id: row.createdByMembershipId,
      user_id: row.createdByUserId,
    },
    payee,
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

/**
 * A rule whose minimum exceeds its maximum (amount or Beneficiary age) matches nothing: refused, each such
 * minimum named, rather than stored as a rule that silently never decides.
 */
export function emptyRuleRanges(rules: readonly PolicyRule[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const [index, rule] of rules.entries()) {
    if (
      rule.min_amount_minor !== undefined &&
      rule.max_amount_minor !== undefined &&
      rule.min_amount_minor > rule.max_amount_minor
    ) {
      details.push({
        field: `rules[${index}].min_amount_minor`,
        code: "out_of_range",
        message: `min_amount_minor (${rule.min_amount_minor}) is greater than max_amount_minor (${rule.max_amount_minor}), so rule "${rule.name}" could never match: make it at most ${rule.max_amount_minor}.`,
      });
    }
    if (
      rule.min_beneficiary_age_hours !== undefined &&
      rule.max_beneficiary_age_hours !== undefined &&
      rule.min_beneficiary_age_hours > rule.max_beneficiary_age_hours
    ) {
      details.push({
        field: `rules[${index}].min_beneficiary_age_hours`,
        code: "out_of_range",
        message: `min_beneficiary_age_hours (${rule.min_beneficiary_age_hours}) is greater than max_beneficiary_age_hours (${rule.max_beneficiary_age_hours}), so rule "${rule.name}" could never match: make it at most ${rule.max_beneficiary_age_hours}.`,
      });
    }
  }
  return details;
}

/** The control-changes kind of the approval policy. */
export const APPROVAL_POLICY_CONTROL = "approval_policy";

/** The policy's value as a control change records it (its base) and proposes it. */
function policyValueOf(row: PolicyRow | null): { rules: PolicyRule[]; maker_checker: boolean } {
  return { rules: (row?.rules as PolicyRule[] | undefined) ?? [], maker_checker: row?.makerChecker ?? false };
}

export function presentPolicy(environment: Tenant["environment"], row: PolicyRow | null): ApprovalPolicyBody {
  return {
    environment,
    rules: (row?.rules as PolicyRule[] | undefined) ?? [],
    maker_checker: row?.makerChecker ?? false,
    updated_at: iso(row?.updatedAt ?? null),
  };
}

/**
 * Validator names the service itself records: a caller may not record a Decision in their name.
 * Compared without case and surrounding space.
 */
export const RESERVED_VALIDATOR_NAMES: ReadonlySet<string> = new Set(["approval_policy"]);

/**
 * Maker-checker compares people, not keys (platform/auth/maker-checker.ts): the approver is the maker when the
 * same key, the same membership or the same user created the payout.
 */
export function isSameMaker(
  payout: Pick<PayoutRow, "createdByApiKeyId" | "createdByMembershipId" | "createdByUserId">,
  actor: Maker,
): boolean {
  return isSameMakerOf(
    { apiKeyId: payout.createdByApiKeyId, membershipId: payout.createdByMembershipId, userId: payout.createdByUserId },
    actor,
  );
}

export function createPayoutService(deps: PayoutServiceDeps) {
  const { db, clock, ids, lifecycle, writer } = deps;
  const { recordAudit } = deps;

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
    const request = payoutRequestOf(body, { idempotencyKey: key, channel: "api", uploadId: null });
    const tenant = tenantOf(actor);
    try {
      return await transaction(db, async (tx) => {
        const [outcome] = await writer.createPayouts(tx, tenant, actor, { kind: "idempotency_key" }, [request]);
        if (outcome === undefined) throw new Error("the write path answered no outcome");
        if (outcome.kind === "failed") throw outcome.error;
        return { payout: await presentOne(tx, tenant, outcome.payout), replayed: outcome.kind === "replayed" };
      });
    } catch (error) {
      throw creationErrorOf(error) ?? error;
    }
  }

  async function get(actor: Actor, payoutId: string): Promise<PayoutBody> {
    const row = await findPayout(db, tenantOf(actor), payoutId);
    if (row === null) throw new AppError("not_found", { message: "No such payout." });
    return presentOne(db, tenantOf(actor), row);
  }

  async function list(actor: Actor, query: ListPayoutsQuery): Promise<{ payouts: PayoutBody[]; next_cursor: string | null }> {
    const tenant = tenantOf(actor);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const filters = listFiltersOf(query);
    if (query.updatedSince === undefined) {
      const rows = await listPayoutsNewestFirst(db, tenant, filters, decodeCursor(query.cursor), limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        payouts: await presentPayouts(db, tenant, page),
        next_cursor: rows.length > limit && last !== undefined ? encodeChangeCursor({ id: last.id }) : null,
      };
    }
    const since = new Date(query.updatedSince);
    const after = decodeChangeCursor(query.cursor);
    const rows = await listPayoutsUpdatedSince(db, tenant, filters, since, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      payouts: await presentPayouts(db, tenant, page),
      next_cursor:
        rows.length > limit && last !== undefined
          ? encodeChangeCursor({ id: last.id, updatedAt: last.updatedAt.toISOString() })
          : null,
    };
  }

  /**
   * Volume per day and currency over the last `days` days of `time_zone` (UTC when not given), today included:
   * today is the injected clock's day in that zone.
   */
  async function volume(actor: Actor, query: VolumeQuery): Promise<VolumeBody> {
    const days = query.days ?? 30;
    const zone = query.time_zone ?? "UTC";
    if (!isTimeZone(zone)) {
      throw new AppError("validation_failed", {
        details: [
          {
            field: "time_zone",
            code: "invalid_format",
            message: `${zone} is not an IANA time zone name (for example Europe/Berlin or America/New_York).`,
          },
        ],
      });
    }
    const until = dayInZone(clock.now().getTime(), zone);
    const since = addDays(until, -(days - 1));
    const dates = Array.from({ length: days }, (_, i) => addDays(since, i));
    const dayStarts = [...dates, addDays(until, 1)].map((day) => new Date(dayStartInZone(day, zone) ?? Number.NaN));
    const rows = await sumVolumePerDay(db, tenantOf(actor), dayStarts);
    return {
      since,
      until,
      time_zone: zone,
      days: rows.flatMap((r) => {
        const date = dates[r.day];
        return date === undefined ? [] : [{ date, currency: r.currency, count: r.count, amount_minor: r.amountMinor }];
      }),
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
    const outcome = await transaction(db, async (tx) => {
      // Locked: the decision and its write see the same payout (a cancel or another Decision waits).
      const payout = await lockPayout(tx, tenant, payoutId);
      if (payout === null) throw new AppError("not_found", { message: "No such payout." });
      if (payout.status !== "pending_approval") return { kind: "decided" as const };
      if (body.outcome === "approve" && isSameMaker(payout, actor)) {
        const policy = await findPolicy(tx, tenant);
        if (policy?.makerChecker === true) throw new AppError(PAYOUT_ERRORS.MAKER_CHECKER_VIOLATION);
      }
      const reason = body.reason ?? null;
      // The Decision and its audit record are written with the move, before its posting on the funding account
      // (beforeMoney), so that the funding row is locked by the transaction's last writes only.
      let decision = null as DecisionRow | null;
      let moved: ApplyOutcome;
      try {
        moved = await lifecycle.apply(
          tx,
          payout,
          { type: body.outcome },
          {
            extraData: { reason },
            beforeMoney: async () => {
              decision = await insertDecision(tx, {
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
              await recordAudit(tx, actor, {
                action: "payout_decided",
                subjectType: "payout",
                subjectId: payout.id,
                details: { outcome: body.outcome, decision_id: decision.id },
              });
            },
          },
        );
      } catch (error) {
        // The daily limit refuses it (thrown after the move's writes: this transaction rolls back, still pending).
        if (error instanceof DailyLimitExceeded) throw dailyLimitError(error.refusal, payout.currency);
        throw error;
      }
      if (moved.kind !== "moved" || decision === null) return { kind: "decided" as const };
      // An approval's disbursement is enqueued by the lifecycle (not for a payout waiting for funds).
      return { kind: "created" as const, decision, payout: moved.payout };
    });
    if (outcome.kind === "created") {
      return { decision: presentDecision(outcome.decision), payout: await presentOne(db, tenant, outcome.payout), created: true };
    }
    // Decided already (now or by the winner of a race, committed by the time we read again).
    const payout = await findPayout(db, tenant, payoutId);
    if (payout === null) throw new AppError("not_found", { message: "No such payout." });
    const [existing] = await listDecisions(db, tenant, payoutId);
    if (existing !== undefined && existing.outcome === body.outcome) {
      return { decision: presentDecision(existing), payout: await presentOne(db, tenant, payout), created: false };
    }
    throw new AppError(PAYOUT_ERRORS.PAYOUT_ALREADY_DECIDED, {
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
    return transaction(db, async (tx) => {
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
      if (moved.kind === "moved") {
        await recordAudit(tx, actor, {
          action: "payout_canceled",
          subjectType: "payout",
          subjectId: moved.payout.id,
          details: { amount_minor: moved.payout.amountMinor, currency: moved.payout.currency, reason: reason ?? null },
        });
      }
      if (moved.kind === "moved" || moved.kind === "noop") return presentOne(tx, tenant, moved.payout);
      if (moved.kind === "lost") throw new Error("a locked payout changed under its lock");
      throw new AppError(PAYOUT_ERRORS.PAYOUT_NOT_CANCELABLE, {
        message: `The payout can no longer be canceled (${moved.reason}).`,
      });
    });
  }

  async function getPolicy(actor: Actor): Promise<ApprovalPolicyBody> {
    const tenant = tenantOf(actor);
    return presentPolicy(tenant.environment, await findPolicy(db, tenant));
  }

  /**
   * Replaces the policy. A weakening (maker-checker off, rules loosened) goes through the control-changes guard:
   * with maker-checker on it waits for a second admin (answered as the pending change, nothing applied); otherwise
   * it is refused to keys, recorded and e-mailed, and applied. A strengthening applies at once.
   */
  async function putPolicy(
    actor: Actor,
    body: PutApprovalPolicyBody,
  ): Promise<{ kind: "applied"; policy: ApprovalPolicyBody } | { kind: "pending"; change: PendingControlChange }> {
    const tenant = tenantOf(actor);
    for (const [index, rule] of body.rules.entries()) {
      const bad = rule.currency === undefined ? null : currencyError(rule.currency, `rules[${index}].currency`);
      if (bad !== null) throw bad;
    }
    const emptyRanges = emptyRuleRanges(body.rules);
    if (emptyRanges.length > 0) throw new AppError(PAYOUT_ERRORS.POLICY_RULE_NEVER_MATCHES, { details: emptyRanges });
    const proposed = { rules: body.rules, maker_checker: body.maker_checker ?? false };
    return transaction(db, async (tx) => {
      // Locked, so two concurrent replacements each compare against what the other left.
      const before = await lockPolicy(tx, tenant);
      const rulesBefore = (before?.rules as PolicyRule[] | undefined) ?? [];
      const makerCheckerOff = before?.makerChecker === true && !proposed.maker_checker;
      const loosened = approvalRulesLoosened(rulesBefore, body.rules);
      if (makerCheckerOff || loosened) {
        const pending = await deps.guardWeakening(tx, actor, {
          kind: APPROVAL_POLICY_CONTROL,
          control: makerCheckerOff ? "maker_checker" : "approval_rules",
          subjectType: "approval_policy",
          subjectId: tenant.environment,
          summary: [
            makerCheckerOff ? "The person who creates a payout may now approve it themselves." : null,
            loosened
              ? `The approval rules now approve more payouts automatically, or reject fewer (${body.rules.length} rule(s) now).`
              : null,
          ]
            .filter((line) => line !== null)
            .join(" "),
          details: { rules_before: rulesBefore.length, rules_after: body.rules.length },
          base: policyValueOf(before),
          proposed,
        });
        if (pending !== null) return { kind: "pending" as const, change: pending };
      }
      const policy = await savePolicy(tx, actor, proposed);
      return { kind: "applied" as const, policy: presentPolicy(tenant.environment, policy) };
    });
  }

  async function savePolicy(tx: Tx, actor: Actor, value: { rules: PolicyRule[]; maker_checker: boolean }): Promise<PolicyRow> {
    const tenant = tenantOf(actor);
    const policy = await upsertPolicy(tx, {
      businessId: tenant.businessId,
      environment: tenant.environment,
      rules: value.rules,
      makerChecker: value.maker_checker,
      updatedAt: clock.now(),
    });
    await recordAudit(tx, actor, {
      action: "approval_policy_changed",
      subjectType: "approval_policy",
      subjectId: tenant.environment,
      details: { rules: value.rules.length, maker_checker: value.maker_checker },
    });
    return policy;
  }

  /** The applier of an approved `approval_policy` change (control-changes), in the approval's transaction. */
  const applyApprovedPolicyChange: ControlChangeApplier = async (tx, actor, change) => {
    const before = await lockPolicy(tx, tenantOf(actor));
    if (canonicalJson(policyValueOf(before)) !== canonicalJson(change.base)) return "stale";
    await savePolicy(tx, actor, change.proposed as { rules: PolicyRule[]; maker_checker: boolean });
    return "applied";
  };

  /** For the destinations module (injected): is a payout awaiting approval headed to this destination? */
  async function pendingPayoutHeadsTo(tx: Tx, tenant: Tenant, destinationId: string): Promise<boolean> {
    return hasPendingPayoutTo(tx, tenant, destinationId);
  }

  return {
    create,
    get,
    list,
    decide,
    decisions,
    cancel,
    getPolicy,
    putPolicy,
    applyApprovedPolicyChange,
    pendingPayoutHeadsTo,
    volume,
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

/** The list's filters from its query (shared by GET /v1/payouts and its CSV export); a reversed range is refused. */
export function listFiltersOf(query: PayoutFilterQuery): PayoutFilters {
  const filters = {
    status: query.status,
    beneficiaryId: query.beneficiary_id?.toLowerCase(),
    payee: query.payee?.trim(),
    uploadId: query.upload_id === undefined ? undefined : canonicalUploadId(query.upload_id),
    externalRef: query.external_ref,
    replacesPayoutId: query.replaces_payout_id?.toLowerCase(),
    channel: query.channel,
    currency: query.currency,
    createdFrom: optionalDate(query.created_from),
    createdTo: optionalDate(query.created_to),
    updatedFrom: optionalDate(query.updated_from),
    updatedTo: optionalDate(query.updated_to),
    amountMin: query.amount_min,
    amountMax: query.amount_max,
  };
  assertRanges(filters);
  return filters;
}

function optionalDate(value: string | undefined): Date | undefined {
  return value === undefined ? undefined : new Date(value);
}

/** A range whose end is not after its start selects nothing: refused so the caller sees the mistake. */
function assertRanges(filters: {
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
  updatedFrom?: Date | undefined;
  updatedTo?: Date | undefined;
  amountMin?: number | undefined;
  amountMax?: number | undefined;
}): void {
  const details: { field: string; code: string; message: string }[] = [];
  if (filters.createdFrom !== undefined && filters.createdTo !== undefined && filters.createdTo <= filters.createdFrom) {
    details.push({ field: "created_to", code: "range_reversed", message: "`created_to` must be after `created_from`." });
  }
  if (filters.updatedFrom !== undefined && filters.updatedTo !== undefined && filters.updatedTo <= filters.updatedFrom) {
    details.push({ field: "updated_to", code: "range_reversed", message: "`updated_to` must be after `updated_from`." });
  }
  if (filters.amountMin !== undefined && filters.amountMax !== undefined && filters.amountMax < filters.amountMin) {
    details.push({ field: "amount_max", code: "range_reversed", message: "`amount_max` must be at least `amount_min`." });
  }
  if (details.length > 0) throw new AppError("validation_failed", { details });
}
