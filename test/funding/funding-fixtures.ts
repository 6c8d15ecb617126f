// Shared set-up for funding tests: reads of funding accounts, transfers and balances through the API, and the
// ledger's invariants read from the database (the row's balances equal the fold of its transfers; every transfer
// sums to zero).
import { expect } from "vitest";
import { foldOfFundingAccount, unbalancedTransferIds } from "../../src/modules/ledger/ledger.shared.js";
import type { Db } from "../../src/platform/db/client.js";
import type { AppInstance } from "../../src/platform/http/types.js";
import { bearer } from "../helpers/factories.js";

export interface FundingAccountJson {
  id: string;
  currency: string;
  kind: string;
  posted_minor: number;
  pending_minor: number;
  available_minor: number;
  awaiting_funds: { count: number; amount_minor: number };
  enforcement: string;
  [field: string]: unknown;
}

export interface TransferJson {
  id: string;
  step: string;
  cause: { type: string; id: string };
  idempotency_key: string;
  entries: { account: string; amount_minor: number; pending: boolean }[];
  posted_after_minor: number;
  pending_after_minor: number;
  available_after_minor: number;
  created_at: string;
}

export async function fundingAccounts(app: AppInstance, key: string): Promise<FundingAccountJson[]> {
  const response = await app.inject({ method: "GET", url: "/v1/funding-accounts", headers: bearer(key) });
  if (response.statusCode !== 200) throw new Error(`funding accounts: ${response.statusCode} ${response.body}`);
  return response.json().funding_accounts;
}

export async function onlyFundingAccount(app: AppInstance, key: string): Promise<FundingAccountJson> {
  const accounts = await fundingAccounts(app, key);
  expect(accounts).toHaveLength(1);
  return accounts[0] as FundingAccountJson;
}

export async function transfersOf(app: AppInstance, key: string, accountId: string): Promise<TransferJson[]> {
  const response = await app.inject({
    method: "GET",
    url: `/v1/funding-accounts/${accountId}/transfers?limit=200`,
    headers: bearer(key),
  });
  if (response.statusCode !== 200) throw new Error(`transfers: ${response.statusCode} ${response.body}`);
  return response.json().transfers;
}

/** The steps of one payout's transfers, oldest first. */
export async function payoutSteps(app: AppInstance, key: string, accountId: string, payoutId: string): Promise<string[]> {
  return (await transfersOf(app, key, accountId))
    .filter((t) => t.cause.type === "payout" && t.cause.id === payoutId)
    .reverse()
    .map((t) => t.step);
}

export function setFunding(app: AppInstance, key: string, accountId: string, body: Record<string, unknown>) {
  return app.inject({ method: "PATCH", url: `/v1/funding-accounts/${accountId}`, headers: bearer(key), payload: body });
}

export function sandboxCredit(app: AppInstance, key: string, accountId: string, amountMinor: number) {
  return app.inject({
    method: "POST",
    url: `/v1/sandbox/funding-accounts/${accountId}/credits`,
    headers: bearer(key),
    payload: { amount_minor: amountMinor, reference: "test" },
  });
}

/** Every transfer sums to zero and the account's row equals the fold of its entries. */
export async function expectLedgerConsistent(db: Db, account: FundingAccountJson): Promise<void> {
  expect(await unbalancedTransferIds(db)).toEqual([]);
  const fold = await foldOfFundingAccount(db, account.id);
  expect({ posted: account.posted_minor, pending: account.pending_minor }).toEqual({
    posted: fold.postedMinor,
    pending: fold.pendingMinor,
  });
  expect(account.available_minor).toBe(account.posted_minor - account.pending_minor);
}
