// The Balances page in Debian's Chromium against the real app on loopback (sandbox): the funding account's posted,
// held, available and waiting amounts; a top-up the admin recorded is not theirs to approve (the row says so); an
// approver, a second person, approves it in the dialog and the account's posted and available amounts show it;
// the transfers list names the top-up behind the credit. axe scans and screenshots at desktop and 375 px
// (test/helpers/dashboard-browser.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, browserRequired, type DashboardHarness, startDashboard } from "../helpers/dashboard-browser.js";
import { addMember, REGISTRATION_PASSWORD, STRONG_PASSWORD } from "../helpers/sessions.js";
import { openFundingAccount, recordTopUp } from "../top-ups/top-up-fixtures.js";

if (!browserAvailable && !browserRequired) console.warn("NOTICE: dashboard balances tests skipped: no Chromium");

describe.skipIf(!browserAvailable && !browserRequired)("the Balances page", () => {
  let h: DashboardHarness;
  let accountId: string;
  let approver: { email: string };

  beforeAll(async () => {
    h = await startDashboard("Balances Co", "ran-balances");
    accountId = await openFundingAccount(h.t, { businessId: h.biz.businessId, environment: "sandbox" }, "EUR");
    approver = await addMember(h.t.app, h.biz.keys.sandbox, "business_approver");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("shows the balances, and a second person approves the admin's top-up", async () => {
    const recorded = await recordTopUp(h.t, h.biz.keys.sandbox, accountId, { amount_minor: 250_000, reference: "WIRE-BAL-1" });
    expect(recorded.statusCode, recorded.body).toBe(201);

    const admin = await h.newPage();
    try {
      await h.signIn(admin.page, h.biz.email, REGISTRATION_PASSWORD);
      await admin.page.getByRole("link", { name: "Balances" }).click();
      await admin.page.getByRole("heading", { level: 1, name: "Balances" }).waitFor();
      const card = admin.page.getByTestId("funding-account");
      await card.waitFor();
      expect(await card.getByTestId("posted").textContent()).toContain("0.00");
      expect(await card.getByTestId("waiting").textContent()).toContain("0 payouts waiting for funds");
      const row = admin.page.getByTestId("top-up-row").filter({ hasText: "WIRE-BAL-1" });
      await row.waitFor();
      // Recorded by this person (through their key): not theirs to approve.
      expect(await row.textContent()).toContain("You recorded it: someone else must approve");
      expect(await row.getByRole("button", { name: "Approve" }).count()).toBe(0);
      await admin.page.getByRole("button", { name: "Record top-up" }).waitFor();
      await h.capture(admin.page, "balances-admin");
    } finally {
      await admin.context.close();
    }

    const second = await h.newPage();
    try {
      await h.signIn(second.page, approver.email, STRONG_PASSWORD);
      await second.page.goto(`${h.base}/dashboard/balances`);
      const row = second.page.getByTestId("top-up-row").filter({ hasText: "WIRE-BAL-1" });
      await row.waitFor();
      // An approver neither records top-ups nor changes the settings.
      expect(await second.page.getByRole("button", { name: "Record top-up" }).count()).toBe(0);
      await row.getByRole("button", { name: "Approve" }).click();
      const dialog = second.page.getByRole("dialog", { name: "Approve top-up" });
      await dialog.waitFor();
      await h.capture(second.page, "balances-approve-dialog");
      await dialog.getByRole("button", { name: "Approve", exact: true }).click();
      await dialog.waitFor({ state: "detached", timeout: 15_000 });
      const card = second.page.getByTestId("funding-account");
      await expect.poll(() => card.getByTestId("posted").textContent(), { timeout: 15_000 }).toContain("2,500.00");
      expect(await card.getByTestId("available").textContent()).toContain("2,500.00");
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);

      await card.getByRole("button", { name: "Show transfers" }).click();
      const transfer = second.page.getByTestId("transfer-row").first();
      await transfer.waitFor();
      expect(await transfer.textContent()).toContain("Top-up");
      expect(await transfer.textContent()).toContain("2,500.00");
      await h.capture(second.page, "balances-approved");
    } finally {
      await second.context.close();
    }
    const read = await h.t.app.inject({
      method: "GET",
      url: `/v1/top-ups/${recorded.json().id}`,
      headers: { authorization: `Bearer ${h.biz.keys.sandbox}` },
    });
    expect(read.json()).toMatchObject({ status: "approved", decided_by: { api_key_id: null } });
    // Two sign-ins and three captures at two widths: longer than the default minute on a shared machine.
  }, 240_000);
});
