// One debtor account, one Business per environment, under a race (PostgreSQL only: PGlite runs one transaction
// at a time, so a race there proves nothing). Several Businesses configure the same new IBAN at the same moment,
// round after round: exactly one of them gets it (201), every other one 409 `BANK_RAIL_DEBTOR_ACCOUNT_TAKEN`,
// and the table holds one rail for that account. The check before the write sees nothing in each racer's
// snapshot; the unique index on (environment, debtor_account_key) decides.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankRailConfigs } from "../../src/modules/bank-rails/bank-rails.schema.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import { sepaConfig, uniqueSepaOriginator } from "./bank-rail-fixtures.js";

const RACERS = 4;
const ROUNDS = 5;

describe.skipIf(!onPostgres)("Businesses racing for one debtor account (PostgreSQL)", () => {
  let t: TestApp;
  let racers: RegisteredBusiness[];

  beforeAll(async () => {
    t = await buildTestApp();
    racers = [];
    for (let i = 0; i < RACERS; i++) racers.push(await registerBusiness(t.app));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("gives the account to exactly one of them, round after round", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const originator = uniqueSepaOriginator();
      const answers = await Promise.all(
        racers.map((business) =>
          t.app.inject({
            method: "PUT",
            url: `/v1/bank-rails/sepa`,
            headers: bearer(business.keys.production),
            // Each racer replaces its rail of the previous round: the new account is the only contested thing.
            payload: sepaConfig({ originator }),
          }),
        ),
      );
      const codes = answers.map((a) => (a.statusCode < 300 ? "ok" : a.json().error?.code));
      expect(
        codes.filter((c) => c === "ok"),
        JSON.stringify(codes),
      ).toHaveLength(1);
      expect(codes.filter((c) => c === "BANK_RAIL_DEBTOR_ACCOUNT_TAKEN")).toHaveLength(RACERS - 1);
      const holders = await t.testDatabase.database.db
        .select({ businessId: bankRailConfigs.businessId })
        .from(bankRailConfigs)
        .where(eq(bankRailConfigs.debtorAccountKey, `sepa:${String(originator.iban)}`));
      expect(holders).toHaveLength(1);
    }
  });
});
