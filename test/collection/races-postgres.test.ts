// Concurrency on PostgreSQL (PGlite runs one transaction at a time and would hide these races): many
// simultaneous submissions of one link record exactly once; many simultaneous mints leave one open request.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import {
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import { eventsOf, mintLink, PageSession, readBeneficiary } from "./helpers.js";

describe.skipIf(!onPostgres)("collection links under concurrency (PostgreSQL)", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;

  beforeAll(async () => {
    t = await buildTestApp();
    biz = await registerBusiness(t.app);
  });
  afterAll(async () => t?.close());

  it("8 simultaneous submissions of one full_onboarding link: one 200, seven 409, one event, one account", async () => {
    const key = biz.keys.sandbox;
    const beneficiary = await createBeneficiary(t.app, key, { name: "Stub" });
    const link = await mintLink(t.app, key, beneficiary.id, "full_onboarding");
    const sessions = Array.from({ length: 8 }, () => new PageSession(t.app));
    // Step 2 of the page (the bank's country and currency chosen), where the account fields and the CSRF field are.
    const pages = await Promise.all(sessions.map((s) => s.get(`${link.path}?country=DE&currency=EUR`)));
    const responses = await Promise.all(
      sessions.map((session, i) =>
        session.post(link.path, {
          csrf: PageSession.csrfOf(pages[i]!),
          first_name: `Tab${i}`,
          last_name: "Racer",
          country_of_residence: "DE",
          destination: "new",
          "bank.account_holder_name": "Tab Racer",
          "bank.country": "DE",
          "bank.currency": "EUR",
          "bank.iban": GERMAN_IBAN_ACCOUNT.iban,
        }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(await eventsOf(t, beneficiary.id, "beneficiary.details_submitted")).toHaveLength(1);
    expect(await eventsOf(t, beneficiary.id, "beneficiary.bank_account.registered")).toHaveLength(1);
    const winner = responses.findIndex((r) => r.statusCode === 200);
    expect((await readBeneficiary(t.app, key, beneficiary.id)).first_name).toBe(`Tab${winner}`);
  });

  it("8 simultaneous mints for one Beneficiary leave exactly one open request, and it is the one listed", async () => {
    const key = biz.keys.sandbox;
    const beneficiary = await createBeneficiary(t.app, key);
    await registerBankAccount(t.app, key, beneficiary.id);
    const links = await Promise.all(Array.from({ length: 8 }, () => mintLink(t.app, key, beneficiary.id, "payout_destination")));
    const open = await queryRows<{ id: string }>(
      t.runtime.deps.database.db,
      sql`select id from collection_requests where beneficiary_id = ${beneficiary.id} and closed_at is null`,
    );
    expect(open).toHaveLength(1);
    const pending = (await readBeneficiary(t.app, key, beneficiary.id)).pending_requests as Array<{ id: string }>;
    expect(pending.map((p) => p.id)).toEqual([open[0]?.id]);
    const live = links.filter((l) => l.id === open[0]?.id);
    expect(live).toHaveLength(1);
  });
});
