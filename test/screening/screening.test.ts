// Sanctions screening through the API, on lists the operator loads in the publishers' formats: a Beneficiary
// screened at creation and on a change of name, a hit refusing new payouts and holding an approved one, cleared
// by another admin (never the person whose change was screened) or confirmed, and reloads of a list that find a
// new hit and that clear one (the durable rescreen job).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { bearer, createApiKey, createBeneficiary, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addTeamMember, type TeamMember } from "../helpers/team.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide, getPayout, newKey, payableBeneficiary, postPayout } from "../payouts/payout-fixtures.js";
import { euCsv, euXml, type ListedParty, ofacAddCsv, ofacAltCsv, ofacSdnCsv } from "./list-writers.js";
import { putSanctionsList } from "./operator-lists.js";

const OPERATOR_TOKEN = "op-".padEnd(40, "x");
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

const SDN: ListedParty[] = [
  {
    ref: "7160",
    kind: "individual",
    name: "KARIMOV, Rustam Ilyich",
    aliases: ["Rustam KARIMOFF"],
    programs: ["RUSSIA-EO14024"],
    address: { street: "Tverskaya 1", city: "Moscow", country: "Russia", iso2: "RU" },
  },
  { ref: "36", kind: "entity", name: "AERO-CARIBBEAN AIRLINES", programs: ["CUBA"] },
];
const EU_PARTY: ListedParty = {
  ref: "13",
  kind: "individual",
  name: "Olga Vasilyevna Sorokina",
  aliases: ["Ольга Сорокина"],
  address: { street: "Nevsky 5", city: "Saint Petersburg", country: "Russia", iso2: "RU" },
};

describe("sanctions screening", () => {
  let t: TestApp;
  let business: RegisteredBusiness;
  let second: TeamMember;
  let key: string;

  beforeAll(async () => {
    t = await buildTestApp({ env: { OPERATOR_TOKEN } });
    business = await registerBusiness(t.app);
    second = await addTeamMember(t, business.businessId);
    key = business.keys.sandbox;
    // Screening is the destination policy's switch (off by default); turning it on tightens, so it applies at once.
    const policy = await t.app.inject({
      method: "PUT",
      url: "/v1/destination-policy",
      headers: bearer(key),
      payload: { screening: "on" },
    });
    expect(policy.statusCode, policy.body).toBe(200);
  });
  afterAll(async () => t?.close());

  const loadList = (listId: string, files: { format: string; content: string }[], headers = operator) =>
    putSanctionsList(t.app, headers, listId, files);
  const loadOfac = (parties: ListedParty[]) =>
    loadList("ofac_sdn", [
      { format: "ofac_sdn", content: ofacSdnCsv(parties) },
      { format: "ofac_alt", content: ofacAltCsv(parties) },
      { format: "ofac_add", content: ofacAddCsv(parties) },
    ]);
  const getBeneficiary = async (id: string) =>
    (await t.app.inject({ method: "GET", url: `/v1/beneficiaries/${id}`, headers: bearer(key) })).json();
  const screeningDecision = (
    id: string,
    outcome: "clear" | "confirm",
    by: string,
    reason = "Different person: date of birth differs",
  ) =>
    t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${id}/screening/${outcome}`,
      headers: bearer(by),
      payload: { reason },
    });
  const eventsOf = async (beneficiaryId: string) =>
    queryRows<{ type: string; data: Record<string, unknown> }>(
      t.runtime.deps.database.db,
      sql`select type, data from events where subject_id = ${beneficiaryId}::uuid and type like 'beneficiary.screening%' order by sequence`,
    );
  const drain = () => t.runtime.createWorker(`w-${newKey()}`).drain();

  it("the operator route takes only the operator token, and refuses files it cannot read", async () => {
    expect((await loadList("ofac_sdn", [{ format: "ofac_sdn", content: ofacSdnCsv(SDN) }], bearer(key))).statusCode).toBe(401);
    expect(
      (await loadList("ofac_sdn", [{ format: "ofac_sdn", content: ofacSdnCsv(SDN) }], { authorization: "Bearer nope" }))
        .statusCode,
    ).toBe(401);
    const bad = await loadList("ofac_sdn", [{ format: "ofac_sdn", content: "not,a,sdn,file\n" }]);
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json().error.code).toBe("SANCTIONS_LIST_INVALID");
    const wrongList = await loadList("eu_consolidated", [{ format: "ofac_sdn", content: ofacSdnCsv(SDN) }]);
    expect(wrongList.statusCode).toBe(422);
  });

  it("a Beneficiary created under a listed alias is a potential match: new payouts refused until another admin clears it", async () => {
    const loaded = await loadOfac(SDN);
    expect(loaded.statusCode, loaded.body).toBe(200);
    expect(loaded.json()).toMatchObject({ list_id: "ofac_sdn", version: 1, entry_count: 2, changed: true });
    // The same files again change nothing.
    expect((await loadOfac(SDN)).json()).toMatchObject({ version: 1, changed: false, rescreen_run_id: null });
    await drain();

    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const renamed = await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${beneficiaryId}`,
      headers: bearer(key),
      payload: { first_name: "Rustam", last_name: "Karimoff", name: "Rustam Karimoff" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      screening_status: "potential_match",
      screening_match: { list_id: "ofac_sdn", entry_ref: "7160", entry_name: "KARIMOV, Rustam Ilyich", status: "open" },
    });
    expect(renamed.json().screening_match.score).toBeGreaterThanOrEqual(0.9);
    // The rename asks for a new acknowledgment; given, the screening hit is what still refuses payouts.
    expect(
      (await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiaryId}/acknowledge`, headers: bearer(key) }))
        .statusCode,
    ).toBe(200);

    const refused = await postPayout(t.app, key, {
      beneficiary_id: beneficiaryId,
      amount_minor: 500,
      currency: "EUR",
      idempotency_key: newKey(),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe("SANCTIONS_REVIEW_REQUIRED");

    const hits = await t.app.inject({
      method: "GET",
      url: `/v1/screening-hits?status=open&beneficiary_id=${beneficiaryId}`,
      headers: bearer(key),
    });
    expect(hits.json().screening_hits).toHaveLength(1);
    expect(hits.json().screening_hits[0]).toMatchObject({
      status: "open",
      matched_name: "Rustam KARIMOFF",
      screened_country: "DE",
      entry: {
        list_id: "ofac_sdn",
        ref: "7160",
        kind: "individual",
        aliases: ["Rustam KARIMOFF"],
        countries: ["RU"],
        programs: ["RUSSIA-EO14024"],
      },
      triggered_by: { membership_id: business.membershipId },
    });
    expect((await eventsOf(beneficiaryId)).map((e) => e.type)).toEqual(["beneficiary.screening_hit"]);

    // The person whose change was screened may not clear it, with another key of theirs neither; a read-only key may not.
    expect((await screeningDecision(beneficiaryId, "clear", key)).json().error.code).toBe("SCREENING_MAKER_CHECKER_VIOLATION");
    const otherKey = await createApiKey(t.app, key, "business_admin");
    expect((await screeningDecision(beneficiaryId, "clear", otherKey.key)).statusCode).toBe(403);
    const readOnly = await createApiKey(t.app, key, "business_read_only");
    expect((await screeningDecision(beneficiaryId, "clear", readOnly.key)).statusCode).toBe(403);

    const cleared = await screeningDecision(beneficiaryId, "clear", second.keys.sandbox);
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({
      screening_status: "cleared",
      hits: [{ status: "cleared", decided_by: { membership_id: second.membershipId } }],
    });
    expect((await screeningDecision(beneficiaryId, "clear", second.keys.sandbox)).json().error.code).toBe(
      "SCREENING_NO_OPEN_HIT",
    );
    expect((await getBeneficiary(beneficiaryId)).screening_status).toBe("cleared");
    expect((await eventsOf(beneficiaryId)).map((e) => e.type)).toEqual([
      "beneficiary.screening_hit",
      "beneficiary.screening_cleared",
    ]);
    await createPayout(t.app, key, { beneficiary_id: beneficiaryId });

    // A reload finding the same entry for the same name keeps it cleared.
    await loadOfac([...SDN, { ref: "99", kind: "entity", name: "NOBODY RELATED LTD" }]);
    await drain();
    expect((await getBeneficiary(beneficiaryId)).screening_status).toBe("cleared");
  });

  it("a reload that lists a payee holds its approved payout until cleared; a reload that drops the entry clears it", async () => {
    expect((await loadOfac(SDN)).statusCode).toBe(200);
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${beneficiaryId}`,
      headers: bearer(key),
      payload: { first_name: "Olga", last_name: "Sorokina", name: "Olga Sorokina" },
    });
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiaryId}/acknowledge`, headers: bearer(key) });
    expect((await getBeneficiary(beneficiaryId)).screening_status).toBe("clear");
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });

    const loaded = await loadList("eu_consolidated", [{ format: "eu_xml", content: euXml([EU_PARTY]) }]);
    expect(loaded.json()).toMatchObject({ list_id: "eu_consolidated", version: 1, entry_count: 1, changed: true });
    await drain();
    const listed = await getBeneficiary(beneficiaryId);
    expect(listed).toMatchObject({
      screening_status: "potential_match",
      screening_match: { list_id: "eu_consolidated", entry_ref: "13" },
    });
    const hit = (await eventsOf(beneficiaryId)).find((e) => e.type === "beneficiary.screening_hit");
    expect(hit?.data).toMatchObject({ beneficiary_id: beneficiaryId, hit: { entry_name: "Olga Vasilyevna Sorokina" } });

    // Approving is still possible; the money does not move.
    expect((await decide(t.app, second.keys.sandbox, payout.payout_id, "approve")).statusCode).toBe(201);
    await drain();
    expect(await getPayout(t.app, key, payout.payout_id)).toMatchObject({ status: "approved" });

    // The EU list again, as CSV, without the entry: the hit is withdrawn, the Beneficiary clear, the payout sent.
    const reloaded = await loadList("eu_consolidated", [
      { format: "eu_csv", content: euCsv([{ ref: "14", kind: "entity", name: "Baltic Shipping Holding" }]) },
    ]);
    expect(reloaded.json()).toMatchObject({ version: 2, entry_count: 1, changed: true });
    await drain();
    expect(await getBeneficiary(beneficiaryId)).toMatchObject({ screening_status: "clear", screening_match: null });
    const cleared = (await eventsOf(beneficiaryId)).find((e) => e.type === "beneficiary.screening_cleared");
    expect(cleared?.data).toMatchObject({ screening_status: "clear", cleared_by: "rescreening" });
    expect(await getPayout(t.app, key, payout.payout_id)).toMatchObject({ status: "disbursed" });
  });

  it("a confirmed match keeps the Beneficiary blocked, also after a change of name", async () => {
    const created = await createBeneficiary(t.app, key, {
      name: "Aerocaribbean Airlines",
      beneficiary_type: "business",
      business_name: "Aero Caribbean Airlines",
    });
    expect(created).toMatchObject({ screening_status: "potential_match" });
    const confirmed = await screeningDecision(created.id, "confirm", second.keys.sandbox, "Same airline, same address");
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ screening_status: "confirmed_match" });
    const renamed = await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${created.id}`,
      headers: bearer(key),
      payload: { name: "Blue Sky Travel", business_name: "Blue Sky Travel" },
    });
    expect(renamed.json()).toMatchObject({ screening_status: "confirmed_match" });
    const [audit] = await queryRows<{ n: number }>(
      t.runtime.deps.database.db,
      sql`select count(*)::int as n from audit_records where action = 'beneficiary_screening_decided' and subject_id = ${created.id}`,
    );
    expect(audit?.n).toBe(1);
  });

  it("another Business sees none of the hits; with its destination policy's screening off, its payees are not screened", async () => {
    const other = await registerBusiness(t.app);
    const { beneficiaryId: unscreened } = await payableBeneficiary(t.app, other.keys.sandbox);
    const renamed = await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${unscreened}`,
      headers: bearer(other.keys.sandbox),
      payload: { first_name: "Rustam", last_name: "Karimoff", name: "Rustam Karimoff" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ screening_status: "not_screened", screening_match: null });
    const mine = await t.app.inject({ method: "GET", url: "/v1/screening-hits", headers: bearer(key) });
    const hitId = mine.json().screening_hits[0].id;
    expect(
      (await t.app.inject({ method: "GET", url: "/v1/screening-hits", headers: bearer(other.keys.sandbox) })).json()
        .screening_hits,
    ).toEqual([]);
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/screening-hits/${hitId}`, headers: bearer(other.keys.sandbox) })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/screening-hits/${hitId}`, headers: bearer(business.keys.production) }))
        .statusCode,
    ).toBe(404);
  });
});
