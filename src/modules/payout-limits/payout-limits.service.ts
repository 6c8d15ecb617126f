// Payout limits (issue 29): per payout and per day, per environment and currency. The API (read, replace), the
// rules the payouts module runs in its own transactions (the per-payout maxima at creation, the day's usage taken
// at approval and given back when an approved payout is voided) and the applier of an approved control change.
//
// A replacement that raises or removes a limit weakens a control: it goes through the control-changes module's
// guard (with maker-checker on it waits for a second admin: 202; otherwise it is refused to API keys, recorded
// and e-mailed to admins, and applied). A replacement that only tightens applies at once.
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { ControlChangeApplier, PendingControlChange } from "../../platform/auth/audit.js";
import { canonicalJson } from "../../platform/canonical-json.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError, type ErrorDetail } from "../../platform/errors.js";
import { currencyExponent } from "../../platform/reference/iso-codes.js";
import { dayInZone } from "../../platform/time-zone.js";
import { findBusinessTimeZone } from "../business-profile/business-profile.shared.js";
import type { PayoutLimitsPorts } from "./payout-limits.ports.js";
import {
  addToDailyUsage,
  findLimitsFor,
  insertConsumption,
  listLimits,
  lockLimits,
  type PayoutLimitRow,
  releaseConsumption,
  replaceLimits,
  usageOfDay,
} from "./payout-limits.repo.js";
import type { PayoutLimitBody, PayoutLimitsBody, PutPayoutLimitsBody } from "./payout-limits.schemas.js";
import { canonicalLimits, type LimitSetting, limitsWeakenedBy } from "./payout-limits.weakening.js";

/** A payout as the limits need it. */
export interface PayoutForLimits {
  readonly id: string;
  readonly businessId: string;
  readonly environment: "sandbox" | "production";
  readonly currency: string;
  readonly amountMinor: number;
}

/** Why an approval was refused: the currency's daily limit, what its day took already, and the day. */
export interface DailyLimitRefusal {
  readonly dailyMaxMinor: number;
  readonly usedMinor: number;
  readonly day: string;
}

export const CONTROL_KIND = "payout_limits";

export function createPayoutLimitsService(deps: { readonly db: Db; readonly clock: Clock; readonly ports: PayoutLimitsPorts }) {
  const { db, clock, ports } = deps;

  async function present(handle: Db, tenant: Tenant, rows: readonly PayoutLimitRow[]): Promise<PayoutLimitsBody> {
    const zone = await findBusinessTimeZone(handle, tenant.businessId);
    const today = dayInZone(clock.now().getTime(), zone);
    const usage = new Map((await usageOfDay(handle, tenant, today)).map((u) => [u.currency, u.usedMinor]));
    const byCurrency = new Map(rows.map((r) => [r.currency, r]));
    const currencies = [...new Set([...byCurrency.keys(), ...usage.keys()])].sort();
    const limits: PayoutLimitBody[] = currencies.map((currency) => {
      const row = byCurrency.get(currency);
      const used = usage.get(currency) ?? 0;
      const daily = row?.dailyMaxMinor ?? null;
      return {
        currency,
        per_payout_max_minor: row?.perPayoutMaxMinor ?? null,
        daily_max_minor: daily,
        used_today_minor: used,
        remaining_today_minor: daily === null ? null : Math.max(daily - used, 0),
      };
    });
    const updatedAt = rows.reduce<Date | null>(
      (latest, r) => (latest === null || r.updatedAt > latest ? r.updatedAt : latest),
      null,
    );
    return {
      object: "payout_limits",
      environment: tenant.environment,
      time_zone: zone,
      today,
      limits,
      updated_at: updatedAt?.toISOString() ?? null,
    };
  }

  async function get(actor: Actor): Promise<PayoutLimitsBody> {
    const tenant = tenantOf(actor);
    return present(db, tenant, await listLimits(db, tenant));
  }

  function settingsOf(body: PutPayoutLimitsBody): LimitSetting[] {
    const details: ErrorDetail[] = [];
    const seen = new Set<string>();
    for (const [index, limit] of body.limits.entries()) {
      if (currencyExponent(limit.currency) === null) {
        details.push({
          field: `limits[${index}].currency`,
          code: "invalid_enum",
          message: `${limit.currency} is not an ISO 4217 currency code.`,
        });
      } else if (seen.has(limit.currency)) {
        details.push({ field: `limits[${index}].currency`, code: "duplicate", message: `${limit.currency} is listed twice.` });
      }
      seen.add(limit.currency);
    }
    if (details.length > 0) throw new AppError("validation_failed", { details });
    return body.limits.map((l) => ({
      currency: l.currency,
      perPayoutMaxMinor: l.per_payout_max_minor,
      dailyMaxMinor: l.daily_max_minor,
    }));
  }

  async function write(tx: Tx, actor: Actor, tenant: Tenant, before: readonly LimitSetting[], after: readonly LimitSetting[]) {
    const now = clock.now();
    await replaceLimits(
      tx,
      tenant,
      after
        .filter((s) => s.perPayoutMaxMinor !== null || s.dailyMaxMinor !== null)
        .map((s) => ({
          currency: s.currency,
          perPayoutMaxMinor: s.perPayoutMaxMinor,
          dailyMaxMinor: s.dailyMaxMinor,
          updatedAt: now,
          updatedByMembershipId: actor.membershipId,
          updatedByApiKeyId: actor.apiKeyId,
        })),
    );
    await ports.recordAudit(tx, actor, {
      action: "payout_limits_changed",
      subjectType: "payout_limits",
      subjectId: tenant.environment,
      details: { before: canonicalLimits(before), after: canonicalLimits(after) },
    });
  }

  /**
   * Replaces the set. Answers the limits (applied) or the pending control change (a weakening while maker-checker
   * is on: nothing applied).
   */
  async function put(
    actor: Actor,
    body: PutPayoutLimitsBody,
  ): Promise<{ kind: "applied"; limits: PayoutLimitsBody } | { kind: "pending"; change: PendingControlChange }> {
    const tenant = tenantOf(actor);
    const after = settingsOf(body);
    return transaction(db, async (tx) => {
      const rows = await lockLimits(tx, tenant);
      const before: LimitSetting[] = rows;
      const weakened = limitsWeakenedBy(before, after);
      if (weakened.length > 0) {
        const pending = await ports.guardWeakening(tx, actor, {
          kind: CONTROL_KIND,
          control: "payout_limits",
          subjectType: "payout_limits",
          subjectId: tenant.environment,
          summary: `Payout limits raised or removed for ${weakened.join(", ")}.`,
          details: { currencies: weakened },
          base: canonicalLimits(before),
          proposed: body,
        });
        if (pending !== null) return { kind: "pending" as const, change: pending };
      }
      await write(tx, actor, tenant, before, after);
      return { kind: "applied" as const, limits: await present(tx, tenant, await listLimits(tx, tenant)) };
    });
  }

  /** The applier of an approved `payout_limits` change (control-changes), in the approval's transaction. */
  const applyApprovedChange: ControlChangeApplier = async (tx, actor, change) => {
    const tenant = tenantOf(actor);
    const rows = await lockLimits(tx, tenant);
    if (canonicalJson(canonicalLimits(rows)) !== canonicalJson(change.base)) return "stale";
    await write(tx, actor, tenant, rows, settingsOf(change.proposed as PutPayoutLimitsBody));
    return "applied";
  };

  /** For payout creation: the per-payout maxima of these currencies (a currency without one is absent). */
  async function perPayoutMaxima(tx: Tx, tenant: Tenant, currencies: readonly string[]): Promise<ReadonlyMap<string, number>> {
    const rows = await findLimitsFor(tx, tenant, [...new Set(currencies)]);
    return new Map(rows.flatMap((r) => (r.perPayoutMaxMinor === null ? [] : [[r.currency, r.perPayoutMaxMinor] as const])));
  }

  /**
   * For an approval (a person's Decision or the approval policy), in its transaction: adds the payout to its day's
   * usage (the day in the Business's time zone now), refused when the currency's daily limit would be passed.
   * Answers null when taken, else the refusal (nothing changed).
   */
  async function reserveDaily(tx: Tx, payout: PayoutForLimits): Promise<DailyLimitRefusal | null> {
    const tenant: Tenant = { businessId: payout.businessId, environment: payout.environment };
    const zone = await findBusinessTimeZone(tx, payout.businessId);
    const now = clock.now();
    const day = dayInZone(now.getTime(), zone);
    const [limit] = await findLimitsFor(tx, tenant, [payout.currency]);
    const dailyMax = limit?.dailyMaxMinor ?? null;
    const refusal = async (): Promise<DailyLimitRefusal> => {
      const used = (await usageOfDay(tx, tenant, day)).find((u) => u.currency === payout.currency)?.usedMinor ?? 0;
      return { dailyMaxMinor: dailyMax as number, usedMinor: used, day };
    };
    if (dailyMax !== null && payout.amountMinor > dailyMax) return refusal();
    // The payout's own consumption row first, the day's shared row last (held from here to the commit). A refusal
    // is thrown by the caller and rolls the consumption back with everything else.
    await insertConsumption(tx, {
      payoutId: payout.id,
      businessId: payout.businessId,
      environment: payout.environment,
      currency: payout.currency,
      day,
      amountMinor: payout.amountMinor,
      createdAt: now,
    });
    const total = await addToDailyUsage(tx, { tenant, currency: payout.currency, day }, payout.amountMinor, dailyMax);
    if (total === null) return refusal();
    return null;
  }

  /** For a voided approved payout (canceled, failed): gives its amount back to the day it was counted in, once. */
  async function releaseDaily(tx: Tx, payoutId: string): Promise<void> {
    await releaseConsumption(tx, payoutId);
  }

  return { get, put, applyApprovedChange, rules: { perPayoutMaxima, reserveDaily, releaseDaily } };
}

export type PayoutLimitsService = ReturnType<typeof createPayoutLimitsService>;
