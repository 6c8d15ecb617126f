// Top-up use cases: record (admins), list and read, approve or reject (approvers and admins; maker-checker by
// person, always on). The approval credits the funding account through the funding module's port in the same
// transaction as the move, its event and its audit record.
import type { Actor } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import { isSameMaker } from "../../platform/auth/maker-checker.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import type { IdGenerator } from "../../platform/ids.js";
import { DEFAULT_PAGE_SIZE, decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { currencyExponent } from "../../platform/reference/iso-codes.js";
import { TOP_UP_ERRORS } from "./top-ups.errors.js";
import type { CreditFundingAccount, FindFundingAccount } from "./top-ups.ports.js";
import { decideTopUp, findTopUp, insertTopUp, listTopUps, lockTopUp, type TopUpRow } from "./top-ups.repo.js";
import type { CreateTopUpBody, TopUpBody, TopUpListBody, TopUpListQuery } from "./top-ups.schemas.js";

export interface TopUpServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly events: EventRecorder;
  readonly recordAudit: RecordActorAudit;
  readonly creditFundingAccount: CreditFundingAccount;
  readonly findFundingAccount: FindFundingAccount;
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export function presentTopUp(row: TopUpRow): TopUpBody {
  return {
    id: row.id,
    funding_account_id: row.fundingAccountId,
    amount_minor: row.amountMinor,
    currency: row.currency,
    reference: row.reference,
    status: row.status,
    created_by: {
      api_key_id: row.createdByApiKeyId,
      membership_id: row.createdByMembershipId,
      user_id: row.createdByUserId,
    },
    decided_by:
      row.decidedAt === null
        ? null
        : { api_key_id: row.decidedByApiKeyId, membership_id: row.decidedByMembershipId, user_id: row.decidedByUserId },
    decided_at: iso(row.decidedAt),
    reason: row.reason,
    transfer_id: row.transferId,
    created_at: row.createdAt.toISOString(),
  };
}

/** `amount` of event data: minor units as a decimal string in major units (1234 EUR -> "12.34"), as payout events. */
export function majorAmountOf(amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currency) ?? 2;
  const digits = String(amountMinor);
  if (exponent === 0) return digits;
  const padded = digits.padStart(exponent + 1, "0");
  return `${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}

/** The idempotency key of a top-up's credit: a second approval (or a retry) posts nothing more. */
export const creditKeyOf = (topUpId: string) => `top_up:${topUpId}:credit`;

function eventData(row: TopUpRow) {
  return {
    top_up_id: row.id,
    funding_account_id: row.fundingAccountId,
    amount: majorAmountOf(row.amountMinor, row.currency),
    amount_minor: row.amountMinor,
    currency: row.currency,
    reference: row.reference,
    status: row.status,
  };
}

export function createTopUpService(deps: TopUpServiceDeps) {
  const { db, clock, ids, events, recordAudit } = deps;

  async function create(actor: Actor, fundingAccountId: string, body: CreateTopUpBody): Promise<TopUpBody> {
    const tenant = tenantOf(actor);
    return transaction(db, async (tx) => {
      const account = await deps.findFundingAccount(tx, tenant, fundingAccountId);
      if (account === null) throw new AppError("not_found", { message: "No such funding account." });
      const now = clock.now();
      const row = await insertTopUp(tx, {
        id: ids.newId(),
        businessId: tenant.businessId,
        environment: tenant.environment,
        fundingAccountId: account.id,
        amountMinor: body.amount_minor,
        currency: account.currency,
        reference: body.reference,
        status: "pending_approval",
        createdByApiKeyId: actor.apiKeyId,
        createdByMembershipId: actor.membershipId,
        createdByUserId: actor.userId,
        createdAt: now,
        updatedAt: now,
      });
      await recordAudit(tx, actor, {
        action: "top_up_created",
        subjectType: "top_up",
        subjectId: row.id,
        details: { funding_account_id: row.fundingAccountId, amount_minor: row.amountMinor, currency: row.currency },
      });
      return presentTopUp(row);
    });
  }

  async function get(actor: Actor, id: string): Promise<TopUpBody> {
    const row = await findTopUp(db, tenantOf(actor), id);
    if (row === null) throw new AppError("not_found", { message: "No such top-up." });
    return presentTopUp(row);
  }

  async function list(actor: Actor, query: TopUpListQuery): Promise<TopUpListBody> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await listTopUps(
      db,
      tenantOf(actor),
      { status: query.status, fundingAccountId: query.funding_account_id?.toLowerCase() },
      decodeCursor(query.cursor),
      limit + 1,
    );
    const page = toPage(rows, limit);
    return { top_ups: page.items.map(presentTopUp), next_cursor: page.nextCursor };
  }

  /**
   * Approves or rejects. The top-up row is locked first (a second decision waits, then finds it decided: 409),
   * the funding row last (by the credit); the move is also conditional on `pending_approval` as a backstop.
   * Every later decision, whatever its outcome, is 409 TOP_UP_ALREADY_DECIDED.
   */
  async function decide(
    actor: Actor,
    id: string,
    decision: { readonly outcome: "approve" } | { readonly outcome: "reject"; readonly reason: string },
  ): Promise<TopUpBody> {
    const tenant = tenantOf(actor);
    return transaction(db, async (tx) => {
      const topUp = await lockTopUp(tx, tenant, id);
      if (topUp === null) throw new AppError("not_found", { message: "No such top-up." });
      if (topUp.status !== "pending_approval") {
        throw new AppError(TOP_UP_ERRORS.TOP_UP_ALREADY_DECIDED, { message: `The top-up was already ${topUp.status}.` });
      }
      const maker = {
        apiKeyId: topUp.createdByApiKeyId,
        membershipId: topUp.createdByMembershipId,
        userId: topUp.createdByUserId,
      };
      if (decision.outcome === "approve" && isSameMaker(maker, actor)) {
        throw new AppError(TOP_UP_ERRORS.TOP_UP_MAKER_CHECKER_VIOLATION);
      }
      const transfer =
        decision.outcome === "approve"
          ? await deps.creditFundingAccount(tx, tenant, {
              fundingAccountId: topUp.fundingAccountId,
              amountMinor: topUp.amountMinor,
              cause: { type: "top_up", id: topUp.id },
              idempotencyKey: creditKeyOf(topUp.id),
            })
          : null;
      const now = clock.now();
      const decided = await decideTopUp(tx, tenant, topUp.id, {
        status: decision.outcome === "approve" ? "approved" : "rejected",
        decidedByApiKeyId: actor.apiKeyId,
        decidedByMembershipId: actor.membershipId,
        decidedByUserId: actor.userId,
        decidedAt: now,
        reason: decision.outcome === "reject" ? decision.reason : null,
        transferId: transfer?.id ?? null,
        updatedAt: now,
      });
      if (decided === null) throw new Error("a locked top-up changed under its lock");
      await events.record(tx, {
        tenant,
        type: decision.outcome === "approve" ? "top_up.approved" : "top_up.rejected",
        subjectId: decided.id,
        data:
          decision.outcome === "approve"
            ? { ...eventData(decided), transfer_id: decided.transferId }
            : { ...eventData(decided), reason: decided.reason },
      });
      await recordAudit(tx, actor, {
        action: "top_up_decided",
        subjectType: "top_up",
        subjectId: decided.id,
        details: {
          outcome: decision.outcome,
          funding_account_id: decided.fundingAccountId,
          amount_minor: decided.amountMinor,
          currency: decided.currency,
          ...(decided.transferId === null ? {} : { transfer_id: decided.transferId }),
        },
      });
      return presentTopUp(decided);
    });
  }

  return { create, get, list, decide };
}

export type TopUpService = ReturnType<typeof createTopUpService>;
