// Top-up decisions racing on PostgreSQL (PGlite runs one transaction at a time, so this proves nothing there): two
// approvals of the same top-up at once, by two different people, have one winner (200) and one clean 409, and the
// funding account is credited exactly once, round after round; an approval racing a rejection has one winner too.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addTeamMember, type TeamMember } from "../helpers/team.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import { balancesOf, decideTopUp, openFundingAccount, recordTopUp } from "./top-up-fixtures.js";

const ROUNDS = 20;

describe.skipIf(!onPostgres)("top-up races on PostgreSQL", () => {
  let t: TestApp;
  let business: RegisteredBusiness;
  let first: TeamMember;
  let second: TeamMember;
  let accountId: string;
  const tenant = () => ({ businessId: business.businessId, environment: "sandbox" as const });

  beforeAll(async () => {
    t = await buildTestApp();
    business = await registerBusiness(t.app);
    first = await addTeamMember(t, business.businessId);
    second = await addTeamMember(t, business.businessId);
    accountId = await openFundingAccount(t, tenant(), "EUR");
  });
  afterAll(async () => t?.close());

  async function creditsOf(topUpId: string): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      t.runtime.deps.database.db,
      sql`select count(*)::int as n from ledger_transfers where idempotency_key = ${`top_up:${topUpId}:credit`}`,
    );
    return row?.n ?? 0;
  }

  it(`two approvals of one top-up at once credit it exactly once (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const before = await balancesOf(t, tenant(), accountId);
      const topUp = (
        await recordTopUp(t, business.keys.sandbox, accountId, { amount_minor: 1000 + round, reference: `R-${round}` })
      ).json();
      const answers = await Promise.all([
        decideTopUp(t, first.keys.sandbox, topUp.id, "approve"),
        decideTopUp(t, second.keys.sandbox, topUp.id, "approve"),
      ]);
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses, answers.map((a) => a.body).join("\n")).toEqual([200, 409]);
      expect(answers.find((a) => a.statusCode === 409)?.json().error.code).toBe("TOP_UP_ALREADY_DECIDED");
      expect(await creditsOf(topUp.id)).toBe(1);
      expect(await balancesOf(t, tenant(), accountId)).toEqual({ posted: before.posted + 1000 + round, pending: before.pending });
    }
  });

  it("an approval racing a rejection has one winner, and credits only when the approval won", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const before = await balancesOf(t, tenant(), accountId);
      const topUp = (
        await recordTopUp(t, business.keys.sandbox, accountId, { amount_minor: 500, reference: `X-${round}` })
      ).json();
      const [approval, rejection] = await Promise.all([
        decideTopUp(t, first.keys.sandbox, topUp.id, "approve"),
        decideTopUp(t, second.keys.sandbox, topUp.id, "reject", "duplicate"),
      ]);
      expect([approval.statusCode, rejection.statusCode].sort()).toEqual([200, 409]);
      const approved = approval.statusCode === 200;
      expect(await creditsOf(topUp.id)).toBe(approved ? 1 : 0);
      expect((await balancesOf(t, tenant(), accountId)).posted).toBe(before.posted + (approved ? 500 : 0));
    }
  });
});
