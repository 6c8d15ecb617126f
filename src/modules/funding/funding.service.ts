// The funding module's use cases behind its routes: list and read funding accounts, change their settings
// (admin, step-up, audited; a weakening reported like maker-checker off), balances at a past time, transfers,
// and sandbox credits. Each use case owns its transaction.
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { ControlChangeApplier, GuardWeakening, PendingControlChange, RecordActorAudit } from "../../platform/auth/audit.js";
import { canonicalJson } from "../../platform/canonical-json.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import { decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { balancesAt, listTransfersOf, type TransferWithEntries } from "../ledger/ledger.shared.js";
import { FUNDING_ERRORS } from "./funding.errors.js";
import { availableOf, type FundingPostings } from "./funding.postings.js";
import {
  type FundingAccountPatch,
  findFundingAccountRow,
  listFundingAccountRows,
  lockFundingAccountRow,
  updateFundingSettings,
} from "./funding.repo.js";
import type { FundingAccountRow } from "./funding.schema.js";
import type { FundingAccountBody, SandboxCreditBody, TransferBody, UpdateFundingAccountBody } from "./funding.schemas.js";

export function presentFundingAccount(row: FundingAccountRow): FundingAccountBody {
  return {
    id: row.id,
    environment: row.environment,
    currency: row.currency,
    name: row.name,
    kind: row.kind,
    rail: row.rail,
    account_identifier_masked: row.accountIdentifierMasked,
    posted_minor: row.postedMinor,
    pending_minor: row.pendingMinor,
    available_minor: availableOf(row),
    awaiting_funds: { count: row.awaitingCount, amount_minor: row.awaitingMinor },
    enforcement: row.enforcement,
    overdraft_limit_minor: row.overdraftLimitMinor,
    low_balance_threshold_minor: row.lowBalanceThresholdMinor,
    awaiting_funds_expiry_hours: row.awaitingFundsExpiryHours,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentTransfer(row: TransferWithEntries): TransferBody {
  return {
    id: row.id,
    funding_account_id: row.fundingAccountId,
    currency: row.currency,
    step: row.step,
    cause: { type: row.causeType, id: row.causeId },
    idempotency_key: row.idempotencyKey,
    entries: row.entries.map((e) => ({ account: e.account, amount_minor: e.amountMinor, pending: e.pending })),
    posted_after_minor: row.postedAfterMinor,
    pending_after_minor: row.pendingAfterMinor,
    available_after_minor: row.postedAfterMinor - row.pendingAfterMinor,
    created_at: row.createdAt.toISOString(),
  };
}

/** The control-changes kind of a funding account's settings. */
export const FUNDING_ACCOUNT_CONTROL = "funding_account";

const notFound = () => new AppError("not_found", { message: "No such funding account." });

export function createFundingService(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly postings: FundingPostings;
  readonly recordAudit: RecordActorAudit;
  readonly guardWeakening: GuardWeakening;
}) {
  const { db, clock, ids, postings, recordAudit, guardWeakening } = deps;

  async function found(tenant: Tenant, id: string): Promise<FundingAccountRow> {
    const row = await findFundingAccountRow(db, tenant, id);
    if (row === null) throw notFound();
    return row;
  }

  async function list(actor: Actor, query: { limit?: number; cursor?: string; currency?: string }) {
    const limit = query.limit ?? 50;
    const rows = await listFundingAccountRows(db, tenantOf(actor), {
      after: decodeCursor(query.cursor),
      limit,
      ...(query.currency === undefined ? {} : { currency: query.currency }),
    });
    const page = toPage(rows, limit);
    return { funding_accounts: page.items.map(presentFundingAccount), next_cursor: page.nextCursor };
  }

  async function get(actor: Actor, id: string): Promise<FundingAccountBody> {
    return presentFundingAccount(await found(tenantOf(actor), id));
  }

  /** What a pending control change of a funding account records as its base: the settings a weakening compares. */
  function controlValueOf(row: FundingAccountRow) {
    return { enforcement: row.enforcement, overdraft_limit_minor: row.overdraftLimitMinor };
  }

  /** The change's checks and writes, on the locked row (the request's and an approved control change's alike). */
  async function applyUpdate(tx: Tx, actor: Actor, before: FundingAccountRow, body: UpdateFundingAccountBody) {
    const patch: FundingAccountPatch = {
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.enforcement === undefined ? {} : { enforcement: body.enforcement }),
      ...(body.overdraft_limit_minor === undefined ? {} : { overdraftLimitMinor: body.overdraft_limit_minor }),
      ...(body.low_balance_threshold_minor === undefined ? {} : { lowBalanceThresholdMinor: body.low_balance_threshold_minor }),
      ...(body.awaiting_funds_expiry_hours === undefined ? {} : { awaitingFundsExpiryHours: body.awaiting_funds_expiry_hours }),
    };
    const enforcement = patch.enforcement ?? before.enforcement;
    const overdraft = patch.overdraftLimitMinor ?? before.overdraftLimitMinor;
    if (enforcement === "enforce" && availableOf(before) < -overdraft)
      throw new AppError(FUNDING_ERRORS.FUNDING_ACCOUNT_OVERDRAWN);
    const after = await updateFundingSettings(tx, before.id, patch, clock.now());
    await recordAudit(tx, actor, {
      action: "funding_account_updated",
      subjectType: "funding_account",
      subjectId: after.id,
      details: { ...body },
    });
    if (weakens(before, body)) await postings.scheduleRelease(tx, after, `settings:${clock.now().getTime()}`);
    return after;
  }

  function weakens(before: FundingAccountRow, body: UpdateFundingAccountBody) {
    const enforcement = body.enforcement ?? before.enforcement;
    const overdraft = body.overdraft_limit_minor ?? before.overdraftLimitMinor;
    const enforcementOff = before.enforcement === "enforce" && enforcement === "track_only";
    const overdraftRaised = enforcement === "enforce" && overdraft > before.overdraftLimitMinor;
    return enforcementOff || overdraftRaised;
  }

  /**
   * Settings. Turning enforcement off or raising the overdraft limit weakens a control: it goes through the
   * control-changes guard (with maker-checker on it waits for a second admin and nothing is applied; otherwise it
   * is refused to API keys, recorded and e-mailed to every admin, and applied). Turning enforce on (or lowering
   * the overdraft) needs the balance to satisfy it now (409 FUNDING_ACCOUNT_OVERDRAWN). A change that lets
   * waiting payouts fit schedules their release.
   */
  async function update(
    actor: Actor,
    id: string,
    body: UpdateFundingAccountBody,
  ): Promise<{ kind: "applied"; account: FundingAccountBody } | { kind: "pending"; change: PendingControlChange }> {
    const tenant = tenantOf(actor);
    return transaction(db, async (tx) => {
      const before = await lockFundingAccountRow(tx, tenant, id);
      if (before === null) throw notFound();
      if (weakens(before, body)) {
        const enforcement = body.enforcement ?? before.enforcement;
        const overdraft = body.overdraft_limit_minor ?? before.overdraftLimitMinor;
        const enforcementOff = before.enforcement === "enforce" && enforcement === "track_only";
        const pending = await guardWeakening(tx, actor, {
          kind: FUNDING_ACCOUNT_CONTROL,
          control: "funding_enforcement",
          subjectType: "funding_account",
          subjectId: before.id,
          summary: enforcementOff
            ? `Payouts from the ${before.name} funding account are no longer held to its balance (enforcement off).`
            : `The ${before.name} funding account may now go further below zero (overdraft limit raised to ${overdraft} minor units).`,
          details: {
            enforcement_before: before.enforcement,
            enforcement_after: enforcement,
            overdraft_limit_minor_before: before.overdraftLimitMinor,
            overdraft_limit_minor_after: overdraft,
          },
          base: controlValueOf(before),
          proposed: body,
        });
        if (pending !== null) return { kind: "pending" as const, change: pending };
      }
      return { kind: "applied" as const, account: presentFundingAccount(await applyUpdate(tx, actor, before, body)) };
    });
  }

  /** The applier of an approved `funding_account` change (control-changes), in the approval's transaction. */
  const applyApprovedChange: ControlChangeApplier = async (tx, actor, change) => {
    const before = await lockFundingAccountRow(tx, tenantOf(actor), change.subjectId);
    if (before === null || canonicalJson(controlValueOf(before)) !== canonicalJson(change.base)) return "stale";
    await applyUpdate(tx, actor, before, change.proposed as UpdateFundingAccountBody);
    return "applied";
  };

  async function balance(actor: Actor, id: string, at: string | undefined) {
    const tenant = tenantOf(actor);
    const account = await found(tenant, id);
    const instant = at === undefined ? clock.now() : new Date(at);
    const balances = at === undefined ? account : await balancesAt(db, account.id, instant);
    const posted = balances?.postedMinor ?? 0;
    const pending = balances?.pendingMinor ?? 0;
    return {
      funding_account_id: account.id,
      at: instant.toISOString(),
      posted_minor: posted,
      pending_minor: pending,
      available_minor: posted - pending,
    };
  }

  async function transfers(actor: Actor, id: string, query: { limit?: number; cursor?: string }) {
    const tenant = tenantOf(actor);
    const account = await found(tenant, id);
    const limit = query.limit ?? 50;
    const rows = await listTransfersOf(db, tenant, account.id, { after: decodeCursor(query.cursor), limit });
    const page = toPage(rows, limit);
    return { transfers: page.items.map(presentTransfer), next_cursor: page.nextCursor };
  }

  /** Sandbox only: money from nowhere, posted at once (outside world -> funding), releasing waiting payouts. */
  async function sandboxCredit(actor: Actor, id: string, body: SandboxCreditBody): Promise<TransferBody> {
    if (actor.environment !== "sandbox") {
      throw new AppError("forbidden", {
        message:
          "Sandbox credits exist only in sandbox: use a sandbox key. Production money arrives by top-ups and bank statements.",
      });
    }
    const tenant = tenantOf(actor);
    const transfer = await transaction(db, async (tx) => {
      const account = await lockFundingAccountRow(tx, tenant, id);
      if (account === null) throw notFound();
      const creditId = ids.newId();
      const posted = await postings.creditFundingAccount(tx, tenant, {
        fundingAccountId: account.id,
        amountMinor: body.amount_minor,
        cause: { type: "sandbox_credit", id: creditId },
        idempotencyKey: `sandbox_credit:${creditId}`,
      });
      await recordAudit(tx, actor, {
        action: "sandbox_credit_posted",
        subjectType: "funding_account",
        subjectId: account.id,
        details: { amount_minor: body.amount_minor, reference: body.reference ?? null, transfer_id: posted.id },
      });
      return posted;
    });
    return presentTransfer(transfer);
  }

  return { list, get, update, applyApprovedChange, balance, transfers, sandboxCredit };
}

export type FundingService = ReturnType<typeof createFundingService>;
