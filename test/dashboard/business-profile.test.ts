// Settings → Business, the Business profile, in Debian's Chromium against the real app: an admin who also
// belongs to a second Business edits the profile; after the sign-in's confirmation has aged, saving asks for a
// step-up; the API's refusal of the website shows beside that field; once fixed, the profile is saved (a
// status message), the API holds exactly what was typed (country upper-cased, an emptied field cleared), and
// the new name shows in the header's Business switch and in its list. An approver sees the same profile
// read-only. Once the admin sets the Business's time zone (America/New_York), a payout's time is shown on New
// York's clock although the browser sits in Europe/Berlin, and Home and Settings say which zone dates are in.
// Each page is scanned with axe-core and photographed at desktop and 375 px.
//
// Without /usr/bin/chromium the file is skipped with a notice, unless REQUIRE_BROWSER=1 (CI).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, type DashboardHarness, noticeIfNoBrowser, startDashboard } from "../helpers/dashboard-browser.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { addMember, invitationTokenFor, REGISTRATION_PASSWORD, STRONG_PASSWORD } from "../helpers/sessions.js";
import { TEST_START } from "../helpers/test-app.js";
import { createPayout, payableBeneficiary } from "../payouts/payout-fixtures.js";

noticeIfNoBrowser("dashboard Business profile tests");

const minutes = (n: number) => new Date(TEST_START.getTime() + n * 60_000);

describe.skipIf(!browserAvailable)("the Business profile in Settings", () => {
  let h: DashboardHarness;
  let approver: { email: string };

  beforeAll(async () => {
    h = await startDashboard("Profile Works", "ran-business-profile");
    const { t, biz } = h;
    t.clock.set(TEST_START);
    approver = await addMember(t.app, biz.keys.sandbox, "business_approver");
    // The admin also belongs to a second Business, so the header shows the Business switch.
    const second = await registerBusiness(t.app, "Second Ledger Co");
    const invited = await t.app.inject({
      method: "POST",
      url: "/v1/invitations",
      headers: bearer(second.keys.sandbox),
      payload: { email: biz.email, role: "business_read_only" },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const accepted = await t.app.inject({
      method: "POST",
      url: "/v1/invitations/acceptance",
      payload: { token: await invitationTokenFor(t.app, biz.email) },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    await t.app.inject({
      method: "PATCH",
      url: "/v1/business",
      headers: bearer(biz.keys.sandbox),
      payload: { registration_number: "HRB 4711" },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("an admin edits the profile after a step-up, sees the API's error beside the field, and the new name in the header", async () => {
    const { t, biz } = h;
    t.clock.set(minutes(1));
    const { context, page } = await h.newPage();
    await h.signIn(page, biz.email, REGISTRATION_PASSWORD);
    const business = page.getByRole("combobox", { name: "Business", exact: true });
    await expect.poll(() => business.inputValue(), { timeout: 15_000 }).toBe("Profile Works");
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    const form = page.getByRole("form", { name: "Business profile" });
    await expect.poll(() => form.getByLabel("Registration number").inputValue(), { timeout: 15_000 }).toBe("HRB 4711");
    await expect.poll(() => page.getByTestId("business-name").textContent(), { timeout: 15_000 }).toBe("Profile Works");
    // Nothing edited yet: nothing to save.
    await expect(form.getByRole("button", { name: "Save profile" }).isDisabled()).resolves.toBe(true);
    await h.capture(page, "business-profile-admin");

    // Seven minutes on, the sign-in no longer counts as a recent confirmation.
    t.clock.set(minutes(8));
    await form.getByLabel(/^Display name/).fill("Profile Works Europe");
    await form.getByLabel(/^Country/).fill("de");
    await form.getByLabel(/^Registration number/).fill("");
    await form.getByLabel(/^Website/).fill("http://profile.example");
    await form.getByRole("button", { name: "Save profile" }).click();
    const stepUp = page.getByRole("dialog", { name: "Confirm it is you" });
    await stepUp.getByLabel(/^Password/).fill(REGISTRATION_PASSWORD);
    await stepUp.getByRole("button", { name: "Confirm" }).click();
    // The API refuses the http:// address: its message and code beside the website, nothing saved.
    const website = form.getByLabel(/^Website/);
    await expect.poll(() => website.getAttribute("aria-invalid"), { timeout: 15_000 }).toBe("true");
    await expect
      .poll(() => form.textContent(), { timeout: 15_000 })
      .toContain("The website must be an https:// address. (invalid_format)");
    await expect(form.getByLabel(/^Display name/).getAttribute("aria-invalid")).resolves.not.toBe("true");
    await h.capture(page, "business-profile-errors");
    const unchanged = await t.app.inject({ method: "GET", url: "/v1/business", headers: bearer(biz.keys.sandbox) });
    expect(unchanged.json()).toMatchObject({ name: "Profile Works", website: null, registration_number: "HRB 4711" });

    await website.fill("https://profile.example");
    await form.getByRole("button", { name: "Save profile" }).click();
    await page.getByRole("status").getByText("Business profile saved.").waitFor();
    await expect.poll(() => page.getByTestId("business-name").textContent(), { timeout: 15_000 }).toBe("Profile Works Europe");
    // The header's Business switch shows the new name, and so does its list.
    await expect.poll(() => business.inputValue(), { timeout: 15_000 }).toBe("Profile Works Europe");
    await business.click();
    await expect
      .poll(() => page.getByRole("option").allTextContents(), { timeout: 15_000 })
      .toEqual(["Profile Works Europe", "Second Ledger Co"]);
    await page.keyboard.press("Escape");
    await h.capture(page, "business-profile-saved");

    const stored = await t.app.inject({ method: "GET", url: "/v1/business", headers: bearer(biz.keys.sandbox) });
    expect(stored.json()).toMatchObject({
      name: "Profile Works Europe",
      country: "DE",
      registration_number: null,
      website: "https://profile.example",
      legal_name: null,
      updated_at: minutes(8).toISOString(),
    });
    await context.close();
  });

  it("an approver sees the profile read-only", async () => {
    const { context, page } = await h.newPage();
    await h.signIn(page, approver.email, STRONG_PASSWORD);
    await page.goto(`${h.base}/dashboard/settings`);
    const table = page.getByTestId("business-profile-read-only");
    await expect.poll(() => table.textContent(), { timeout: 15_000 }).toContain("https://profile.example");
    await expect(table.textContent()).resolves.toContain("Profile Works Europe");
    await page.getByText("Only admins change the Business profile.").waitFor();
    await expect(page.getByRole("button", { name: "Save profile" }).count()).resolves.toBe(0);
    await expect(page.getByRole("textbox").count()).resolves.toBe(0);
    await h.capture(page, "business-profile-read-only");
    await context.close();
  });

  it("once the Business's time zone is set, a payout's time is shown in it, not in the browser's zone", async () => {
    const { t, biz } = h;
    // Created at 12:20 UTC: 14:20 in Berlin (the browser's zone), 08:20 in New York.
    t.clock.set(minutes(20));
    const { beneficiaryId } = await payableBeneficiary(t.app, biz.keys.sandbox);
    const payout = await createPayout(t.app, biz.keys.sandbox, { beneficiary_id: beneficiaryId });
    const createdAt = String(payout.created_at);
    expect(createdAt).toBe(minutes(20).toISOString());

    const { context, page } = await h.newPage();
    await h.signIn(page, biz.email, REGISTRATION_PASSWORD);
    const note = page.getByTestId("time-zone-note");
    await expect
      .poll(() => note.textContent(), { timeout: 15_000 })
      .toBe("Dates and days are in your browser's time zone, Europe/Berlin: the Business has none set.");
    await page.goto(`${h.base}/dashboard/payouts/${payout.payout_id}`);
    const created = page.locator(`time[datetime="${createdAt}"]`).first();
    await expect.poll(() => created.textContent(), { timeout: 15_000 }).toBe("27 May 2026, 14:20 CEST");

    await page.getByRole("link", { name: "Settings" }).click();
    const form = page.getByRole("form", { name: "Business profile" });
    const zone = form.getByLabel(/^Time zone/);
    await zone.waitFor();
    await zone.fill("America/New_York");
    await page.keyboard.press("Escape");
    await form.getByRole("button", { name: "Save profile" }).click();
    await page.getByRole("status").getByText("Business profile saved.").waitFor();
    await expect
      .poll(() => page.getByTestId("time-zone-shown").textContent(), { timeout: 15_000 })
      .toBe("America/New_York (the Business's time zone)");
    const stored = await t.app.inject({ method: "GET", url: "/v1/business", headers: bearer(biz.keys.sandbox) });
    expect(stored.json()).toMatchObject({ time_zone: "America/New_York" });

    await page.goto(`${h.base}/dashboard/payouts/${payout.payout_id}`);
    await expect.poll(() => created.textContent(), { timeout: 15_000 }).toBe("27 May 2026, 08:20 GMT-4");
    await h.capture(page, "business-time-zone-payout");
    await page.goto(`${h.base}/dashboard/`);
    await expect
      .poll(() => note.textContent(), { timeout: 15_000 })
      .toBe("Dates and days are in America/New_York, the Business's time zone.");
    await context.close();
    expect(h.violations).toEqual([]);
  });
});
