// `payouts balances` and `payouts top-ups` as a child process against the real service: the funding accounts with
// posted, held, available and waiting; a top-up recorded by one person, refused to them, approved by another
// (the balance then shows it), rejected with a reason; errors with the envelope's code and a non-zero exit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addTeamMember, type TeamMember } from "../helpers/team.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { openFundingAccount } from "../top-ups/top-up-fixtures.js";
import { type CliHarness, createCliHarness } from "./cli-helpers.js";

let t: TestApp;
let business: RegisteredBusiness;
let checker: TeamMember;
let cli: CliHarness;
let accountId: string;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  business = await registerBusiness(t.app);
  checker = await addTeamMember(t, business.businessId);
  accountId = await openFundingAccount(t, { businessId: business.businessId, environment: "sandbox" }, "EUR");
  cli = await createCliHarness({ PAYOUTS_BASE_URL: `http://127.0.0.1:${address.port}` });
});
afterAll(async () => {
  await cli?.close();
  await t?.close();
});

const asMaker = () => ({ env: { PAYOUTS_API_KEY: business.keys.sandbox } });
const asChecker = () => ({ env: { PAYOUTS_API_KEY: checker.keys.sandbox } });

describe("payouts balances and top-ups", () => {
  it("records a top-up, refuses its maker's approval, and shows the balance once another person approved it", async () => {
    const empty = await cli.run(["balances", "--json"], asMaker());
    expect(empty.code, empty.stderr).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual([
      expect.objectContaining({ id: accountId, currency: "EUR", posted_minor: 0, pending_minor: 0, available_minor: 0 }),
    ]);

    const created = await cli.run(
      ["top-ups", "create", "--funding-account", accountId, "--amount-minor", "250000", "--reference", "WIRE-77", "--json"],
      asMaker(),
    );
    expect(created.code, created.stderr).toBe(0);
    const topUp = JSON.parse(created.stdout) as { id: string; status: string };
    expect(topUp.status).toBe("pending_approval");

    const pending = await cli.run(["top-ups", "list", "--status", "pending_approval"], asMaker());
    expect(pending.code, pending.stderr).toBe(0);
    expect(pending.stdout).toContain(topUp.id);
    expect(pending.stdout).toContain("2500.00 EUR");

    const own = await cli.run(["top-ups", "approve", topUp.id], asMaker());
    expect(own.code).toBe(1);
    expect(own.stderr).toContain("TOP_UP_MAKER_CHECKER_VIOLATION");

    const approved = await cli.run(["top-ups", "approve", topUp.id, "--json"], asChecker());
    expect(approved.code, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ id: topUp.id, status: "approved" });

    const balances = await cli.run(["balances"], asMaker());
    expect(balances.code, balances.stderr).toBe(0);
    expect(balances.stdout).toMatch(/POSTED\s+HELD\s+AVAILABLE\s+WAITING/);
    expect(balances.stdout).toMatch(
      new RegExp(`${accountId}.*2500\\.00 EUR\\s+0\\.00 EUR\\s+2500\\.00 EUR\\s+0 \\(0\\.00 EUR\\)`),
    );
  });

  it("rejects with a reason, refuses a second decision with its code, and checks its options before sending", async () => {
    const created = await cli.run(
      ["top-ups", "create", "--funding-account", accountId, "--amount-minor", "100", "--reference", "WIRE-78", "--json"],
      asMaker(),
    );
    const topUp = JSON.parse(created.stdout) as { id: string };
    const rejected = await cli.run(["top-ups", "reject", topUp.id, "--reason", "Not on the statement", "--json"], asChecker());
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(JSON.parse(rejected.stdout)).toMatchObject({ status: "rejected", reason: "Not on the statement" });
    const again = await cli.run(["top-ups", "approve", topUp.id], asChecker());
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("TOP_UP_ALREADY_DECIDED");

    const badAmount = await cli.run(
      ["top-ups", "create", "--funding-account", accountId, "--amount-minor", "12.5", "--reference", "R"],
      asMaker(),
    );
    expect(badAmount.code).toBe(2);
    const noReason = await cli.run(["top-ups", "reject", topUp.id], asChecker());
    expect(noReason.code).toBe(2);
  });
});
