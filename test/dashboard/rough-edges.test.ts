// The rough edges a new user met (issue 30), in a real Chromium against the real app: the product's name and icon
// on the sign-in page (and no 404 for /favicon.ico), a not-found page for an unknown address, country and
// currency pickers with names (typing "Germany" can no longer store Georgia), a Beneficiary's Declare and
// Delete on screen at phone width, and the banner that tells the production simulator from real production.
// axe scans and screenshots at desktop and 375 px (test/helpers/dashboard-browser.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sepaConfig } from "../bank-rails/bank-rail-fixtures.js";
import {
  browserAvailable,
  type DashboardHarness,
  noticeIfNoBrowser,
  PHONE,
  pickOption,
  startDashboard,
} from "../helpers/dashboard-browser.js";
import { bearer } from "../helpers/factories.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";

noticeIfNoBrowser("dashboard rough-edges tests");

describe.skipIf(!browserAvailable)("rough edges of the dashboard", () => {
  let h: DashboardHarness;

  beforeAll(async () => {
    h = await startDashboard("Rough Edges Ltd", "ran-rough-edges");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("the sign-in page names the product and shows its icon; /favicon.ico is served", async () => {
    const { context, page } = await h.newPage();
    try {
      await page.goto(`${h.base}/dashboard/sign-in`);
      await page.getByTestId("product-name").waitFor();
      expect(await page.getByTestId("product-name").textContent()).toContain("Payout orchestration");
      const icon = await page.locator('link[rel="icon"]').getAttribute("href");
      expect(icon).toBe("/dashboard/favicon.svg");
      for (const url of ["/favicon.ico", "/dashboard/favicon.svg"]) {
        const answer = await page.request.get(`${h.base}${url}`);
        expect(answer.status(), url).toBe(200);
        expect(answer.headers()["content-type"]).toContain("image/svg+xml");
      }
      await h.capture(page, "sign-in-product");
    } finally {
      await context.close();
    }
  });

  it("an unknown address shows a not-found page with the way back, not Home", async () => {
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
      await page.goto(`${h.base}/dashboard/no-such-page`);
      await page.getByTestId("not-found").waitFor();
      expect(page.url()).toBe(`${h.base}/dashboard/no-such-page`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Page not found");
      await h.capture(page, "not-found");
      await page.getByRole("link", { name: "Go to Home" }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toMatch(/^\/dashboard\/?$/);
    } finally {
      await context.close();
    }
  });

  it("country and currency pickers take names and store codes; Declare and Delete fit a phone", async () => {
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
      await page.goto(`${h.base}/dashboard/beneficiaries`);
      await page.getByRole("button", { name: "New Beneficiary" }).click();
      const create = page.getByRole("dialog", { name: "New Beneficiary" });
      await create.getByLabel("E-mail").fill("grace@example.com");
      await create.getByLabel("First name").fill("Grace");
      await create.getByLabel("Country of residence").fill("Germany");
      // Only what the list holds can be chosen: Germany, not Georgia.
      await page.getByRole("option", { name: "Germany (DE)", exact: true }).waitFor();
      expect(await page.getByRole("option", { name: "Georgia (GE)", exact: true }).count()).toBe(0);
      await h.capture(page, "country-picker");
      await page.getByRole("option", { name: "Germany (DE)", exact: true }).click();
      await create.getByRole("button", { name: "Create" }).click();
      await page.getByRole("heading", { level: 1, name: "Grace" }).waitFor();
      const id = new URL(page.url()).pathname.split("/").at(-1) ?? "";
      const stored = await h.t.app.inject({ method: "GET", url: `/v1/beneficiaries/${id}`, headers: bearer(h.biz.keys.sandbox) });
      expect(stored.json().country_of_residence).toBe("DE");

      const form = page.getByRole("form", { name: "Add a bank account" });
      await form.getByLabel("Account holder name").fill("Grace Hopper");
      await pickOption(page, form.getByLabel("Bank country"), "Germany", "Germany (DE)");
      await pickOption(page, form.getByLabel("Currency"), "euro", "Euro (EUR)");
      await form.getByLabel("IBAN").fill("DE89370400440532013000");
      await form.getByRole("button", { name: "Add bank account" }).click();
      await form.getByText("Account •••• 3000 added.").waitFor();
      await form.getByLabel("Account holder name").fill("Grace Hopper");
      await pickOption(page, form.getByLabel("Bank country"), "Netherlands", "Netherlands (NL)");
      await pickOption(page, form.getByLabel("Currency"), "EUR", "Euro (EUR)");
      await form.getByLabel("IBAN").fill("NL91ABNA0417164300");
      await form.getByRole("button", { name: "Add bank account" }).click();
      await form.getByText("Account •••• 4300 added.").waitFor();
      const rows = page.getByTestId("destination-row");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
      const first = rows.filter({ hasText: "•••• 3000" });
      const text = (await first.textContent()) ?? "";
      expect(text).toContain("Euro · Germany");
      expect(text).toContain("IBAN");
      expect(text).not.toMatch(/· EUR · DE|\biban\b|Unverified/);

      await page.setViewportSize(PHONE);
      for (const name of ["Declare Account •••• 4300", "Delete Account •••• 4300"]) {
        const button = page.getByRole("button", { name });
        const box = await button.boundingBox();
        expect(box, name).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(PHONE.width);
      }
      await page.getByRole("button", { name: "Declare Account •••• 4300" }).click();
      await expect.poll(() => rows.filter({ hasText: "•••• 4300" }).textContent(), { timeout: 15_000 }).toContain("Declared");
      await h.capture(page, "destinations-phone");
    } finally {
      await context.close();
    }
  }, 240_000);

  it("production on the simulator says so in a banner; a configured bank rail removes it", async () => {
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
      await page.getByTestId("sandbox-banner").waitFor();
      expect(await page.getByTestId("simulator-banner").count()).toBe(0);
      await page.getByText("Production", { exact: true }).click();
      await page.getByTestId("simulator-banner").waitFor();
      expect(await page.getByTestId("simulator-banner").textContent()).toContain("Production simulator");
      expect(await page.getByTestId("sandbox-banner").count()).toBe(0);
      await h.capture(page, "production-simulator-banner");

      const rail = await h.t.app.inject({
        method: "PUT",
        url: "/v1/bank-rails/sepa",
        headers: bearer(h.biz.keys.production),
        payload: sepaConfig(),
      });
      expect(rail.statusCode, rail.body).toBe(201);
      await page.reload();
      await page.getByRole("navigation", { name: "Main" }).waitFor();
      await expect.poll(() => page.getByTestId("simulator-banner").count(), { timeout: 15_000 }).toBe(0);
    } finally {
      await context.close();
    }
  });
});
