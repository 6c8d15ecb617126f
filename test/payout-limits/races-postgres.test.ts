// The daily limit under real concurrency (PostgreSQL only: PGlite runs one transaction at a time): a daily limit of
// 100.00 and 30 concurrent approvals of 10.00: exactly 10 pass, the other 20 are refused with 409
// DAILY_LIMIT_EXCEEDED and stay pending, and the day's usage is exactly the limit.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import { createPayout, decide, payableBeneficiary } from "../payouts/payout-fixtures.js";

const APPROVALS = 30;
const AMOUNT = 1_000;
const DAILY = 10_000;

describe.skipIf(!onPostgres)("daily limit races on PostgreSQL", () => {
  let t: TestApp;

  beforeAll(async () => {
    // 20 approvals at once on the day's usage row (the rest queue for a connection): a real race, and room on the server
    // (max_connections 100) for the other test file the PostgreSQL pass runs beside this one.
    t = await buildTestApp({ env: { DATABASE_POOL_SIZE: "20" } });
  });
  afterAll(async () => t?.close());

  it(`a daily limit of 100.00 and ${APPROVALS} concurrent approvals of 10.00: exactly 10 pass`, async () => {
    // Everything starts the day before the race (bank details are never usable before their creation).
    t.clock.set(new Date(TEST_START.getTime() - 86_400_000));
    const business = await registerBusiness(t.app, "Daily limit race");
    const key = business.keys.sandbox;
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/payout-limits",
      headers: bearer(key),
      payload: { limits: [{ currency: "EUR", per_payout_max_minor: null, daily_max_minor: DAILY }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    // The first approval in a currency opens the sandbox funding account: done the day before, so the race is on
    // the day's usage alone and the opener takes nothing of it.
    const opener = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: AMOUNT });
    expect((await decide(t.app, key, opener.payout_id, "approve")).statusCode).toBe(201);
    t.clock.set(TEST_START);
    const ids: string[] = [];
    for (let i = 0; i < APPROVALS; i += 1)
      ids.push((await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: AMOUNT })).payout_id);

    const answers = await Promise.all(ids.map((id) => decide(t.app, key, id, "approve")));
    const codes = answers.map((a) => (a.statusCode === 201 ? "approved" : `${a.statusCode} ${a.json().error?.code}`));
    expect(
      codes.filter((c) => c === "approved"),
      codes.join(", "),
    ).toHaveLength(DAILY / AMOUNT);
    expect(codes.filter((c) => c !== "approved")).toEqual(
      Array.from({ length: APPROVALS - DAILY / AMOUNT }, () => "409 DAILY_LIMIT_EXCEEDED"),
    );
    const statuses = await queryRows<{ status: string; count: number }>(
      t.runtime.deps.database.db,
      sql`select status::text as status, count(*)::int as count from payouts where id in ${ids} group by status order by status`,
    );
    expect(statuses).toEqual([
      { status: "approved", count: DAILY / AMOUNT },
      { status: "pending_approval", count: APPROVALS - DAILY / AMOUNT },
    ]);
    const limits = await t.app.inject({ method: "GET", url: "/v1/payout-limits", headers: bearer(key) });
    expect(limits.json().limits[0]).toMatchObject({ used_today_minor: DAILY, remaining_today_minor: 0 });
  });
});
