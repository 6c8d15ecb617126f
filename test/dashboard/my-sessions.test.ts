// "My sessions" in Settings → Security, in Debian's Chromium against the real app: a person signed in in two
// browsers sees both sessions (this one marked), ends the other after a confirmation, and that other browser
// is sent to the sign-in page on its next navigation inside the dashboard; then the person signs out from
// their own row. The list and the confirmation are scanned with axe-core and photographed at desktop and
// 375 px.
//
// Without /usr/bin/chromium the file is skipped with a notice, unless REQUIRE_BROWSER=1 (CI).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, type DashboardHarness, noticeIfNoBrowser, startDashboard } from "../helpers/dashboard-browser.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";

noticeIfNoBrowser("dashboard my-sessions browser tests");

describe.skipIf(!browserAvailable)("my sessions in the dashboard", () => {
  let h: DashboardHarness;

  beforeAll(async () => {
    h = await startDashboard("Northwind Traders", "ran-my-sessions");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("ends the session of another browser, which is then sent to the sign-in page; signs out from its own row", async () => {
    const first = await h.newPage();
    const other = await h.newPage();
    try {
      await h.signIn(first.page, h.biz.email, REGISTRATION_PASSWORD);
      await h.signIn(other.page, h.biz.email, REGISTRATION_PASSWORD);

      const page = first.page;
      await page.goto(`${h.base}/dashboard/settings?tab=security`);
      await page.getByRole("heading", { level: 2, name: "My sessions" }).waitFor();
      const rows = page.getByTestId("my-session-row");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
      const current = page.locator('[data-testid="my-session-row"][data-current="true"]');
      await expect.poll(() => current.count(), { timeout: 15_000 }).toBe(1);
      await expect.poll(() => current.getByText("This session").isVisible(), { timeout: 15_000 }).toBe(true);
      // Both browsers are Chromium on this machine ("Headless Chrome on Linux" or, in a headless mode that
      // hides it, "Chrome on Linux"), from the loopback address.
      await expect.poll(() => rows.first().textContent(), { timeout: 15_000 }).toContain("Chrome on Linux");
      await expect.poll(() => rows.first().textContent(), { timeout: 15_000 }).toContain("127.0.0.1");
      await expect.poll(() => current.getByRole("button", { name: "Sign out" }).isVisible(), { timeout: 15_000 }).toBe(true);
      await h.capture(page, "my-sessions");

      // The other row offers "End session", behind a confirmation that names the device.
      const endButton = page.getByRole("button", { name: /^End session: .*Chrome on Linux \(127\.0\.0\.1\)$/ });
      await expect.poll(() => endButton.count(), { timeout: 15_000 }).toBe(1);
      await endButton.click();
      const confirm = page.getByRole("dialog", { name: "End this session?" });
      await expect.poll(() => confirm.textContent(), { timeout: 15_000 }).toContain("will be signed out at once");
      await h.capture(page, "my-sessions-confirm");
      await confirm.getByRole("button", { name: "End session" }).click();
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
      await expect.poll(() => current.count(), { timeout: 15_000 }).toBe(1);

      // The other browser's next navigation inside the dashboard finds its session ended.
      await other.page.getByRole("link", { name: "Payouts" }).first().click();
      await expect.poll(() => new URL(other.page.url()).pathname, { timeout: 15_000 }).toBe("/dashboard/sign-in");
      await other.page.getByLabel("Email").waitFor();

      // This browser is still signed in, and signs out from its own row.
      await page.reload();
      await expect.poll(() => current.count(), { timeout: 15_000 }).toBe(1);
      await current.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("dialog", { name: "Sign out?" }).getByRole("button", { name: "Sign out" }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/dashboard/sign-in");
      await page.goto(`${h.base}/dashboard/settings?tab=security`);
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/dashboard/sign-in");
      expect(h.violations).toEqual([]);
    } finally {
      await first.context.close();
      await other.context.close();
    }
  });
});
