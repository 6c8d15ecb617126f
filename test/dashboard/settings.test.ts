// The dashboard's Team actions and Settings pages in Debian's Chromium against the real app: an admin changes
// a member's role (after a step-up), is refused demoting the last admin (the API's LAST_ADMIN in the member's
// row) and removes a member after a confirmation; edits the approval policy (a local amount error and the
// API's validation message beside their fields, then saved and still there after a reload); enrols in
// two-factor with the QR code and the secret, sees the ten recovery codes once, regenerates them after a
// step-up by code, requires two-factor for every member (a member without it is sent to enrol; the admin
// cannot turn theirs off while it holds) and turns it off with a recovery code; enrols after the step-up
// window (the password first) and steps up with a recovery code; pages the audit log and
// filters it; sets the branding (the API's low_contrast beside the colour, a PNG logo); signs out
// everywhere. A read-only member sees the settings without the controls. Each page is scanned with axe-core
// and photographed at desktop and 375 px.
//
// Without /usr/bin/chromium the file is skipped with a notice, unless REQUIRE_BROWSER=1 (CI).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserAvailable,
  type DashboardHarness,
  noticeIfNoBrowser,
  pickOption,
  startDashboard,
} from "../helpers/dashboard-browser.js";
import { addMember, REGISTRATION_PASSWORD, STRONG_PASSWORD, signIn as signInSession, totpCode } from "../helpers/sessions.js";
import { TEST_START } from "../helpers/test-app.js";

noticeIfNoBrowser("dashboard settings browser tests");

// A 1x1 PNG: the API checks a logo's first bytes.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const minutes = (n: number) => new Date(TEST_START.getTime() + n * 60_000);

describe.skipIf(!browserAvailable)("the dashboard's Team actions and Settings in Chromium", () => {
  let h: DashboardHarness;
  let reader: { email: string };

  beforeAll(async () => {
    h = await startDashboard("Tailspin Payroll", "ran-settings");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("an admin changes a role after a step-up, is refused demoting the last admin, and removes a member", async () => {
    const { t, biz } = h;
    t.clock.set(TEST_START);
    reader = await addMember(t.app, biz.keys.sandbox, "business_approver");
    const leaving = await addMember(t.app, biz.keys.sandbox, "business_approver");
    const { context, page } = await h.newPage();
    await h.signIn(page, biz.email, REGISTRATION_PASSWORD);
    await page.getByRole("link", { name: "Team" }).click();
    await page.getByRole("heading", { level: 1, name: "Team" }).waitFor();
    await page.getByLabel(`Role of ${leaving.email}`).waitFor();
    await h.capture(page, "team-admin");

    // Six minutes on, the sign-in no longer counts as a recent confirmation.
    t.clock.set(minutes(6));
    await page.getByLabel(`Role of ${reader.email}`).selectOption("business_read_only");
    const stepUp = page.getByRole("dialog", { name: "Confirm it is you" });
    await stepUp.getByLabel(/^Password/).fill(REGISTRATION_PASSWORD);
    await stepUp.getByRole("button", { name: "Confirm" }).click();
    await expect
      .poll(() => page.getByLabel(`Role of ${reader.email}`).inputValue(), { timeout: 15_000 })
      .toBe("business_read_only");

    // The only admin cannot demote themselves: the refusal shows in their own row and the role stays.
    await page.getByLabel(`Role of ${biz.email}`).selectOption("business_approver");
    await expect.poll(() => page.getByTestId("member-error").textContent(), { timeout: 15_000 }).toContain("LAST_ADMIN");
    await expect(page.getByLabel(`Role of ${biz.email}`).inputValue()).resolves.toBe("business_admin");
    await h.capture(page, "team-last-admin");

    await page.getByRole("button", { name: `Remove ${leaving.email}` }).click();
    const confirm = page.getByRole("dialog", { name: "Remove this member?" });
    await expect.poll(() => confirm.textContent(), { timeout: 15_000 }).toContain(leaving.email);
    await confirm.getByRole("button", { name: "Remove member" }).click();
    await expect.poll(() => page.getByLabel(`Role of ${leaving.email}`).count(), { timeout: 15_000 }).toBe(0);
    await expect(page.getByRole("cell", { name: reader.email, exact: true }).count()).resolves.toBe(1);
    await context.close();
  });

  it("edits the approval policy: errors beside their fields, then saved and kept", async () => {
    const { context, page } = await h.newPage();
    await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await expect.poll(() => page.getByTestId("business-name").textContent(), { timeout: 15_000 }).toBe("Tailspin Payroll");
    await h.capture(page, "settings-business");
    await page.getByRole("tab", { name: "Approval policy" }).click();
    await page.getByTestId("no-rules").waitFor();
    await h.capture(page, "settings-approval-policy-empty");

    await page.getByRole("button", { name: "Add a rule" }).click();
    const rule = page.getByTestId("policy-rule");
    await rule.getByLabel("Name").fill("!!!");
    await pickOption(page, rule.getByLabel("Currency"), "EUR", "Euro (EUR)");
    await rule.getByLabel("Up to amount").fill("12.345");
    await page.getByRole("button", { name: "Save policy" }).click();
    // The currency's exponent, checked before anything is sent.
    await rule.getByText("EUR has at most 2 decimals").waitFor();
    await rule.getByLabel("Up to amount").fill("500");
    await page.getByRole("button", { name: "Save policy" }).click();
    // The API's message about rules[0].name, with its code, beside the name.
    await expect.poll(() => rule.getByLabel("Name").getAttribute("aria-invalid"), { timeout: 15_000 }).toBe("true");
    await expect.poll(() => rule.textContent(), { timeout: 15_000 }).toMatch(/letter or a digit.*\(blank\)/i);
    await h.capture(page, "settings-approval-policy-errors");

    await rule.getByLabel("Name").fill("Small EUR payouts");
    await page.getByLabel(/^Maker-checker/).check();
    await page.getByRole("button", { name: "Save policy" }).click();
    await page.getByText("Approval policy saved.").waitFor();

    await page.reload();
    await page.getByTestId("policy-rule").waitFor();
    await expect(page.getByTestId("policy-rule").getByLabel("Name").inputValue()).resolves.toBe("Small EUR payouts");
    await expect(page.getByTestId("policy-rule").getByLabel("Up to amount").inputValue()).resolves.toBe("500.00");
    await expect(page.getByLabel(/^Maker-checker/).isChecked()).resolves.toBe(true);
    const stored = await h.t.app.inject({
      method: "GET",
      url: "/v1/approval-policy",
      headers: { authorization: `Bearer ${h.biz.keys.sandbox}` },
    });
    expect(stored.json()).toMatchObject({
      maker_checker: true,
      rules: [{ name: "Small EUR payouts", outcome: "approve", currency: "EUR", max_amount_minor: 50000 }],
    });
    await h.capture(page, "settings-approval-policy");
    await context.close();
  });

  it("a read-only member sees the settings and the team without the controls", async () => {
    const { context, page } = await h.newPage();
    await h.signIn(page, reader.email, STRONG_PASSWORD);
    await page.goto(`${h.base}/dashboard/settings?tab=approval-policy`);
    await page.getByText("Only admins change the approval policy.").waitFor();
    await expect(page.getByRole("button", { name: "Save policy" }).count()).resolves.toBe(0);
    await h.capture(page, "settings-approval-policy-read-only");
    await page.goto(`${h.base}/dashboard/team`);
    await page.getByRole("cell", { name: h.biz.email, exact: true }).waitFor();
    await expect(page.getByRole("button", { name: /^Remove / }).count()).resolves.toBe(0);
    await context.close();
  });

  it("two-factor: enrol by QR code, recovery codes once, regenerate, required for everyone, turn off", async () => {
    const { t, biz } = h;
    t.clock.set(minutes(20));
    const { context, page } = await h.newPage();
    await h.signIn(page, biz.email, REGISTRATION_PASSWORD);
    await page.goto(`${h.base}/dashboard/settings?tab=security`);
    await expect.poll(() => page.getByTestId("two-factor-state").textContent(), { timeout: 15_000 }).toContain("off");
    await h.capture(page, "settings-security");
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
    await qr.waitFor();
    // The SVG the API drew loads as an image (the CSP allows data: images only). The image has its size before
    // it has loaded (decoding a data: URL is asynchronous too), so waiting for it to show is not enough: polled.
    const loaded = () =>
      qr.evaluate((element) => {
        const img = element as unknown as { complete: boolean; naturalWidth: number };
        return img.complete && img.naturalWidth > 0;
      });
    await expect.poll(loaded, { timeout: 15_000 }).toBe(true);
    const secret = (await page.getByTestId("two-factor-secret").textContent()) ?? "";
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await h.capture(page, "settings-two-factor-enrol");
    await page.getByLabel("Code from the app").fill(totpCode(secret, t.clock.now()));
    await page.getByRole("button", { name: "Turn on" }).click();
    const codes = page.getByTestId("recovery-codes").locator("code");
    await expect.poll(() => codes.count(), { timeout: 15_000 }).toBe(10);
    const first = await codes.allTextContents();
    await expect.poll(() => page.getByTestId("two-factor-state").textContent(), { timeout: 15_000 }).toContain("on");
    // My own enrolment takes me off the list of members without two-factor at once, without a reload
    // (the list named me until the page was reloaded).
    await expect
      .poll(() => page.getByTestId("members-without-two-factor").textContent(), { timeout: 15_000 })
      .not.toContain(biz.email);
    await h.capture(page, "settings-recovery-codes");
    await page.getByRole("button", { name: "I have stored them" }).click();
    await expect.poll(() => page.getByTestId("recovery-codes").count(), { timeout: 15_000 }).toBe(0);

    // Regenerating needs a recent confirmation: with two-factor on, by a code from the app.
    t.clock.set(minutes(27));
    await page.getByRole("button", { name: "Regenerate recovery codes" }).click();
    const stepUp = page.getByRole("dialog", { name: "Confirm it is you" });
    await stepUp.getByLabel("Authentication code").fill(totpCode(secret, t.clock.now()));
    await stepUp.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => codes.count(), { timeout: 15_000 }).toBe(10);
    const second = await codes.allTextContents();
    expect(second.filter((code) => first.includes(code))).toEqual([]);
    await page.getByRole("button", { name: "I have stored them" }).click();

    // Every member must use two-factor: the page names who has none yet.
    // The switch shows the server's answer, so it flips once the change is saved.
    await page.getByLabel("Require two-factor authentication for every member").click();
    await expect
      .poll(() => page.getByLabel("Require two-factor authentication for every member").isChecked(), { timeout: 15_000 })
      .toBe(true);
    await expect
      .poll(() => page.getByTestId("members-without-two-factor").textContent(), { timeout: 15_000 })
      .toContain(reader.email);
    // ...and that member, signing in, is sent to enrol.
    const member = await h.newPage();
    await member.page.goto(`${h.base}/dashboard/sign-in`);
    await member.page.getByLabel("Email").fill(reader.email);
    await member.page.getByLabel("Password", { exact: true }).fill(STRONG_PASSWORD);
    await member.page.getByRole("button", { name: "Sign in" }).click();
    await member.page.getByTestId("enrolment-required").waitFor();
    await member.page.getByRole("button", { name: "Set up two-factor authentication" }).waitFor();
    await h.capture(member.page, "settings-enrolment-required");
    await member.page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    const memberSecret = (await member.page.getByTestId("two-factor-secret").textContent()) ?? "";
    await member.page.getByLabel("Code from the app").fill(totpCode(memberSecret, t.clock.now()));
    await member.page.getByRole("button", { name: "Turn on" }).click();
    // The codes stay on screen although the session no longer owes the enrolment.
    await expect.poll(() => member.page.getByTestId("recovery-codes").locator("code").count(), { timeout: 15_000 }).toBe(10);
    await member.page.getByRole("link", { name: "Continue to the dashboard" }).click();
    await member.page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
    await member.context.close();

    // While it holds, the admin cannot turn theirs off.
    await page.getByRole("button", { name: "Turn off two-factor" }).click();
    const off = page.getByRole("dialog", { name: "Turn off two-factor authentication?" });
    await off.getByLabel("Code or recovery code").fill(second[0] ?? "");
    await off.getByRole("button", { name: "Turn off" }).click();
    await expect
      .poll(() => off.getByRole("alert").textContent(), { timeout: 15_000 })
      .toContain("TWO_FACTOR_REQUIRED_BY_BUSINESS");
    await off.getByRole("button", { name: "Cancel" }).click();

    await page.getByLabel("Require two-factor authentication for every member").click();
    await expect
      .poll(() => page.getByLabel("Require two-factor authentication for every member").isChecked(), { timeout: 15_000 })
      .toBe(false);
    await page.getByRole("button", { name: "Turn off two-factor" }).click();
    await off.getByLabel("Code or recovery code").fill(second[1] ?? "");
    await off.getByRole("button", { name: "Turn off" }).click();
    await expect.poll(() => page.getByTestId("two-factor-state").textContent(), { timeout: 15_000 }).toContain("off");
    await context.close();
  });

  it("two-factor after the step-up window: enrolling asks for the password first, and a recovery code confirms a later step-up", async () => {
    const { t, biz } = h;
    t.clock.set(minutes(40));
    const person = await addMember(t.app, biz.keys.sandbox, "business_approver");
    const { context, page } = await h.newPage();
    await h.signIn(page, person.email, STRONG_PASSWORD);
    await page.goto(`${h.base}/dashboard/settings?tab=security`);
    await expect.poll(() => page.getByTestId("two-factor-state").textContent(), { timeout: 15_000 }).toContain("off");

    // Six minutes after signing in, adding a factor needs a new proof: the password (no factor yet).
    t.clock.set(minutes(46));
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    const stepUp = page.getByRole("dialog", { name: "Confirm it is you" });
    await stepUp.getByLabel(/^Password/).fill(STRONG_PASSWORD);
    await stepUp.getByRole("button", { name: "Confirm" }).click();
    const secret = (await page.getByTestId("two-factor-secret").textContent()) ?? "";
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await page.getByLabel("Code from the app").fill(totpCode(secret, t.clock.now()));
    await page.getByRole("button", { name: "Turn on" }).click();
    const codes = page.getByTestId("recovery-codes").locator("code");
    await expect.poll(() => codes.count(), { timeout: 15_000 }).toBe(10);
    const recoveryCodes = await codes.allTextContents();
    await page.getByRole("button", { name: "I have stored them" }).click();

    // With two-factor on, a step-up takes the factor: here one of the recovery codes (the app not at hand).
    t.clock.set(minutes(53));
    await page.getByRole("button", { name: "Regenerate recovery codes" }).click();
    await stepUp.getByRole("button", { name: "Use a recovery code instead" }).click();
    await stepUp.getByLabel("Recovery code").fill(recoveryCodes[0] ?? "");
    await h.capture(page, "settings-step-up-recovery-code");
    await stepUp.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => codes.count(), { timeout: 15_000 }).toBe(10);
    expect((await codes.allTextContents()).filter((code) => recoveryCodes.includes(code))).toEqual([]);
    await context.close();
  });

  it("the audit log pages by cursor and filters by action and person", async () => {
    const { t, biz } = h;
    // Enough sign-ins for more than one page of 25.
    for (let i = 0; i < 26; i += 1) await signInSession(t.app, biz.email);
    const { context, page } = await h.newPage();
    await h.signIn(page, biz.email, REGISTRATION_PASSWORD);
    await page.goto(`${h.base}/dashboard/settings?tab=audit-log`);
    await expect.poll(() => page.getByTestId("audit-row").count(), { timeout: 15_000 }).toBe(25);
    await h.capture(page, "settings-audit-log");
    await page.getByRole("button", { name: "Older" }).click();
    await page.getByText("Page 2").waitFor();
    await expect.poll(() => page.getByTestId("audit-row").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Newer" }).click();
    await page.getByText("Page 1").waitFor();

    await page.getByLabel("Action").selectOption("member_role_changed");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.poll(() => page.getByTestId("audit-row").count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId("audit-row").textContent(), { timeout: 15_000 }).toContain(biz.email);
    await page.getByLabel("Action").selectOption("");
    await page.getByLabel("Person").selectOption({ label: reader.email });
    await page.getByRole("button", { name: "Filter" }).click();
    // Polled as a whole: the previous filter's rows stay shown until the new page arrives.
    await expect
      .poll(
        async () => {
          const rows = await page.getByTestId("audit-row").allTextContents();
          return rows.length > 0 && rows.every((row) => row.includes(reader.email));
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    await context.close();
  });

  it("sets the branding: low contrast refused beside the colour, a PNG logo, then saved", async () => {
    const { context, page } = await h.newPage();
    await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
    await page.goto(`${h.base}/dashboard/settings?tab=branding`);
    await page.getByText("No logo.").waitFor();
    await h.capture(page, "settings-branding");
    await page.getByLabel("Display name").fill("Tailspin");
    await page.getByLabel("Brand colour").fill("#ffff00");
    await page.getByLabel("Display name").click(); // closes the colour picker, which covers the form below it
    await page.getByLabel("Logo").setInputFiles({ name: "logo.txt", mimeType: "text/plain", buffer: Buffer.from("hi") });
    await page.getByText("Choose a PNG or JPEG image.").waitFor();
    await page.getByLabel("Logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Save branding" }).click();
    await expect.poll(() => page.getByLabel("Brand colour").getAttribute("aria-invalid"), { timeout: 15_000 }).toBe("true");
    await expect
      .poll(() => page.getByRole("form", { name: "Branding" }).textContent(), { timeout: 15_000 })
      .toContain("low_contrast");
    await h.capture(page, "settings-branding-error");
    await page.getByLabel("Brand colour").fill("#1d4ed8");
    await page.getByLabel("Display name").click();
    await page.getByRole("button", { name: "Save branding" }).click();
    await page.getByText("Branding saved.").waitFor();
    await expect.poll(() => page.getByTestId("current-logo").textContent(), { timeout: 15_000 }).toContain("image/png");
    const stored = await h.t.app.inject({
      method: "GET",
      url: "/v1/branding",
      headers: { authorization: `Bearer ${h.biz.keys.sandbox}` },
    });
    expect(stored.json()).toMatchObject({ display_name: "Tailspin", brand_color: "#1d4ed8", logo: { media_type: "image/png" } });
    await context.close();
  });

  it("signs out everywhere: every browser of the person is signed out", async () => {
    const other = await h.newPage();
    await h.signIn(other.page, h.biz.email, REGISTRATION_PASSWORD);
    const { context, page } = await h.newPage();
    await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
    await page.goto(`${h.base}/dashboard/settings?tab=security`);
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.getByRole("dialog", { name: "Sign out everywhere?" }).getByRole("button", { name: "Sign out everywhere" }).click();
    await page.waitForURL(/\/dashboard\/sign-in$/);
    await other.page.goto(`${h.base}/dashboard/payouts`);
    await other.page.waitForURL(/\/dashboard\/sign-in$/);
    await other.context.close();
    await context.close();
    expect(h.cspViolations).toEqual([]);
  });
});
