// Payouts created before the maker's person was recorded: the upgrade migration fills in the membership and
// user behind the creating key, so maker-checker compares people on old payouts too.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payouts } from "../../src/modules/payouts/payouts.schema.js";
import { MIGRATIONS_FOLDER } from "../../src/platform/db/migrate.js";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide, payableBeneficiary } from "./payout-fixtures.js";

let t: TestApp;
let business: RegisteredBusiness;
beforeAll(async () => {
  t = await buildTestApp();
  business = await registerBusiness(t.app);
});
afterAll(async () => t?.close());

describe("the maker of payouts created before makers were recorded", () => {
  it("is filled in from the creating key, and maker-checker then refuses that person's other key", async () => {
    const db = t.runtime.deps.database.db;
    const key = business.keys.sandbox;
    const secondKeyOfTheMaker = await createApiKey(t.app, key, "business_admin", "second key");
    await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      headers: bearer(key),
      payload: { rules: [], maker_checker: true },
    });
    const payee = await payableBeneficiary(t.app, key);
    const payout = await createPayout(t.app, key, { beneficiary_id: payee.beneficiaryId });
    // As an older version stored it: the key only.
    await db.execute(
      sql`update payouts set created_by_membership_id = null, created_by_user_id = null where id = ${payout.payout_id}::uuid`,
    );
    const backfill = await readFile(path.join(MIGRATIONS_FOLDER, "0007_backfill_payout_makers.sql"), "utf8");
    await db.execute(sql.raw(backfill));
    const [row] = await db.select().from(payouts).where(eq(payouts.id, payout.payout_id));
    expect(row).toMatchObject({ createdByMembershipId: business.membershipId, createdByUserId: business.userId });
    const approve = await decide(t.app, secondKeyOfTheMaker.key, payout.payout_id, "approve");
    expect(approve.statusCode).toBe(403);
    expect(approve.json().error.code).toBe("MAKER_CHECKER_VIOLATION");
  });
});
