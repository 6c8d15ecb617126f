// Who gets paid, on the screens where a person decides or reviews, in Debian's Chromium against the real app on
// loopback: the approvals inbox names each payout's payee and its masked destination (scheme, last four, country)
// before the amount and the reference, at desktop and at phone width (two stacked columns that fit the screen);
// the decision dialog restates every payee, destination, amount and reference with the count and the total; the
// payouts list shows the payee and finds payouts by the payee's name, its filters folded behind a button on a
// phone; a payout's page names the Beneficiary, linked to its page. No page shows a full account number.
// axe scans (no serious or critical finding) and screenshots at desktop and 375 px (test/helpers/dashboard-browser.ts).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, browserRequired, type DashboardHarness, PHONE, startDashboard } from "../helpers/dashboard-browser.js";
import { bearer, createBeneficiary, GERMAN_IBAN_ACCOUNT, registerBankAccount } from "../helpers/factories.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { createPayout, PERSON_IDENTITY } from "../payouts/payout-fixtures.js";

if (!browserAvailable && !browserRequired) console.warn("NOTICE: dashboard payee tests skipped: no Chromium");

const DESTINATION = "IBAN •••• 3000 · Germany";

describe.skipIf(!browserAvailable && !browserRequired)("payee and destination where a person decides", () => {
  let h: DashboardHarness;
  const ids: Record<string, string> = {};

  async function payee(name: string): Promise<string> {
    const key = h.biz.keys.sandbox;
    const beneficiary = await createBeneficiary(h.t.app, key, { ...PERSON_IDENTITY, name });
    await registerBankAccount(h.t.app, key, beneficiary.id, GERMAN_IBAN_ACCOUNT);
    const ack = await h.t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`,
      headers: bearer(key),
    });
    expect(ack.statusCode, ack.body).toBe(200);
    return beneficiary.id;
  }

  beforeAll(async () => {
    h = await startDashboard("Payee Review", "ran-payee-approvals");
    ids.anna = await payee("Anna Schmidt");
    ids.bert = await payee("Bert Bauer");
    const key = h.biz.keys.sandbox;
    ids.annaPayout = (
      await createPayout(h.t.app, key, { beneficiary_id: ids.anna, amount_minor: 125_000, external_ref: "INV-ANNA-1" })
    ).payout_id;
    ids.bertPayout = (
      await createPayout(h.t.app, key, { beneficiary_id: ids.bert, amount_minor: 9_950, external_ref: "INV-BERT-1" })
    ).payout_id;
  });
  afterAll(async () => {
    await h?.close();
  });

  async function signedIn() {
    const opened = await h.newPage();
    await h.signIn(opened.page, h.biz.email, REGISTRATION_PASSWORD);
    return opened;
  }

  const noFullAccount = async (page: Page) => expect(await page.textContent("body")).not.toContain(GERMAN_IBAN_ACCOUNT.iban);

  it("the inbox names payee and destination before amount and reference; the dialog restates them with count and total", async () => {
    const { context, page } = await signedIn();
    try {
      await page.goto(`${h.base}/dashboard/approvals`);
      const rows = page.getByTestId("approval-row");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
      const anna = rows.filter({ hasText: "Anna Schmidt" });
      await expect.poll(() => anna.textContent(), { timeout: 15_000 }).toContain(DESTINATION);
      expect(await anna.textContent()).toContain("€1,250.00");
      expect(await anna.textContent()).toContain("INV-ANNA-1");
      // Payee and destination come first, then amount and reference.
      const headers = (await page.getByRole("columnheader").allTextContents()).map((text) => text.trim());
      const at = (name: string) => headers.indexOf(name);
      expect(at("Payee")).toBeGreaterThanOrEqual(0);
      expect(at("Payee")).toBeLessThan(at("Destination"));
      expect(at("Destination")).toBeLessThan(at("Amount"));
      expect(at("Amount")).toBeLessThan(at("Reference"));
      // The payee links to the Beneficiary's page.
      expect(await anna.getByRole("link", { name: "Anna Schmidt" }).getAttribute("href")).toBe(
        `/dashboard/beneficiaries/${ids.anna}`,
      );
      await noFullAccount(page);
      await h.capture(page, "approvals-payee");

      // On a phone: the payee, its destination, the amount and the reference all lie inside the screen.
      await page.setViewportSize(PHONE);
      await expect
        .poll(async () => (await page.getByRole("columnheader").allTextContents()).map((text) => text.trim()), {
          timeout: 15_000,
        })
        .not.toContain("Destination");
      for (const text of ["Anna Schmidt", DESTINATION, "€1,250.00", "INV-ANNA-1"]) {
        const box = await anna.getByText(text, { exact: true }).first().boundingBox();
        expect(box, text).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0), `${text} is cut off on a phone`).toBeLessThanOrEqual(PHONE.width);
      }
      const checkbox = await anna.getByRole("checkbox").boundingBox();
      expect((checkbox?.x ?? 0) + (checkbox?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
      await page.setViewportSize({ width: 1280, height: 900 });

      await page.getByRole("button", { name: "Select this page" }).click();
      await page.getByRole("button", { name: "Approve selected" }).click();
      const dialog = page.getByRole("dialog", { name: "Approve 2 payouts" });
      await expect
        .poll(() => dialog.getByTestId("decision-summary").textContent(), { timeout: 15_000 })
        .toBe("Approve 2 payouts to 2 payees, total €1,349.50");
      const restated = dialog.getByTestId("decision-payout");
      expect(await restated.count()).toBe(2);
      const annaLine = await restated.filter({ hasText: "Anna Schmidt" }).textContent();
      for (const text of [DESTINATION, "€1,250.00", "INV-ANNA-1"]) expect(annaLine).toContain(text);
      const bertLine = await restated.filter({ hasText: "Bert Bauer" }).textContent();
      for (const text of [DESTINATION, "€99.50", "INV-BERT-1"]) expect(bertLine).toContain(text);
      await noFullAccount(page);
      await h.capture(page, "approvals-payee-dialog");

      await dialog.getByRole("button", { name: "Approve", exact: true }).click();
      await dialog.getByText("2 of 2 approved.").waitFor();
      const results = await dialog.getByTestId("decision-result").allTextContents();
      expect(results.some((r) => r.includes("Anna Schmidt"))).toBe(true);
      expect(results.some((r) => r.includes("Bert Bauer"))).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("the payouts list shows and searches the payee; the payout page names the Beneficiary with a link", async () => {
    const { context, page } = await signedIn();
    try {
      await page.goto(`${h.base}/dashboard/payouts`);
      const rows = page.getByTestId("payout-row");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
      expect(await rows.filter({ hasText: "Bert Bauer" }).textContent()).toContain(DESTINATION);
      const search = page.getByRole("form", { name: "Search payouts by payee" });
      await search.getByLabel("Payee").fill("schmidt");
      await search.getByRole("button", { name: "Find payee" }).click();
      await page.waitForURL((url) => url.searchParams.get("payee") === "schmidt");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
      expect(await rows.textContent()).toContain("Anna Schmidt");
      await noFullAccount(page);
      await h.capture(page, "payouts-payee-search");

      // On a phone the filters fold behind one button; the rows keep payee, reference, amount and status.
      await page.setViewportSize(PHONE);
      const toggle = page.getByRole("button", { name: /^Filters/ });
      await toggle.waitFor({ timeout: 15_000 });
      expect(await page.getByRole("button", { name: "Apply filters" }).isVisible()).toBe(false);
      const row = rows.first();
      for (const text of ["Anna Schmidt", "INV-ANNA-1", "€1,250.00"]) {
        const box = await row.getByText(text, { exact: true }).first().boundingBox();
        expect((box?.x ?? 0) + (box?.width ?? 0), `${text} is cut off on a phone`).toBeLessThanOrEqual(PHONE.width);
      }
      await toggle.click();
      await page.getByRole("button", { name: "Apply filters" }).waitFor({ state: "visible" });
      await page.setViewportSize({ width: 1280, height: 900 });

      await rows.getByRole("link", { name: "INV-ANNA-1" }).click();
      const link = page.getByTestId("payout-payee");
      await link.waitFor({ timeout: 15_000 });
      expect(await link.textContent()).toBe("Anna Schmidt");
      expect(await link.getAttribute("href")).toBe(`/dashboard/beneficiaries/${ids.anna}`);
      expect(await page.textContent("main")).toContain(DESTINATION);
      await noFullAccount(page);
      await h.capture(page, "payout-payee");
    } finally {
      await context.close();
    }
  });

  it("the bulk preview and its results name each row's payee", async () => {
    const { context, page } = await signedIn();
    try {
      await page.goto(`${h.base}/dashboard/uploads`);
      await page.getByRole("heading", { level: 1, name: "Bulk upload" }).waitFor();
      const unknown = "0192f1c2-7a3b-7c4d-8e5f-6a7b8c9d0e1f";
      const csv = `beneficiary_id,amount,currency,external_ref\n${ids.anna},1.00,EUR,BULK-ANNA\n${ids.bert},2.00,EUR,BULK-BERT\n${unknown},3.00,EUR,BULK-NOBODY\n`;
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: "payees.csv", mimeType: "text/csv", buffer: Buffer.from(csv, "utf8") });
      const payees = page.getByTestId("upload-preview").getByTestId("cell-payee");
      await expect
        .poll(() => payees.allTextContents(), { timeout: 15_000 })
        .toEqual(["Anna Schmidt", "Bert Bauer", "Not a ready Beneficiary"]);
      await h.capture(page, "uploads-preview-payees");

      await page.getByRole("button", { name: "Send 3 payouts" }).click();
      await page.getByTestId("upload-results").waitFor();
      await expect
        .poll(() => page.getByTestId("result-payee").allTextContents(), { timeout: 15_000 })
        .toEqual(["Anna Schmidt", "Bert Bauer", "—"]);
      await h.capture(page, "uploads-results-payees");
    } finally {
      await context.close();
    }
  });
});
