// A configured bank rail has its funding account from the moment it is configured (one per debtor account and
// currency, its identifier masked), and a production payout that goes by that rail holds on it at approval.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sepaConfig, sepaPayee } from "../bank-rails/bank-rail-fixtures.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide, getPayout } from "../payouts/payout-fixtures.js";
import { expectLedgerConsistent, fundingAccounts, payoutSteps } from "./funding-fixtures.js";

let t: TestApp;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "funding-bank-rail-"));
  t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root } });
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

it("configuring SEPA opens its EUR funding account; a SEPA payout holds on it, not on the simulator's", async () => {
  const business = await registerBusiness(t.app, "Funding bank rail");
  const key = business.keys.production;
  expect(await fundingAccounts(t.app, key)).toEqual([]);
  const delivery = { kind: "local_directory", outbound_directory: "sepa/out", inbound_directory: "sepa/in" };
  const sepa = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/sepa",
    headers: bearer(key),
    payload: sepaConfig({ delivery }),
  });
  expect(sepa.statusCode, sepa.body).toBe(201);
  const [account] = await fundingAccounts(t.app, key);
  expect(account).toMatchObject({ kind: "bank_rail", rail: "sepa", currency: "EUR", posted_minor: 0, enforcement: "track_only" });
  expect(String(account?.account_identifier_masked)).toMatch(/^\*{4}.{1,4}$/);

  const { beneficiaryId } = await sepaPayee(t.app, key);
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 4200 });
  expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
  expect((await getPayout(t.app, key, payout.payout_id)).funding_status).toBe("reserved");
  const after = await fundingAccounts(t.app, key);
  expect(after).toHaveLength(1);
  expect(after[0]).toMatchObject({ id: account?.id, pending_minor: 4200, available_minor: -4200 });
  expect(await payoutSteps(t.app, key, String(account?.id), payout.payout_id)).toEqual(["hold"]);
  await expectLedgerConsistent(t.runtime.deps.database.db, after[0] as never);
});
