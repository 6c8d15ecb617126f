// One bulk CSV format and one upload id (issue 30): the same file, in the dashboard's format (amount in the
// currency's units, and amount_minor beside it on a row), sent by the dashboard in Chromium and then by the CLI
// is one upload: the CLI replays the dashboard's payouts and creates none. A row whose two amounts disagree is
// marked in the preview. Then the payouts list's Export CSV (with its filter) and the CLI's export of the same
// upload. axe scans and both widths through the harness's capture.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliHarness, createCliHarness } from "../cli/cli-helpers.js";
import { browserAvailable, type DashboardHarness, noticeIfNoBrowser, startDashboard } from "../helpers/dashboard-browser.js";
import { bearer } from "../helpers/factories.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { TEST_START } from "../helpers/test-app.js";
import { payableBeneficiary } from "../payouts/payout-fixtures.js";

noticeIfNoBrowser("dashboard one-CSV-format tests");

async function choose(page: Page, name: string, text: string): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text, "utf8") });
}

describe.skipIf(!browserAvailable)("one bulk CSV format: dashboard and CLI", () => {
  let h: DashboardHarness;
  let cli: CliHarness;

  beforeAll(async () => {
    h = await startDashboard("One Format Traders", "ran-csv-one-format");
    cli = await createCliHarness({ PAYOUTS_BASE_URL: h.base });
  });
  afterAll(async () => {
    await cli?.close();
    await h?.close();
  });

  it("the same file through the dashboard and the CLI is one upload; the export carries it", async () => {
    h.t.clock.set(TEST_START);
    const key = h.biz.keys.sandbox;
    const { beneficiaryId } = await payableBeneficiary(h.t.app, key);
    const { context, page } = await h.newPage();
    await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Bulk upload" }).click();
    await page.getByRole("heading", { level: 1, name: "Bulk upload" }).waitFor();

    const header = "beneficiary_id,amount,amount_minor,currency,external_ref";
    // The disagreeing row is marked before anything is sent.
    await choose(page, "bad.csv", `${header}\n${beneficiaryId},12.50,125,EUR,ONE-1\n`);
    await expect
      .poll(() => page.getByTestId("cell-error").first().textContent(), { timeout: 15_000 })
      .toBe("12.50 EUR is 1250 in minor units, not 125: keep one amount or make them agree");
    await h.capture(page, "uploads-amounts-disagree");

    const file = `${header}\n${beneficiaryId},12.50,1250,EUR,ONE-1\n${beneficiaryId},3.99,,EUR,=ONE-2\n${beneficiaryId},,700,EUR,ONE-3\n`;
    await choose(page, "april.csv", file);
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "rows" }).textContent(), { timeout: 15_000 })
      .toContain("all valid");
    await page.getByRole("button", { name: "Send 3 payouts" }).click();
    await expect
      .poll(() => page.getByTestId("results-summary").textContent(), { timeout: 15_000 })
      .toBe("3 created · 0 replayed · 0 failed");
    await h.capture(page, "uploads-one-format-results");

    const listed = await h.t.app.inject({ method: "GET", url: "/v1/payouts", headers: bearer(key) });
    const payouts = listed.json().payouts as { upload_id: string; amount_minor: number }[];
    expect(payouts.map((p) => p.amount_minor).sort((a, b) => a - b)).toEqual([399, 700, 1250]);
    const uploadId = payouts[0]?.upload_id as string;
    expect(uploadId).toMatch(/^sha256-[0-9a-f]{64}$/);

    // The CLI with the very same bytes: the same upload id, every row replayed, no second set of payouts.
    const saved = path.join(cli.cwd, "april.csv");
    await writeFile(saved, file);
    const sent = await cli.run(["payouts", "bulk", saved, "--json"], { env: { PAYOUTS_API_KEY: key } });
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ uploadId, created: 0, replayed: 3, failed: 0 });
    const after = await h.t.app.inject({ method: "GET", url: "/v1/payouts", headers: bearer(key) });
    expect(after.json().payouts).toHaveLength(3);

    // The payouts list's Export CSV, with the list's upload filter.
    await page.goto(`${h.base}/dashboard/payouts?upload_id=${uploadId}`);
    await page.getByRole("heading", { level: 1, name: "Payouts" }).waitFor();
    await expect.poll(() => page.getByTestId("payout-row").count(), { timeout: 15_000 }).toBe(3);
    await h.capture(page, "payouts-export-button");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-payouts").click()]);
    expect(download.suggestedFilename()).toMatch(/^payouts-sandbox-\d{4}-\d{2}-\d{2}\.csv$/);
    const exported = (await readFile(await download.path(), "utf8")).trim().split("\r\n");
    expect(exported).toHaveLength(4);
    expect(exported[0]).toContain("payee_name");
    expect(exported.some((line) => line.includes(",'=ONE-2,"))).toBe(true);

    // The CLI's export of the same upload, to standard output.
    const cliExport = await cli.run(["payouts", "export", "--upload", uploadId], { env: { PAYOUTS_API_KEY: key } });
    expect(cliExport.code, cliExport.stderr).toBe(0);
    expect(cliExport.stdout.trim().split("\r\n")).toEqual(exported);
    expect(h.cspViolations).toEqual([]);
    await context.close();
  });
});
