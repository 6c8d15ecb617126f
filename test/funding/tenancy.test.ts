// The shared auth / role / tenancy check for the funding-account routes: 401 for every kind of bad key, a
// read-only key refused on PATCH (403) and served on reads, another Business's or environment's account answers
// 404 like a missing id, lists never show another tenant's accounts. The account is created the way a Business
// gets one: its first approved payout of a currency.

import { bearer } from "../helpers/factories.js";
import { describeTenancyMatrix, type MatrixContext } from "../helpers/tenancy-matrix.js";
import { createPayout, decide, payableBeneficiary } from "../payouts/payout-fixtures.js";

async function fundingAccountOf(context: MatrixContext): Promise<string> {
  const key = context.tenant.keys.business_admin;
  const { beneficiaryId } = await payableBeneficiary(context.app, key);
  const payout = await createPayout(context.app, key, { beneficiary_id: beneficiaryId });
  const approved = await decide(context.app, key, payout.payout_id, "approve");
  if (approved.statusCode !== 201) throw new Error(`approve: ${approved.statusCode} ${approved.body}`);
  const list = await context.app.inject({ method: "GET", url: "/v1/funding-accounts", headers: bearer(key) });
  const [account] = list.json().funding_accounts as { id: string }[];
  if (account === undefined) throw new Error("no funding account after an approval");
  return account.id;
}

describeTenancyMatrix("funding accounts", [
  { method: "GET", url: () => "/v1/funding-accounts", access: "read", setup: fundingAccountOf, listKey: "funding_accounts" },
  { method: "GET", url: (id) => `/v1/funding-accounts/${id}`, access: "read", setup: fundingAccountOf },
  {
    method: "PATCH",
    url: (id) => `/v1/funding-accounts/${id}`,
    access: "write",
    setup: fundingAccountOf,
    payload: () => ({ name: "Main EUR" }),
  },
  { method: "GET", url: (id) => `/v1/funding-accounts/${id}/balance`, access: "read", setup: fundingAccountOf },
  { method: "GET", url: (id) => `/v1/funding-accounts/${id}/transfers`, access: "read", setup: fundingAccountOf },
]);
