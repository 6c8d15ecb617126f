// Turning screening on (issue 29): nothing is screened while a Business's destination policy has `screening: off`,
// so a Beneficiary created then under a listed name stays `not_screened`, also after a list load's rescreen run.
// Turning it on (PUT /v1/destination-policy, or a second admin approving a pending change that turns it on)
// starts the screening module's durable rescreen run in the same transaction; once the worker ran it, that
// Beneficiary is a `potential_match`. A Business whose screening stays off is still not screened; a PUT that
// leaves screening on starts no run.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { bearer, createBeneficiary, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addMember, asPerson, STRONG_PASSWORD } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { newKey } from "../payouts/payout-fixtures.js";
import type { ListedParty } from "./list-writers.js";
import { loadOfacList } from "./operator-lists.js";

const OPERATOR_TOKEN = "op-enabled-".padEnd(40, "x");
const SDN: ListedParty[] = [
  { ref: "7160", kind: "individual", name: "KARIMOV, Rustam Ilyich", aliases: ["Rustam KARIMOFF"], programs: ["RUSSIA-EO14024"] },
];

describe("turning screening on screens the Business's Beneficiaries", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ env: { OPERATOR_TOKEN } });
    await loadOfacList(t.app, OPERATOR_TOKEN, SDN);
    await drain();
  });
  afterAll(async () => t?.close());

  const drain = () => t.runtime.createWorker(`w-${newKey()}`).drain();
  const putPolicy = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.app.inject({ method: "PUT", url: "/v1/destination-policy", headers, payload });
  const statusOf = async (business: RegisteredBusiness, id: string) =>
    (await t.app.inject({ method: "GET", url: `/v1/beneficiaries/${id}`, headers: bearer(business.keys.sandbox) })).json()
      .screening_status;
  const runCount = async () =>
    (await queryRows<{ n: number }>(t.runtime.deps.database.db, sql`select count(*)::int as n from screening_runs`))[0]?.n;
  /** A Beneficiary under the listed alias, created while the Business's screening is off. */
  async function listedPayee(business: RegisteredBusiness): Promise<string> {
    const created = await createBeneficiary(t.app, business.keys.sandbox, {
      first_name: "Rustam",
      last_name: "Karimoff",
      country_of_residence: "DE",
      name: "Rustam Karimoff",
    });
    expect(created.screening_status).toBe("not_screened");
    return created.id;
  }

  it("PUT screening on: the Beneficiary created while it was off becomes a potential match once the job ran", async () => {
    const business = await registerBusiness(t.app);
    const untouched = await registerBusiness(t.app);
    const id = await listedPayee(business);
    const otherId = await listedPayee(untouched);
    await drain();
    expect(await statusOf(business, id)).toBe("not_screened");

    const runsBefore = await runCount();
    const on = await putPolicy(bearer(business.keys.sandbox), { screening: "on" });
    expect(on.statusCode, on.body).toBe(200);
    expect(await runCount()).toBe((runsBefore ?? 0) + 1);
    await drain();
    expect(await statusOf(business, id)).toBe("potential_match");
    // The other Business's screening is off: its payee is still not screened.
    expect(await statusOf(untouched, otherId)).toBe("not_screened");

    // Screening already on: a PUT that leaves it on starts no run.
    expect((await putPolicy(bearer(business.keys.sandbox), { screening: "on", cooling_off_hours: 12 })).statusCode).toBe(200);
    expect(await runCount()).toBe((runsBefore ?? 0) + 1);
  });

  it("a pending change that turns screening on screens when a second admin approves it", async () => {
    const business = await registerBusiness(t.app);
    const key = business.keys.sandbox;
    const second = await addMember(t.app, key, "business_admin");
    const proposer = await asPerson(t.app, business.email);
    const approver = await asPerson(t.app, second.email, "sandbox", STRONG_PASSWORD);
    const strict = await putPolicy(bearer(key), { require_approval: true });
    expect(strict.statusCode, strict.body).toBe(200);
    const mc = await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      headers: bearer(key),
      payload: { rules: [], maker_checker: true },
    });
    expect(mc.statusCode, mc.body).toBe(200);
    const id = await listedPayee(business);

    // Relaxes require_approval and turns screening on: the whole change waits, nothing is screened yet.
    const pending = await putPolicy(proposer, { require_approval: false, screening: "on" });
    expect(pending.statusCode, pending.body).toBe(202);
    await drain();
    expect(await statusOf(business, id)).toBe("not_screened");

    const approved = await t.app.inject({
      method: "POST",
      url: `/v1/control-changes/${pending.json().id}/approve`,
      headers: approver,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    await drain();
    expect(await statusOf(business, id)).toBe("potential_match");
  });
});
