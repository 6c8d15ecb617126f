// Funding accounts and top-ups for the top-ups tests: an account opened through the funding module's own offer (as
// a first payout of a currency opens it), its balances read back, and the top-up requests.
import { and, asc, eq } from "drizzle-orm";
import type { defineFunding } from "../../src/modules/funding/index.js";
import type { Tenant } from "../../src/platform/auth/actor.js";
import { type Db, transaction } from "../../src/platform/db/client.js";
import { events } from "../../src/platform/events/events.schema.js";
import { bearer } from "../helpers/factories.js";
import type { TestApp } from "../helpers/test-app.js";

type Funding = ReturnType<typeof defineFunding>;

function fundingOf(t: TestApp): Funding {
  const funding = t.runtime.deps.modules.modules.find((m) => m.name === "funding");
  if (funding === undefined) throw new Error("no funding module in the composition");
  return funding as Funding;
}

/** The tenant's sandbox (or simulator, in production) funding account of `currency`, opened if absent. */
export async function openFundingAccount(t: TestApp, tenant: Tenant, currency = "EUR"): Promise<string> {
  const funding = fundingOf(t);
  const kind = tenant.environment === "sandbox" ? "sandbox" : "simulator";
  const row = await transaction(t.runtime.deps.database.db, (tx) =>
    funding.offers.payoutPostings.ensureFundingAccount(tx, tenant, currency, { kind }),
  );
  return row.id;
}

export async function balancesOf(t: TestApp, tenant: Tenant, fundingAccountId: string) {
  const row = await fundingOf(t).offers.findFundingAccount(t.runtime.deps.database.db, tenant, fundingAccountId);
  if (row === null) throw new Error("no such funding account");
  return { posted: row.postedMinor, pending: row.pendingMinor };
}

export function recordTopUp(t: TestApp, key: string, fundingAccountId: string, payload: Record<string, unknown>) {
  return t.app.inject({
    method: "POST",
    url: `/v1/funding-accounts/${fundingAccountId}/top-ups`,
    headers: bearer(key),
    payload,
  });
}

export function decideTopUp(t: TestApp, key: string, topUpId: string, outcome: "approve" | "reject", reason?: string) {
  return t.app.inject({
    method: "POST",
    url: `/v1/top-ups/${topUpId}/${outcome}`,
    headers: bearer(key),
    ...(outcome === "reject" ? { payload: reason === undefined ? {} : { reason } } : {}),
  });
}

export async function topUpEvents(db: Db, topUpId: string) {
  const rows = await db
    .select({ type: events.type, data: events.data })
    .from(events)
    .where(and(eq(events.subjectId, topUpId)))
    .orderBy(asc(events.sequence));
  return rows.map((row) => ({ type: row.type, data: row.data as Record<string, unknown> }));
}
