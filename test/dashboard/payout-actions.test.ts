// A payout's actions in the dashboard, in Debian's Chromium against the real app on loopback, in production
// through the production rail simulator (no rail injected): a payout of 1,000.01 EUR is refused by the rail at
// submission and fails; the admin opens it, reads the reason, creates the replacement from the form prefilled
// from the failed payout (changing the amount), and the replacement's page says what it replaces while the
// failed one names its replacement. A pending payout is canceled after the confirmation dialog: its page shows
// it canceled and offers none of the actions it no longer allows. The payouts table shows whole status badges at
// phone width, and a refused bank account names the field by its label, its code kept small.
// axe scans and screenshots at desktop and 375 px (test/helpers/dashboard-browser.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sepaConfig } from "../bank-rails/bank-rail-fixtures.js";
import {
  browserAvailable,
  browserRequired,
  type DashboardHarness,
  PHONE,
  pickOption,
  startDashboard,
} from "../helpers/dashboard-browser.js";
import { bearer } from "../helpers/factories.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { createPayout, decide, getPayout, payableBeneficiary } from "../payouts/payout-fixtures.js";

if (!browserAvailable && !browserRequired) console.warn("NOTICE: dashboard payout actions tests skipped: no Chromium");

/** The simulator's scenario amount "refused at submission" (src/rails/production-simulator.ts). */
const REFUSED_AT_SUBMIT = 100_001;
const REFUSAL = "The receiving bank refused the payment: the account number is invalid.";

describe.skipIf(!browserAvailable && !browserRequired)("a payout's actions in the dashboard", () => {
  let h: DashboardHarness;
  let key: string;
  let beneficiaryId: string;

  beforeAll(async () => {
    h = await startDashboard("Payout Actions", "ran-payout-actions");
    key = h.biz.keys.production;
    beneficiaryId = (await payableBeneficiary(h.t.app, key)).beneficiaryId;
  });
  afterAll(async () => {
    await h?.close();
  });

  async function signedInToProduction() {
    const opened = await h.newPage();
    await h.signIn(opened.page, h.biz.email, REGISTRATION_PASSWORD);
    await opened.page.getByText("Production", { exact: true }).click();
    await expect.poll(() => opened.page.getByTestId("sandbox-banner").count(), { timeout: 15_000 }).toBe(0);
    return opened;
  }

  it("replaces a failed payout from a prefilled form; each page names the other", async () => {
    const failed = await createPayout(h.t.app, key, {
      beneficiary_id: beneficiaryId,
      amount_minor: REFUSED_AT_SUBMIT,
      external_ref: "INV-FAILED-7",
    });
    expect((await decide(h.t.app, key, failed.payout_id, "approve")).statusCode).toBe(201);
    await h.t.runtime.createWorker("payout-actions").drain();
    expect(await getPayout(h.t.app, key, failed.payout_id)).toMatchObject({ status: "failed", failure_reason: REFUSAL });

    const { context, page } = await signedInToProduction();
    try {
      await page.goto(`${h.base}/dashboard/payouts/${failed.payout_id}`);
      await page.getByText(REFUSAL).first().waitFor();
      // A failed payout can no longer be decided or canceled.
      for (const name of ["Approve", "Reject", "Cancel payout"])
        expect(await page.getByRole("button", { name, exact: true }).count(), name).toBe(0);
      await h.capture(page, "payout-failed");

      await page.getByRole("link", { name: "Create replacement" }).click();
      await page.getByRole("heading", { level: 1, name: "Replacement payout" }).waitFor();
      // Prefilled from the failed payout (read through the API), every field still editable.
      await expect.poll(() => page.getByLabel("Amount").inputValue(), { timeout: 15_000 }).toBe("1000.01");
      await expect
        .poll(() => page.getByRole("combobox", { name: "Destination" }).inputValue(), { timeout: 15_000 })
        .toContain("•••• 3000");
      // The Beneficiary's name shows once the list of ready Beneficiaries has loaded, which may come after the
      // destinations (both are asked for at once).
      await expect
        .poll(() => page.getByRole("combobox", { name: "Beneficiary" }).inputValue(), { timeout: 15_000 })
        .toContain("Jane Doe");
      await expect.poll(() => page.getByLabel("External reference").inputValue(), { timeout: 15_000 }).toBe("INV-FAILED-7");
      const origin = page.getByRole("alert").filter({ hasText: "This payout replaces" });
      await expect.poll(() => origin.textContent(), { timeout: 15_000 }).toContain("INV-FAILED-7");
      expect(await origin.textContent()).toContain(REFUSAL);
      await h.capture(page, "payout-replacement-form");

      await page.getByLabel("Amount").fill("1000.00");
      await page.getByLabel("External reference").fill("INV-FAILED-7-R");
      await page.getByRole("button", { name: "Create payout" }).click();
      await page.waitForURL(
        (url) => /\/dashboard\/payouts\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(failed.payout_id),
      );
      const replacementId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
      await page.getByText("INV-FAILED-7-R").first().waitFor();
      const replacesLink = page.getByRole("link", { name: failed.payout_id });
      await replacesLink.waitFor();
      expect(await getPayout(h.t.app, key, replacementId)).toMatchObject({
        replaces_payout_id: failed.payout_id,
        amount_minor: 100_000,
        external_ref: "INV-FAILED-7-R",
        status: "pending_approval",
      });
      await h.capture(page, "payout-replacement");

      // Back on the failed payout: its replacement, by its reference, links to it, however many payouts the
      // Beneficiary received after it (more than a list page).
      const later = await h.t.app.inject({
        method: "POST",
        url: "/v1/payouts/bulk",
        headers: bearer(key),
        payload: {
          uploadId: `later-${replacementId}`,
          rows: Array.from({ length: 201 }, () => ({ beneficiary_id: beneficiaryId, amount_minor: 100, currency: "EUR" })),
        },
      });
      expect(later.json()).toMatchObject({ created: 201 });
      await replacesLink.click();
      const replacedBy = page.getByRole("link", { name: "INV-FAILED-7-R" });
      await replacedBy.waitFor({ timeout: 15_000 });
      expect(await replacedBy.getAttribute("href")).toBe(`/dashboard/payouts/${replacementId}`);

      // A second replacement while this one is live: the API's refusal, in words, on the form.
      await page.goto(`${h.base}/dashboard/payouts/new?replaces=${failed.payout_id}`);
      await expect.poll(() => page.getByLabel("Amount").inputValue(), { timeout: 15_000 }).toBe("1000.01");
      await expect
        .poll(() => page.getByRole("combobox", { name: "Destination" }).inputValue(), { timeout: 15_000 })
        .toContain("•••• 3000");
      await page.getByRole("button", { name: "Create payout" }).click();
      const refusal = page.getByRole("alert").filter({ hasText: "Could not create the payout" });
      await expect.poll(() => refusal.textContent(), { timeout: 15_000 }).toContain("PAYOUT_ALREADY_REPLACED");
      expect(await refusal.textContent()).toMatch(/replace/i);
    } finally {
      await context.close();
    }
  });

  it("cancels a pending payout after confirmation; the actions it no longer allows are gone", async () => {
    const pending = await createPayout(h.t.app, key, {
      beneficiary_id: beneficiaryId,
      amount_minor: 4_200,
      external_ref: "INV-CANCEL-1",
    });
    expect(pending.status).toBe("pending_approval");
    const { context, page } = await signedInToProduction();
    try {
      await page.goto(`${h.base}/dashboard/payouts/${pending.payout_id}`);
      await page.getByText("INV-CANCEL-1").first().waitFor();
      for (const name of ["Approve", "Reject", "Cancel payout"]) await page.getByRole("button", { name, exact: true }).waitFor();

      // Dismissing the confirmation keeps the payout.
      await page.getByRole("button", { name: "Cancel payout", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Cancel this payout?" });
      await dialog.getByRole("button", { name: "Keep it" }).click();
      await dialog.waitFor({ state: "detached" });
      expect((await getPayout(h.t.app, key, pending.payout_id)).status).toBe("pending_approval");

      await page.getByRole("button", { name: "Cancel payout", exact: true }).click();
      // Scanned and photographed with the confirmation open, not before it has appeared.
      await dialog.waitFor();
      await h.capture(page, "payout-cancel-confirm");
      await dialog.getByRole("button", { name: "Cancel payout" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByText("Canceled", { exact: true }).first().waitFor({ timeout: 15_000 });
      for (const name of ["Approve", "Reject", "Cancel payout"])
        await expect.poll(() => page.getByRole("button", { name, exact: true }).count(), { timeout: 15_000 }).toBe(0);
      expect(await page.getByRole("link", { name: "Create replacement" }).count()).toBe(0);
      expect((await getPayout(h.t.app, key, pending.payout_id)).status).toBe("canceled");
      await h.capture(page, "payout-canceled");
    } finally {
      await context.close();
    }
  });

  it("shows every status badge whole in the payouts table on a phone", async () => {
    await createPayout(h.t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 900, external_ref: "INV-PENDING" });
    const { context, page } = await signedInToProduction();
    try {
      await page.goto(`${h.base}/dashboard/payouts`);
      await page.getByTestId("payout-row").filter({ hasText: "INV-PENDING" }).waitFor({ timeout: 15_000 });
      await page.setViewportSize(PHONE);
      const labels = page.getByTestId("payout-row").locator(".mantine-Badge-label");
      // Polled: the page lays itself out again after the resize (a scroll area measures itself and re-renders).
      const cut = () =>
        labels.evaluateAll((nodes) =>
          nodes.filter((n) => n.scrollWidth > n.clientWidth || n.getBoundingClientRect().width < 1).map((n) => n.textContent),
        );
      await expect.poll(cut, { timeout: 15_000 }).toEqual([]);
      expect(await labels.allTextContents()).toContain("Pending approval");
      await h.capture(page, "payouts-badges");
    } finally {
      await context.close();
    }
  });

  it("names a refused bank-account field by its label, the code kept small beside it", async () => {
    const { context, page } = await signedInToProduction();
    try {
      await page.goto(`${h.base}/dashboard/beneficiaries/${beneficiaryId}`);
      const form = page.getByRole("form", { name: "Add a bank account" });
      await form.getByLabel("Account holder name").fill("Jane Doe");
      await pickOption(page, form.getByLabel("Bank country"), "DE", "Germany (DE)");
      await pickOption(page, form.getByLabel("Currency"), "EUR", "Euro (EUR)");
      // Too long for any IBAN: refused by the request schema, with the field named in `details`.
      await form.getByLabel("IBAN").fill(`DE89${"1".repeat(60)}`);
      await form.getByRole("button", { name: /add/i }).click();
      const alert = form.getByRole("alert");
      await expect.poll(() => alert.textContent(), { timeout: 15_000 }).toMatch(/IBAN: /);
      const text = (await alert.textContent()) ?? "";
      expect(text).not.toMatch(/\biban: /);
      await h.capture(page, "bank-account-refused");
    } finally {
      await context.close();
    }
  });

  // Last: it gives the Business a SEPA rail, which the tests above do not expect.
  it("shows a bank rail's refusal (a Swiss account's missing BIC) beside the SWIFT/BIC field, then adds it with one", async () => {
    const rail = await h.t.app.inject({ method: "PUT", url: "/v1/bank-rails/sepa", headers: bearer(key), payload: sepaConfig() });
    expect(rail.statusCode, rail.body).toBe(201);
    const { context, page } = await signedInToProduction();
    try {
      await page.goto(`${h.base}/dashboard/beneficiaries/${beneficiaryId}`);
      const form = page.getByRole("form", { name: "Add a bank account" });
      await form.getByLabel("Account holder name").fill("Urs Meier");
      await pickOption(page, form.getByLabel("Bank country"), "Switzerland", "Switzerland (CH)");
      await pickOption(page, form.getByLabel("Currency"), "EUR", "Euro (EUR)");
      await form.getByLabel("IBAN").fill("CH9300762011623852957");
      await form.getByRole("button", { name: /add/i }).click();
      const alert = form.getByRole("alert");
      await expect.poll(() => alert.textContent(), { timeout: 15_000 }).toMatch(/SWIFT\/BIC: Needed for SEPA transfers to CH/);
      expect(await alert.textContent()).toContain("SEPA_BIC_REQUIRED");
      const bic = form.getByLabel("SWIFT/BIC");
      expect(await bic.getAttribute("aria-invalid")).toBe("true");
      await bic.fill("UBSWCHZH80A");
      await form.getByRole("button", { name: /add/i }).click();
      await expect.poll(() => form.getByRole("status").textContent(), { timeout: 15_000 }).toMatch(/added/);
    } finally {
      await context.close();
    }
  });
});
