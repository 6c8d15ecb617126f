// `payouts statements upload|list` and `payouts statement-lines list` as a child process against the real service
// (production, a SEPA rail whose debtor IBAN the statement names): a camt.053 written by hand is read, its lines
// listed by status, the balance check printed in words; the same file again adds nothing; a file naming no account
// of the Business is refused with the service's code and a non-zero exit; a bad --status is a usage error.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sepaConfig, uniqueSepaOriginator } from "../bank-rails/bank-rail-fixtures.js";
import { camt053ByHand } from "../helpers/camt053-by-hand.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { expectIsoValid } from "../helpers/iso-xsd.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { type CliHarness, createCliHarness } from "./cli-helpers.js";

let t: TestApp;
let business: RegisteredBusiness;
let cli: CliHarness;
let iban: string;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "reconciliation-cli-"));
  t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  business = await registerBusiness(t.app);
  const originator = uniqueSepaOriginator();
  iban = String(originator.iban).replaceAll(" ", "");
  const put = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/sepa",
    headers: bearer(business.keys.production),
    payload: sepaConfig({
      originator,
      delivery: { kind: "local_directory", outbound_directory: "out", inbound_directory: "in" },
    }),
  });
  expect(put.statusCode, put.body).toBe(201);
  cli = await createCliHarness({ PAYOUTS_BASE_URL: `http://127.0.0.1:${address.port}` });
});
afterAll(async () => {
  await cli?.close();
  await t?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const asAdmin = () => ({ env: { PAYOUTS_API_KEY: business.keys.production } });

async function statementFile(name: string, accountIban: string, closing: string): Promise<string> {
  const xml = await expectIsoValid(
    camt053ByHand(accountIban, "2026-05-27", "0.00", closing, [
      { direction: "CRDT", amount: "1250.00", reference: `CLI-CREDIT-${name}`, remittance: "INCOMING FROM CUSTOMER" },
      { direction: "DBIT", amount: "40.00", reference: `CLI-DEBIT-${name}`, remittance: "ACCOUNT FEE" },
    ]),
  );
  const file = path.join(cli.cwd, `${name}.xml`);
  writeFileSync(file, xml);
  return file;
}

describe("payouts statements and statement-lines", () => {
  it("uploads a statement, lists it with its balance check and its lines by status, and adds nothing the second time", async () => {
    const file = await statementFile("day1", iban, "9999.00");
    const uploaded = await cli.run(["statements", "upload", file], asAdmin());
    expect(uploaded.code, uploaded.stderr).toBe(0);
    expect(uploaded.stdout).toContain("camt.053");
    expect(uploaded.stdout).toMatch(/lines: 2 \(/);
    expect(uploaded.stdout).toContain("balance check: MISMATCH: bank 9999.00 EUR");

    const again = await cli.run(["statements", "upload", file, "--json"], asAdmin());
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ duplicate: true, line_count: 2, format: "camt.053" });

    const listed = await cli.run(["statements", "list"], asAdmin());
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/STATEMENT\s+FORMAT\s+PERIOD\s+FUNDING ACCOUNT\s+LINES\s+BALANCE CHECK/);
    expect(listed.stdout.trim().split("\n")).toHaveLength(2);
    expect(listed.stdout).toContain("2026-05-27");

    const unmatched = await cli.run(["statement-lines", "list", "--status", "unmatched"], asAdmin());
    expect(unmatched.code, unmatched.stderr).toBe(0);
    expect(unmatched.stdout).toMatch(/CLI-CREDIT-day1/);
    expect(unmatched.stdout).toMatch(/credit\s+1250\.00 EUR/);
    expect(unmatched.stdout).toMatch(/debit\s+40\.00 EUR/);
    const review = await cli.run(["statement-lines", "list", "--status", "needs_review", "--json"], asAdmin());
    expect(review.code, review.stderr).toBe(0);
    expect(JSON.parse(review.stdout)).toEqual([]);
  });

  it("refuses a statement of another account with the service's code, and a bad status before sending", async () => {
    const stranger = String(uniqueSepaOriginator().iban).replaceAll(" ", "");
    const file = await statementFile("stranger", stranger, "0.00");
    const refused = await cli.run(["statements", "upload", file], asAdmin());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: .+ \[[A-Z_]+, request /);
    const badStatus = await cli.run(["statement-lines", "list", "--status", "lost"], asAdmin());
    expect(badStatus.code).toBe(2);
    const missing = await cli.run(["statements", "upload", path.join(cli.cwd, "nothing-here.xml")], asAdmin());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("enoent");
  });
});
