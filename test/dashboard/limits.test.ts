// Settings, Limits in Debian's Chromium against the real app: an admin sets payout limits (a tightening, saved at
// once), then raises one while maker-checker is on and is told it waits for a second admin; the pending change is
// listed, its proposer is refused approving it (the API's CONTROL_CHANGE_SAME_PERSON), and a second admin approves
// it from their own session, after which the raised limit shows. Each page is scanned with axe-core.
//
// Without /usr/bin/chromium the file is skipped with a notice, unless REQUIRE_BROWSER=1 (CI).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, type DashboardHarness, noticeIfNoBrowser, startDashboard } from "../helpers/dashboard-browser.js";
import { bearer } from "../helpers/factories.js";
import { addMember, REGISTRATION_PASSWORD, STRONG_PASSWORD } from "../helpers/sessions.js";
import { TEST_START } from "../helpers/test-app.js";

noticeIfNoBrowser("dashboard limits browser tests");

describe.skipIf(!browserAvailable)("Settings, Limits in Chromium", () => {
  let h: DashboardHarness;

  beforeAll(async () => {
    h = await startDashboard("Limits Browser Co", "ran-limits");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("a tightening saves at once; a raise waits for a second admin, who approves it", async () => {
    const { t, biz } = h;
    t.clock.set(TEST_START);
    const second = await addMember(t.app, biz.keys.sandbox, "business_admin");
    const on = await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      headers: bearer(biz.keys.sandbox),
      payload: { rules: [], maker_checker: true },
    });
    expect(on.statusCode, on.body).toBe(200);

    const { context, page } = await h.newPage();
    await h.signIn(page, biz.email, REGISTRATION_PASSWORD);
    await page.goto(`${h.base}/dashboard/settings?tab=limits`);
    await page.getByTestId("no-limits").waitFor();
    await page.getByRole("button", { name: "Add a currency" }).click();
    await page.getByLabel("Currency").fill("EUR");
    await page.getByLabel(/^Per payout/).fill("100.00");
    await page.getByLabel(/^Per day/).fill("500.00");
    await page.getByRole("button", { name: "Save limits" }).click();
    await page.getByText("Payout limits saved.").waitFor();
    const table = page.getByRole("table", { name: "Payout limits" });
    await expect.poll(() => table.textContent(), { timeout: 15_000 }).toContain("€100.00");
    await h.capture(page, "limits-saved");

    // Raising a limit with maker-checker on: nothing changes, the change waits.
    await page.getByLabel(/^Per payout/).fill("250.00");
    await page.getByRole("button", { name: "Save limits" }).click();
    await page.getByTestId("waiting-for-second-admin").waitFor();
    const pending = page.getByRole("table", { name: "Pending control changes" });
    await expect.poll(() => pending.textContent(), { timeout: 15_000 }).toContain("Payout limits raised or removed for EUR");
    expect(await table.textContent()).not.toContain("€250.00");
    await h.capture(page, "limits-waiting");
    // Its proposer may not approve it.
    await pending.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => page.getByText(/CONTROL_CHANGE_SAME_PERSON/).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await context.close();

    const other = await h.newPage();
    await h.signIn(other.page, second.email, STRONG_PASSWORD);
    await other.page.goto(`${h.base}/dashboard/settings?tab=limits`);
    const theirs = other.page.getByRole("table", { name: "Pending control changes" });
    await theirs.getByRole("button", { name: "Approve" }).click();
    await other.page.getByTestId("no-pending-changes").waitFor();
    await expect
      .poll(() => other.page.getByRole("table", { name: "Payout limits" }).textContent(), { timeout: 15_000 })
      .toContain("€250.00");
    await h.capture(other.page, "limits-approved");
    await other.context.close();
  });
});
