// `payouts destination-policy get|set`, `payouts limits get|set` and `payouts bank-account-approvals list|approve|reject`
// as a child process against the real service (issue 29): tightening works with a key and prints the new values;
// a relaxation is refused to a key in the service's words (a person makes it in the dashboard); bad options are
// usage errors; bank details added while approval is required are listed, refused to the person who added them,
// approved or rejected by another.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createBeneficiary, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addTeamMember, type TeamMember } from "../helpers/team.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { type CliHarness, createCliHarness } from "./cli-helpers.js";

let t: TestApp;
let business: RegisteredBusiness;
let second: TeamMember;
let cli: CliHarness;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  business = await registerBusiness(t.app);
  second = await addTeamMember(t, business.businessId);
  cli = await createCliHarness({ PAYOUTS_BASE_URL: `http://127.0.0.1:${address.port}` });
});
afterAll(async () => {
  await cli?.close();
  await t?.close();
});

const as = (key: string) => ({ env: { PAYOUTS_API_KEY: key } });
const admin = () => as(business.keys.sandbox);

describe("payouts destination-policy", () => {
  it("shows the policy, tightens it with a key, and prints the service's refusal of a relaxation", async () => {
    const got = await cli.run(["destination-policy", "get"], admin());
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(/require_approval\s+off/);
    expect(got.stdout).toMatch(/screening\s+off/);

    const set = await cli.run(
      ["destination-policy", "set", "--require-approval", "on", "--cooling-off-hours", "24", "--name-check", "warn"],
      admin(),
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/require_approval\s+on/);
    expect(set.stdout).toMatch(/cooling_off_hours\s+24/);
    expect(set.stdout).toMatch(/name_check\s+warn/);
    const json = await cli.run(["destination-policy", "get", "--json"], admin());
    expect(JSON.parse(json.stdout)).toMatchObject({ require_approval: true, cooling_off_hours: 24, name_check: "warn" });

    const relaxed = await cli.run(["destination-policy", "set", "--cooling-off-hours", "0"], admin());
    expect(relaxed.code).not.toBe(0);
    expect(relaxed.stderr).toContain("CONTROL_WEAKENING_NEEDS_PERSON");
    expect((await cli.run(["destination-policy", "get", "--json"], admin())).stdout).toContain('"cooling_off_hours": 24');

    const nothing = await cli.run(["destination-policy", "set"], admin());
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("nothing to change");
    const bad = await cli.run(["destination-policy", "set", "--name-check", "strict"], admin());
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("strict");
  });
});

describe("payouts limits", () => {
  it("sets the whole set, shows it with today's usage, and refuses a raise by a key", async () => {
    const none = await cli.run(["limits", "get"], admin());
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain("no limits");

    const set = await cli.run(["limits", "set", "--limit", "EUR:250000:1000000", "--limit", "usd:none:500000"], admin());
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/EUR\s+2500\.00 EUR\s+10000\.00 EUR\s+0\.00 EUR\s+10000\.00 EUR/);
    expect(set.stdout).toMatch(/USD\s+none\s+5000\.00 USD/);
    const json = JSON.parse((await cli.run(["limits", "get", "--json"], admin())).stdout);
    expect(json.limits).toEqual([
      expect.objectContaining({ currency: "EUR", per_payout_max_minor: 250000, daily_max_minor: 1000000 }),
      expect.objectContaining({ currency: "USD", per_payout_max_minor: null, daily_max_minor: 500000 }),
    ]);

    const raised = await cli.run(["limits", "set", "--limit", "EUR:250000:none"], admin());
    expect(raised.code).not.toBe(0);
    expect(raised.stderr).toContain("CONTROL_WEAKENING_NEEDS_PERSON");

    for (const args of [
      ["limits", "set"],
      ["limits", "set", "--limit", "EUR:12.50:none"],
      ["limits", "set", "--limit", "EUR:1:1", "--none"],
    ]) {
      const bad = await cli.run(args, admin());
      expect(bad.code, args.join(" ")).toBe(2);
    }
  });
});

describe("payouts bank-account-approvals", () => {
  it("lists pending bank details; the person who added them cannot approve; another approves or rejects", async () => {
    // The policy requires approval (set above): bank details added now wait.
    const key = business.keys.sandbox;
    const added: string[] = [];
    const beneficiary = await createBeneficiary(t.app, key, { first_name: "Jane", last_name: "Doe", country_of_residence: "DE" });
    for (const iban of ["DE89370400440532013000", "DE62370400440532013001"]) {
      const response = await t.app.inject({
        method: "POST",
        url: `/v1/beneficiaries/${beneficiary.id}/bank-accounts`,
        headers: bearer(key),
        payload: { account_holder_name: "Jane Doe", country: "DE", currency: "EUR", iban },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().approval_status).toBe("pending_approval");
      added.push(response.json().id);
    }
    const [first = "", other = ""] = added;

    const listed = await cli.run(["bank-account-approvals", "list"], admin());
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/BANK ACCOUNT\s+BENEFICIARY\s+HOLDER\s+ACCOUNT/);
    for (const id of added) expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain("iban •••• 3000");
    expect(listed.stdout).not.toContain("DE89370400440532013000");

    const own = await cli.run(["bank-account-approvals", "approve", beneficiary.id, first], admin());
    expect(own.code).not.toBe(0);
    expect(own.stderr).toContain("DESTINATION_MAKER_CHECKER_VIOLATION");

    const approved = await cli.run(
      ["bank-account-approvals", "approve", beneficiary.id, first, "--reason", "Checked by phone"],
      as(second.keys.sandbox),
    );
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(new RegExp(`^${first}\\s+approved\\s+usable from \\S+`));
    const rejected = await cli.run(
      ["bank-account-approvals", "reject", beneficiary.id, other, "--json"],
      as(second.keys.sandbox),
    );
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(JSON.parse(rejected.stdout)).toMatchObject({ id: other, approval_status: "rejected" });

    const empty = await cli.run(["bank-account-approvals", "list"], admin());
    expect(empty.stdout.trim()).toBe("no bank account waiting for approval");
  });
});
