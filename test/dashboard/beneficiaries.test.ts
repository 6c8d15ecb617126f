// Beneficiaries in a real Chromium against the real app (test/helpers/dashboard-browser.ts): create one, read
// what is missing for `ready` in words, add a bank account (the API's validation message beside the field, then
// a valid IBAN, shown masked), acknowledge until it is ready, mint a collection link shown once and cancel it,
// declare a second account as the destination and delete it (confirmed),
// archive (confirmed) and restore; the list filters by status and finds by e-mail. axe scans and screenshots at
// desktop and 375 px. The list exports a CSV.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserAvailable,
  type DashboardHarness,
  noticeIfNoBrowser,
  pickOption,
  startDashboard,
} from "../helpers/dashboard-browser.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { TEST_START } from "../helpers/test-app.js";

noticeIfNoBrowser("dashboard Beneficiary tests");

describe.skipIf(!browserAvailable)("Beneficiaries in the dashboard", () => {
  let h: DashboardHarness;

  beforeAll(async () => {
    h = await startDashboard("Beneficiary Works", "ran-beneficiaries");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("creates a Beneficiary, adds a bank account, makes it ready, sends and cancels a link, archives and restores", async () => {
    h.t.clock.set(TEST_START);
    const { context, page } = await h.newPage();
    await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Beneficiaries" }).click();
    await page.getByRole("heading", { level: 1, name: "Beneficiaries" }).waitFor();
    await page.getByTestId("empty").waitFor();
    await h.capture(page, "beneficiaries-empty");

    await page.getByRole("button", { name: "New Beneficiary" }).click();
    const create = page.getByRole("dialog", { name: "New Beneficiary" });
    await create.getByLabel("E-mail").fill("not-an-email");
    await create.getByLabel("First name").fill("Ada");
    // A picker with names: "Germany" finds Germany (DE), never "GE" (Georgia); nothing is chosen yet here.
    await create.getByLabel("Country of residence").fill("Germany");
    await page.getByRole("option", { name: "Germany (DE)", exact: true }).waitFor();
    await create.getByLabel("Country of residence").fill("");
    // Leaving the field closes its list, which would otherwise cover the dialog's buttons.
    await create.getByLabel("E-mail").click();
    await create.getByRole("button", { name: "Create" }).click();
    await expect.poll(() => create.getByRole("alert").textContent(), { timeout: 15_000 }).toMatch(/email/i);
    await h.capture(page, "beneficiary-create-invalid");
    await create.getByLabel("E-mail").fill("ada@example.com");
    await create.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { level: 1, name: "Ada" }).waitFor();
    // Missing in words: the last name, the acknowledgment and a destination.
    const readiness = page.getByTestId("readiness");
    await expect
      .poll(() => readiness.textContent(), { timeout: 15_000 })
      .toContain("Identity details: last name, country of residence");
    await expect.poll(() => readiness.textContent(), { timeout: 15_000 }).toContain("Your compliance acknowledgment");
    await expect.poll(() => readiness.textContent(), { timeout: 15_000 }).toContain("A payout-usable destination");
    await page.getByTestId("destinations-empty").waitFor();
    await h.capture(page, "beneficiary-new");

    // A bad IBAN: the API's message beside the field.
    const form = page.getByRole("form", { name: "Add a bank account" });
    await form.getByLabel("Account holder name").fill("Ada Lovelace");
    await pickOption(page, form.getByLabel("Bank country"), "DE", "Germany (DE)");
    await pickOption(page, form.getByLabel("Currency"), "EUR", "Euro (EUR)");
    await form.getByLabel("IBAN").fill("DE00370400440532013000");
    await form.getByRole("button", { name: "Add bank account" }).click();
    await form.getByRole("alert").waitFor();
    const ibanError = await form.getByLabel("IBAN").getAttribute("aria-describedby");
    expect(ibanError).toBeTruthy();
    await expect(
      page.locator(`[id="${ibanError?.split(" ").find((id) => id.endsWith("error"))}"]`).textContent(),
    ).resolves.toMatch(/iban/i);
    await h.capture(page, "beneficiary-bank-invalid");
    await form.getByLabel("IBAN").fill("DE89370400440532013000");
    await form.getByRole("button", { name: "Add bank account" }).click();
    await form.getByText("Account •••• 3000 added.").waitFor();
    const row = page.getByTestId("destination-row");
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain("Account •••• 3000 · Euro · Germany");
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).not.toContain("0532013000");

    // Identity completed through the API (the page has no edit form), then acknowledged here. The address bar
    // follows the page's navigation by an event of its own: polled, not read once.
    await expect.poll(() => page.url(), { timeout: 15_000 }).toMatch(/\/dashboard\/beneficiaries\/[0-9a-f-]{36}$/);
    const id = page.url().split("/").at(-1) ?? "";
    const update = await h.t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${id}`,
      headers: { authorization: `Bearer ${h.biz.keys.sandbox}` },
      payload: { last_name: "Lovelace", country_of_residence: "GB" },
    });
    expect(update.statusCode).toBe(200);
    await page.reload();
    await page.getByRole("button", { name: "Acknowledge compliance" }).click();
    await expect.poll(() => readiness.textContent(), { timeout: 15_000 }).toContain("Ready to be paid");
    await h.capture(page, "beneficiary-ready");

    // A collection link: shown once, listed as pending, then cancelled after a confirmation.
    await page.getByRole("checkbox", { name: "E-mail it to the Beneficiary" }).uncheck();
    await page.getByRole("button", { name: "Send link" }).click();
    await page.getByTestId("new-link").waitFor();
    await expect.poll(() => page.getByTestId("secret-value").textContent(), { timeout: 15_000 }).toMatch(/\/collect\//);
    await page.getByTestId("pending-link").waitFor();
    await h.capture(page, "beneficiary-link");
    await page.getByRole("button", { name: "Cancel link" }).click();
    await page.getByRole("dialog", { name: "Cancel this link?" }).getByRole("button", { name: "Cancel link" }).click();
    await page.getByTestId("links-empty").waitFor();

    // A second account, declared as the destination, then deleted after a confirmation.
    await form.getByLabel("Account holder name").fill("Ada Lovelace");
    await pickOption(page, form.getByLabel("Bank country"), "United Kingdom", "United Kingdom (GB)");
    await pickOption(page, form.getByLabel("Currency"), "GBP", "British Pound (GBP)");
    await form.getByLabel("IBAN").fill("GB29NWBK60161331926819");
    await form.getByRole("button", { name: "Add bank account" }).click();
    await form.getByText("Account •••• 6819 added.").waitFor();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(2);
    await page.getByRole("button", { name: "Declare Account •••• 6819" }).click();
    const second = row.filter({ hasText: "•••• 6819" });
    await expect.poll(() => second.textContent(), { timeout: 15_000 }).toContain("Declared");
    await expect.poll(() => row.filter({ hasText: "•••• 3000" }).textContent(), { timeout: 15_000 }).not.toContain("Declared");
    await page.getByRole("button", { name: "Delete Account •••• 6819" }).click();
    await page.getByRole("dialog", { name: "Delete Account •••• 6819?" }).getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain("•••• 3000");

    // Archive (confirmed) and restore.
    await page.getByRole("button", { name: "Archive" }).click();
    await page.getByRole("dialog", { name: "Archive this Beneficiary?" }).getByRole("button", { name: "Archive" }).click();
    await page.getByRole("button", { name: "Restore" }).waitFor();
    await expect.poll(() => readiness.textContent(), { timeout: 15_000 }).toContain("It is archived");
    await page.getByRole("button", { name: "Restore" }).click();
    await page.getByRole("button", { name: "Archive" }).waitFor();

    // The list: filtered by status, searched by e-mail.
    await page.getByRole("link", { name: "← Beneficiaries" }).click();
    await expect.poll(() => page.getByTestId("beneficiary-row").count(), { timeout: 15_000 }).toBe(1);
    await h.capture(page, "beneficiaries");
    const [exported] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(exported.suggestedFilename()).toBe("beneficiaries-sandbox.csv");
    const csv = await readFile(await exported.path(), "utf8");
    expect(csv).toContain("ada@example.com");
    expect(csv).not.toContain("0532013000");
    await page.getByRole("textbox", { name: "Search", exact: true }).fill("nobody@example.com");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("No Beneficiary matches.").waitFor();
    await page.getByRole("textbox", { name: "Search", exact: true }).fill("ada@example.com");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect.poll(() => page.getByTestId("beneficiary-row").count(), { timeout: 15_000 }).toBe(1);
    expect(h.cspViolations).toEqual([]);
    await context.close();
  });
});
