// A person who belongs to two Businesses, in a real Chromium against the real app on loopback: the owner of
// one Business accepts an invitation to a second as an approver with the account they have, signs in, sees
// the first Business's payouts only, picks the second in the header's Business switch and sees its payouts
// only (and their role there), then switches back. Both states are scanned with axe and photographed at
// desktop and phone width; no CSP violation or third-party request on the way.
//
// Without /usr/bin/chromium the file is skipped with a notice, unless REQUIRE_BROWSER=1 (CI).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, type DashboardHarness, noticeIfNoBrowser, startDashboard } from "../helpers/dashboard-browser.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { invitationTokenFor, REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { createPayout, payableBeneficiary } from "../payouts/payout-fixtures.js";

noticeIfNoBrowser("dashboard Business switch tests");

describe.skipIf(!browserAvailable)("switching Business in the dashboard", () => {
  let h: DashboardHarness;

  beforeAll(async () => {
    h = await startDashboard("Contoso Payroll", "ran-switch-business");
  });

  afterAll(async () => {
    await h?.close();
  });

  const refs = async (page: Page) => (await page.getByTestId("payout-row").getByRole("link").allTextContents()).sort();

  async function showPayouts(page: Page, expected: string[]): Promise<void> {
    await page.goto(`${h.base}/dashboard/payouts`);
    await page.getByRole("heading", { level: 1, name: "Payouts" }).waitFor();
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(expected);
  }

  it("shows each Business's payouts only, switching in the header", async () => {
    const { t, biz } = h;
    const second = await registerBusiness(t.app, "Litware Logistics");
    const invited = await t.app.inject({
      method: "POST",
      url: "/v1/invitations",
      headers: bearer(second.keys.sandbox),
      payload: { email: biz.email, role: "business_approver" },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    // An existing account joins without a new password.
    const accepted = await t.app.inject({
      method: "POST",
      url: "/v1/invitations/acceptance",
      payload: { token: await invitationTokenFor(t.app, biz.email) },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);

    const contoso = await payableBeneficiary(t.app, biz.keys.sandbox);
    for (const ref of ["CONTOSO-1", "CONTOSO-2"])
      await createPayout(t.app, biz.keys.sandbox, { beneficiary_id: contoso.beneficiaryId, external_ref: ref });
    const litware = await payableBeneficiary(t.app, second.keys.sandbox);
    await createPayout(t.app, second.keys.sandbox, { beneficiary_id: litware.beneficiaryId, external_ref: "LITWARE-1" });

    const { context, page } = await h.newPage();
    await h.signIn(page, biz.email, REGISTRATION_PASSWORD);
    const business = page.getByRole("combobox", { name: "Business", exact: true });
    await expect.poll(() => business.inputValue(), { timeout: 15_000 }).toBe("Contoso Payroll");
    await expect.poll(() => page.getByText(`${biz.email} · admin`).isVisible(), { timeout: 15_000 }).toBe(true);
    await showPayouts(page, ["CONTOSO-1", "CONTOSO-2"]);
    await h.capture(page, "switch-business-first");

    await business.click();
    await page.getByRole("option", { name: "Litware Logistics" }).click();
    await page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
    await expect.poll(() => business.inputValue(), { timeout: 15_000 }).toBe("Litware Logistics");
    await expect.poll(() => page.getByText(`${biz.email} · approver`).isVisible(), { timeout: 15_000 }).toBe(true);
    await showPayouts(page, ["LITWARE-1"]);
    await h.capture(page, "switch-business-second");

    await business.click();
    await page.getByRole("option", { name: "Contoso Payroll" }).click();
    await page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
    await expect.poll(() => business.inputValue(), { timeout: 15_000 }).toBe("Contoso Payroll");
    await showPayouts(page, ["CONTOSO-1", "CONTOSO-2"]);
    await context.close();
    expect(h.violations).toEqual([]);
  });
});
