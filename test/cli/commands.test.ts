// The `payouts` CLI as a child process against the real service: login and its config file, beneficiaries
// import and payouts bulk from CSV files, decisions, reads and list filters, trigger, events list; --json
// parsed; clear errors with the envelope's code and non-zero exit codes.
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payouts } from "../../src/modules/payouts/payouts.schema.js";
import { SIMULATOR_SCENARIOS } from "../../src/rails/production-simulator.js";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout } from "../payouts/payout-fixtures.js";
import { type CliHarness, createCliHarness } from "./cli-helpers.js";

let t: TestApp;
let business: RegisteredBusiness;
let cli: CliHarness;
let baseUrl: string;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  baseUrl = `http://127.0.0.1:${address.port}`;
  business = await registerBusiness(t.app);
  cli = await createCliHarness({ PAYOUTS_BASE_URL: baseUrl });
});
afterAll(async () => {
  await cli?.close();
  await t?.close();
});

const withKey = () => ({ env: { PAYOUTS_API_KEY: business.keys.sandbox } });

function json<T = Record<string, unknown>>(stdout: string): T {
  return JSON.parse(stdout) as T;
}

describe("payouts CLI", () => {
  it("login refuses a wrong key, stores a good one in a file only the user can read, and uses it", async () => {
    const refused = await cli.run(["login", "--json"], { input: "pok_sandbox_wrong\n" });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr)).toMatchObject({ error: { status: 401 } });
    await expect(stat(cli.configFile)).rejects.toThrow();

    const missing = await cli.run(["payouts", "list"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("missing_api_key");

    const login = await cli.run(["login", "--json"], { input: `${business.keys.sandbox}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(json(login.stdout)).toMatchObject({ environment: "sandbox", base_url: baseUrl });
    expect((await stat(cli.configFile)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(cli.configFile))).mode & 0o777).toBe(0o700);

    const list = await cli.run(["payouts", "list", "--json"]);
    expect(list.code, list.stderr).toBe(0);
    expect(Array.isArray(json(list.stdout))).toBe(true);
  });

  it("imports Beneficiaries from a CSV file with per-row results, and refuses a bad header before sending", async () => {
    const file = path.join(cli.cwd, "beneficiaries.csv");
    const tag = Date.now().toString(36);
    await writeFile(
      file,
      [
        "email,first_name,last_name,acknowledged,bank.account_holder_name,bank.country,bank.currency,bank.iban",
        `ana-${tag}@example.com,Ana,Lima,true,Ana Lima,DE,EUR,DE89370400440532013000`,
        `"bo-${tag}@example.com",Bo,"Chen, Jr",true,Bo Chen,DE,EUR,DE89370400440532013000`,
        `cy-${tag}@example.com,Cy,Ode,true,Cy Ode,DE,EUR,DE00000000000000000000`,
      ].join("\n"),
    );
    const result = await cli.run(["beneficiaries", "import", file, "--json"], withKey());
    expect(result.code, result.stderr).toBe(3); // ran, but a row failed
    const body = json<{
      created: number;
      failed: number;
      results: { index: number; status: string; error?: { field: string } }[];
    }>(result.stdout);
    expect(body).toMatchObject({ created: 2, failed: 1 });
    expect(body.results[2]).toMatchObject({ index: 2, status: "failed", error: { field: "bank.iban" } });

    const human = await cli.run(["beneficiaries", "import", file], withKey());
    expect(human.stdout).toMatch(/0 created, 2 already existed/);

    const bad = path.join(cli.cwd, "bad-header.csv");
    await writeFile(bad, "mail,first_name,bank.iban\nx@example.com,X,DE89370400440532013000\n");
    const refused = await cli.run(["beneficiaries", "import", bad], withKey());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unknown column "mail"');
    expect(refused.stderr).toContain("csv_bad_header");

    const ragged = path.join(cli.cwd, "ragged.csv");
    await writeFile(ragged, "email,bank.iban\nx@example.com\n");
    const raggedResult = await cli.run(["beneficiaries", "import", ragged, "--json"], withKey());
    expect(raggedResult.code).toBe(1);
    expect(JSON.parse(raggedResult.stderr)).toMatchObject({ error: { code: "csv_bad_row" } });
    expect(JSON.parse(raggedResult.stderr).error.message).toContain("line 2");
  });

  it("sends payouts in bulk from a CSV file, writes a results CSV, and replays the same file", async () => {
    const source = path.join(cli.cwd, "payees.csv");
    const tag = `${Date.now().toString(36)}b`;
    await writeFile(
      source,
      `email,first_name,last_name,acknowledged,bank.account_holder_name,bank.country,bank.currency,bank.iban\npay-${tag}@example.com,Pay,Ee,true,Pay Ee,DE,EUR,DE89370400440532013000\n`,
    );
    const imported = json<{ results: { beneficiary_id: string }[] }>(
      (await cli.run(["beneficiaries", "import", source, "--json"], withKey())).stdout,
    );
    const beneficiaryId = imported.results[0]?.beneficiary_id;
    const file = path.join(cli.cwd, "payouts.csv");
    await writeFile(
      file,
      `beneficiary_id,amount_minor,currency,external_ref\n${beneficiaryId},1500,EUR,inv-1\n${beneficiaryId},2500,EUR,inv-2\n${beneficiaryId},-5,EUR,inv-3\n`,
    );
    const first = await cli.run(["payouts", "bulk", file, "--json"], withKey());
    expect(first.code, first.stderr).toBe(3);
    const body = json<{
      uploadId: string;
      created: number;
      failed: number;
      results: { payout_id: string | null; status: string }[];
    }>(first.stdout);
    const { createHash } = await import("node:crypto");
    expect(body.uploadId).toBe(
      `sha256-${createHash("sha256")
        .update(await readFile(file))
        .digest("hex")}`,
    );
    expect(body).toMatchObject({ created: 2, failed: 1 });
    const resultsCsv = (await readFile(`${file}.results.csv`, "utf8")).trim().split("\n");
    expect(resultsCsv[0]).toBe("row,status,payout_id,payout_status,error_code,error_message");
    expect(resultsCsv).toHaveLength(4);
    expect(resultsCsv[1]).toMatch(/^2,created,[0-9a-f-]{36},pending_approval,,$/);
    expect(resultsCsv[3]).toMatch(/^4,failed,,,/);

    const again = await cli.run(["payouts", "bulk", file, "--json"], withKey());
    expect(json(again.stdout)).toMatchObject({ created: 0, replayed: 2, failed: 1 });

    const [one, two] = body.results.map((r) => r.payout_id) as [string, string];
    const approve = await cli.run(["payouts", "approve", one, "--json"], withKey());
    expect(approve.code, approve.stderr).toBe(0);
    expect(json(approve.stdout)).toEqual([{ payout_id: one, status: "approved" }]);
    const reject = await cli.run(["payouts", "reject", two, "--reason", "not this month", "--json"], withKey());
    expect(json(reject.stdout)).toEqual([{ payout_id: two, status: "rejected" }]);
    // A decided payout cannot be decided the other way: that id fails, the others still go through, exit 1.
    const mixed = await cli.run(["payouts", "approve", two, one], withKey());
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toMatch(new RegExp(`${two}  error [A-Za-z_]+: `));
    expect(mixed.stdout).toContain(`${one}  approved`);

    const get = await cli.run(["payouts", "get", two, "--json"], withKey());
    expect(json(get.stdout)).toMatchObject({ payout_id: two, status: "rejected", channel: "csv", upload_id: body.uploadId });
    const listed = await cli.run(["payouts", "list", "--upload", body.uploadId, "--json"], withKey());
    expect(
      json<{ payout_id: string }[]>(listed.stdout)
        .map((p) => p.payout_id)
        .sort(),
    ).toEqual([one, two].sort());

    // --replaces lists a failed payout's replacements only.
    const failed = await createPayout(t.app, business.keys.sandbox, { beneficiary_id: beneficiaryId });
    await t.runtime.deps.database.db.update(payouts).set({ status: "failed" }).where(eq(payouts.id, failed.payout_id));
    const replacement = await createPayout(t.app, business.keys.sandbox, {
      beneficiary_id: beneficiaryId,
      replaces_payout_id: failed.payout_id,
    });
    const replacements = await cli.run(["payouts", "list", "--replaces", failed.payout_id, "--json"], withKey());
    expect(json<{ payout_id: string }[]>(replacements.stdout).map((p) => p.payout_id)).toEqual([replacement.payout_id]);

    const notFound = await cli.run(["payouts", "get", "0196f1a3-0a1b-7c20-8e55-8091a2b3c4d6"], withKey());
    expect(notFound.code).toBe(1);
    expect(notFound.stderr).toMatch(/^error: .+ \[[A-Za-z_]+, request .+\]/);
  });

  it("lists the simulator scenarios the API reference shows, and triggers one", async () => {
    const list = await cli.run(["trigger", "--list", "--json"]);
    expect(list.code).toBe(0);
    expect(json<{ name: string }[]>(list.stdout).map((s) => s.name)).toEqual(SIMULATOR_SCENARIOS.map((s) => s.name));

    const sandboxOnly = await cli.run(["trigger", "refused_at_submit"], withKey());
    expect(sandboxOnly.code).toBe(1);
    expect(sandboxOnly.stderr).toContain("scenario_needs_production");
    const unknown = await cli.run(["trigger", "nonsense"], withKey());
    expect(unknown.code).toBe(2);

    const triggered = await cli.run(["trigger", "default", "--json"], withKey());
    expect(triggered.code, triggered.stderr).toBe(0);
    const sandboxTrigger = json<{ payout: { payout_id: string; status: string }; what_happens: string }>(triggered.stdout);
    const payout = sandboxTrigger.payout;
    expect(payout.status).toBe("approved");
    // A sandbox key is told the sandbox's path, not the production simulator's timings.
    expect(sandboxTrigger.what_happens).toContain("disbursed at once");
    expect(sandboxTrigger.what_happens).not.toContain("5 min");
    await t.runtime.createWorker("w").drain();

    const events = await cli.run(["events", "list", "--subject", payout.payout_id, "--json"], withKey());
    expect(events.code, events.stderr).toBe(0);
    expect(json<{ type: string }[]>(events.stdout).map((e) => e.type)).toEqual([
      "payout.disbursed",
      "payout.acknowledged",
      "payout.disbursement_submitted",
    ]);
    // A production key drives the production simulator: the scenario's amount makes the rail refuse it.
    const refused = await cli.run(["trigger", "refused_at_submit", "--json"], {
      env: { PAYOUTS_API_KEY: business.keys.production },
    });
    expect(refused.code, refused.stderr).toBe(0);
    const refusedTrigger = json<{ payout: { payout_id: string; amount_minor: number }; what_happens: string }>(refused.stdout);
    expect(refusedTrigger.what_happens).toContain("production simulator");
    const refusedPayout = refusedTrigger.payout;
    expect(refusedPayout.amount_minor).toBe(100001);
    await t.runtime.createWorker("w").drain();
    const after = await t.app.inject({
      method: "GET",
      url: `/v1/payouts/${refusedPayout.payout_id}`,
      headers: { authorization: `Bearer ${business.keys.production}` },
    });
    expect(after.json()).toMatchObject({ status: "failed" });

    const deliveries = await cli.run(["deliveries", "list", "--json"], withKey());
    expect(deliveries.code, deliveries.stderr).toBe(0);
    expect(json(deliveries.stdout)).toEqual([]);
  });

  it("answers --help for every command and exits 2 on wrong usage", async () => {
    for (const args of [["--help"], ["payouts", "bulk", "--help"], ["listen", "--help"], ["events", "list", "--help"]]) {
      const result = await cli.run(args);
      expect(result.code, args.join(" ")).toBe(0);
      expect(result.stdout).toContain("Usage: payouts");
    }
    const wrong = await cli.run(["payouts", "bulk"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("missing required argument");
  });
});
