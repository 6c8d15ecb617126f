// `payouts screening-hits list` as a child process against the real service: a tiny OFAC SDN list loaded through
// the operator route, screening on, a Beneficiary that hits an alias; the list prints the hit (listed entry, list,
// matched name, score as a percentage), --status filters it, --json gives the API's objects, and a bad --status is
// a usage error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createBeneficiary, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import type { ListedParty } from "../screening/list-writers.js";
import { loadOfacList } from "../screening/operator-lists.js";
import { type CliHarness, createCliHarness } from "./cli-helpers.js";

const OPERATOR_TOKEN = "op-cli-".padEnd(40, "x");
const SDN: ListedParty[] = [
  { ref: "36", kind: "entity", name: "AERO-CARIBBEAN AIRLINES", aliases: ["AEROCARIBBEAN AIRLINES"], programs: ["CUBA"] },
];

let t: TestApp;
let business: RegisteredBusiness;
let cli: CliHarness;
let beneficiaryId: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { OPERATOR_TOKEN } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  business = await registerBusiness(t.app);
  const key = business.keys.sandbox;
  const policy = await t.app.inject({
    method: "PUT",
    url: "/v1/destination-policy",
    headers: bearer(key),
    payload: { screening: "on" },
  });
  expect(policy.statusCode, policy.body).toBe(200);
  await loadOfacList(t.app, OPERATOR_TOKEN, SDN);
  await t.runtime.createWorker(`w-${Math.random()}`).drain();
  const created = await createBeneficiary(t.app, key, {
    beneficiary_type: "business",
    name: "Aerocaribbean Airlines",
    business_name: "Aerocaribbean Airlines",
  });
  expect(created).toMatchObject({ screening_status: "potential_match" });
  beneficiaryId = created.id;
  cli = await createCliHarness({ PAYOUTS_BASE_URL: `http://127.0.0.1:${address.port}` });
});
afterAll(async () => {
  await cli?.close();
  await t?.close();
});

const asAdmin = () => ({ env: { PAYOUTS_API_KEY: business.keys.sandbox } });

describe("payouts screening-hits list", () => {
  it("lists the hit in a table and as JSON, and filters by status", async () => {
    const listed = await cli.run(["screening-hits", "list", "--status", "open"], asAdmin());
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(
      /HIT\s+STATUS\s+BENEFICIARY\s+SCREENED NAME\s+LISTED ENTRY\s+LIST\s+MATCHED NAME\s+SCORE\s+FOUND/,
    );
    expect(listed.stdout.trim().split("\n")).toHaveLength(2);
    expect(listed.stdout).toContain(beneficiaryId);
    expect(listed.stdout).toContain("AERO-CARIBBEAN AIRLINES (36)");
    expect(listed.stdout).toContain("OFAC SDN");
    expect(listed.stdout).toMatch(/\d{2,3}\.\d%/);

    const json = await cli.run(["screening-hits", "list", "--beneficiary", beneficiaryId, "--json"], asAdmin());
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject([
      { beneficiary_id: beneficiaryId, status: "open", entry: { list_id: "ofac_sdn", ref: "36" } },
    ]);

    const none = await cli.run(["screening-hits", "list", "--status", "cleared"], asAdmin());
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout.trim()).toBe("no screening hit");

    const bad = await cli.run(["screening-hits", "list", "--status", "maybe"], asAdmin());
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("maybe");
  });
});
