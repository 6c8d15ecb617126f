// Set-up shared by the ledger's invariant suite and its PostgreSQL races: credits through the funding module's
// CreditFundingAccount port (what a top-up's approval calls; the sandbox credit route where the build has it),
// enforcement through PATCH /v1/funding-accounts/{id}.
import { sql } from "drizzle-orm";
import type { Environment } from "../../src/platform/auth/api-key-format.js";
import { type Db, queryRows, transaction } from "../../src/platform/db/client.js";
import { bearer } from "../helpers/factories.js";
import type { TestApp } from "../helpers/test-app.js";

type CreditPort = (
  tx: unknown,
  tenant: { businessId: string; environment: Environment },
  input: {
    fundingAccountId: string;
    amountMinor: number;
    cause: { type: "top_up" | "sandbox_credit" | "statement_line"; id: string };
    idempotencyKey: string;
  },
) => Promise<unknown>;

export function creditPort(t: TestApp): CreditPort {
  const funding = t.runtime.deps.modules.modules.find((m) => m.name === "funding");
  const credit = (funding?.offers as { creditFundingAccount?: CreditPort } | undefined)?.creditFundingAccount;
  if (credit === undefined) throw new Error("the funding module offers no creditFundingAccount");
  return credit;
}

/**
 * A credit of `amountMinor` on the funding account: the sandbox credit route in sandbox, else the port in its own
 * transaction, as a top-up's approval calls it.
 */
export async function credit(
  t: TestApp,
  tenant: { businessId: string; environment: Environment },
  key: string,
  fundingAccountId: string,
  amountMinor: number,
): Promise<void> {
  if (tenant.environment === "sandbox") {
    const response = await t.app.inject({
      method: "POST",
      url: `/v1/sandbox/funding-accounts/${fundingAccountId}/credits`,
      headers: bearer(key),
      payload: { amount_minor: amountMinor, reference: "test credit" },
    });
    if (response.statusCode !== 201) throw new Error(`sandbox credit answered ${response.statusCode}: ${response.body}`);
    return;
  }
  const id = crypto.randomUUID();
  await transaction(t.runtime.deps.database.db, (tx) =>
    creditPort(t)(tx, tenant, {
      fundingAccountId,
      amountMinor,
      cause: { type: "top_up", id },
      idempotencyKey: `top_up:${id}:credit`,
    }),
  );
}

/** Enforcement and overdraft limit through PATCH /v1/funding-accounts/{id}: false when it is refused. */
export async function setEnforcement(
  t: TestApp,
  key: string,
  fundingAccountId: string,
  enforcement: "enforce" | "track_only",
  overdraftLimitMinor = 0,
): Promise<boolean> {
  const response = await t.app.inject({
    method: "PATCH",
    url: `/v1/funding-accounts/${fundingAccountId}`,
    headers: bearer(key),
    payload: { enforcement, overdraft_limit_minor: overdraftLimitMinor },
  });
  return response.statusCode === 200;
}

export interface FundingRow {
  readonly id: string;
  readonly posted: number;
  readonly pending: number;
  readonly awaitingCount: number;
}

export async function fundingAccountOf(db: Db, businessId: string, environment: Environment): Promise<FundingRow | null> {
  const [row] = await queryRows<{ id: string; posted: string; pending: string; awaiting_count: number }>(
    db,
    sql`select id, posted_minor::text as posted, pending_minor::text as pending, awaiting_count from funding_accounts
        where business_id = ${businessId}::uuid and environment = ${environment} order by id limit 1`,
  );
  return row === undefined
    ? null
    : { id: row.id, posted: Number(row.posted), pending: Number(row.pending), awaitingCount: row.awaiting_count };
}

/** Payouts of a funding account by funding_status. */
export async function fundingStatusCounts(
  db: Db,
  fundingAccountId: string,
  ids: readonly string[],
): Promise<Record<string, number>> {
  const rows = await queryRows<{ funding_status: string; n: number }>(
    db,
    sql`select funding_status, count(*)::int as n from payouts
        where id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) and (funding_account_id = ${fundingAccountId}::uuid or funding_account_id is null)
        group by funding_status`,
  );
  return Object.fromEntries(rows.map((r) => [r.funding_status, r.n]));
}
