// Bulk upload in a real Chromium against the real app (test/helpers/dashboard-browser.ts): a CSV with one bad
// row is refused in the preview with the bad cell marked and nothing sent; the fixed file is sent and every row
// gets its result (downloadable as CSV); the same file again is a replay that creates nothing; the upload is
// listed as a batch whose pending payouts are approved together. axe scans and screenshots at desktop and 375 px.
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, type DashboardHarness, noticeIfNoBrowser, startDashboard } from "../helpers/dashboard-browser.js";
import { bearer } from "../helpers/factories.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { TEST_START } from "../helpers/test-app.js";
import { payableBeneficiary } from "../payouts/payout-fixtures.js";

noticeIfNoBrowser("dashboard upload tests");

async function choose(page: Page, name: string, text: string): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text, "utf8") });
}

describe.skipIf(!browserAvailable)("bulk upload in the dashboard", () => {
  let h: DashboardHarness;

  beforeAll(async () => {
    h = await startDashboard("Upload Traders", "ran-uploads");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("marks a bad row before sending, sends the fixed file, shows results, replays a re-upload, approves the batch", async () => {
    h.t.clock.set(TEST_START);
    const { beneficiaryId } = await payableBeneficiary(h.t.app, h.biz.keys.sandbox);
    const { context, page } = await h.newPage();
    await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Bulk upload" }).click();
    await page.getByRole("heading", { level: 1, name: "Bulk upload" }).waitFor();
    await page.getByTestId("batches-empty").waitFor();
    await h.capture(page, "uploads-empty");

    const header = "beneficiary_id,amount,currency,external_ref";
    const bad = `${header}\n${beneficiaryId},12.50,EUR,BULK-1\n${beneficiaryId},3.999,EUR,BULK-2\n`;
    await choose(page, "march.csv", bad);
    await page.getByTestId("upload-preview").waitFor();
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "rows" }).textContent(), { timeout: 15_000 })
      .toContain("1 with errors");
    const invalid = page.locator('[data-testid="preview-row"][data-invalid="true"]');
    await expect(invalid.count()).resolves.toBe(1);
    await expect
      .poll(() => invalid.getByTestId("cell-error").textContent(), { timeout: 15_000 })
      .toBe("EUR has at most 2 decimals");
    await expect(page.getByRole("button", { name: /^Send 2 payouts/ }).isDisabled()).resolves.toBe(true);
    await h.capture(page, "uploads-preview-invalid");

    // Nothing went to the API.
    const before = await h.t.app.inject({ method: "GET", url: "/v1/payouts", headers: bearer(h.biz.keys.sandbox) });
    expect(before.json().payouts).toEqual([]);

    const fixed = `${header}\n${beneficiaryId},12.50,EUR,BULK-1\n${beneficiaryId},3.99,EUR,BULK-2\n`;
    await choose(page, "march.csv", fixed);
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "rows" }).textContent(), { timeout: 15_000 })
      .toContain("all valid");
    await page.getByRole("button", { name: "Send 2 payouts" }).click();
    await page.getByTestId("upload-results").waitFor();
    await expect
      .poll(() => page.getByTestId("results-summary").textContent(), { timeout: 15_000 })
      .toBe("2 created · 0 replayed · 0 failed");
    await expect(page.getByTestId("result-row").allTextContents()).resolves.toEqual([
      expect.stringContaining("Created"),
      expect.stringContaining("Created"),
    ]);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download results (CSV)" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("march-results.csv");
    const csv = (await readFile(await download.path(), "utf8")).split("\r\n");
    expect(csv[0]).toBe("beneficiary_id,amount,currency,external_ref,result,payout_id,payout_status,error_code,error_message");
    expect(csv[1]).toMatch(new RegExp(`^${beneficiaryId},12.50,EUR,BULK-1,created,[0-9a-f-]{36},pending_approval,,$`));
    await page.getByTestId("batch-row").waitFor();
    await h.capture(page, "uploads-results");

    // The payouts carry the amounts in minor units, and the upload id is the SHA-256 of the bytes.
    const after = await h.t.app.inject({ method: "GET", url: "/v1/payouts", headers: bearer(h.biz.keys.sandbox) });
    const payouts = after.json().payouts as { amount_minor: number; upload_id: string; channel: string }[];
    expect(payouts.map((p) => p.amount_minor).sort((a, b) => a - b)).toEqual([399, 1250]);
    const { createHash } = await import("node:crypto");
    expect(new Set(payouts.map((p) => p.upload_id))).toEqual(
      new Set([`sha256-${createHash("sha256").update(fixed).digest("hex")}`]),
    );

    // The same file again: a replay, nothing new.
    await page.getByRole("button", { name: "Upload another file" }).click();
    await choose(page, "march-again.csv", fixed);
    await page.getByRole("button", { name: "Send 2 payouts" }).click();
    await page.getByTestId("replay-notice").waitFor();
    await expect
      .poll(() => page.getByTestId("replay-notice").textContent(), { timeout: 15_000 })
      .toContain("This file was uploaded before");
    await expect
      .poll(() => page.getByTestId("results-summary").textContent(), { timeout: 15_000 })
      .toBe("0 created · 2 replayed · 0 failed");
    await h.capture(page, "uploads-replay");
    const again = await h.t.app.inject({ method: "GET", url: "/v1/payouts", headers: bearer(h.biz.keys.sandbox) });
    expect(again.json().payouts).toHaveLength(2);

    // One batch, two pending payouts, approved together.
    const batch = page.getByTestId("batch-row");
    await expect(batch.count()).resolves.toBe(1);
    await expect.poll(() => batch.textContent(), { timeout: 15_000 }).toContain("€16.49");
    await batch.getByRole("button", { name: /^Approve 2 pending payouts/ }).click();
    const decision = page.getByRole("dialog", { name: "Approve 2 payouts" });
    await decision.getByRole("button", { name: "Approve", exact: true }).click();
    await decision.getByText("2 of 2 approved.").waitFor();
    await decision.getByRole("button", { name: "Close", exact: true }).click();
    await expect.poll(() => batch.textContent(), { timeout: 15_000 }).toContain("Approved");
    await expect(batch.getByText("None").count()).resolves.toBe(1);
    expect(h.cspViolations).toEqual([]);
    await context.close();
  });
});
