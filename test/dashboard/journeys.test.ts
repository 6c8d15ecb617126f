// The Business dashboard in a real Chromium (Debian's `chromium`, driven by playwright-core) against the real
// app listening on loopback, served from the Vite build (test/setup/dashboard-build.global.ts builds it when
// stale): sign up and sign in; an admin invites an approver (with a step-up confirmation), the approver
// accepts, approves two payouts from the Approvals inbox, and they reach `disbursed` in sandbox; a rejected
// payout shows its note; API keys shown once and revoked after a confirmation. Every page is scanned with
// axe-core (no serious or critical violation) and photographed at desktop and phone width under
// test-output/screenshots/dashboard/. A Content-Security-Policy violation on any page fails the test.
// The browser steps are those of test/helpers/dashboard-browser.ts.
//
// Without /usr/bin/chromium the file is skipped with a notice, unless REQUIRE_BROWSER=1 (CI).
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserAvailable as available,
  CHROMIUM,
  type DashboardHarness,
  noticeIfNoBrowser,
  browserRequired as required,
  startDashboard,
} from "../helpers/dashboard-browser.js";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { takeRegistrationToken } from "../helpers/mail-queue.js";
import {
  invitationTokenFor,
  REGISTRATION_PASSWORD,
  STRONG_PASSWORD,
  sessionHeaders,
  signIn as signInSession,
  totpCode,
} from "../helpers/sessions.js";
import { TEST_START, type TestApp } from "../helpers/test-app.js";
import { createPayout, payableBeneficiary } from "../payouts/payout-fixtures.js";

noticeIfNoBrowser("dashboard browser tests");

describe("browser prerequisites (dashboard)", () => {
  it.runIf(required)("Chromium is installed (REQUIRE_BROWSER=1)", () => {
    expect(available, `REQUIRE_BROWSER=1 but ${CHROMIUM} is missing`).toBe(true);
  });
});

describe.skipIf(!available)("the dashboard in Chromium", () => {
  let h: DashboardHarness;
  let t: TestApp;
  let base: string;
  let biz: RegisteredBusiness;

  beforeAll(async () => {
    // The pages it captures go to ran-<engine>.txt, which .ci/run checks.
    h = await startDashboard("Northwind Payouts", "ran");
    ({ t, base, biz } = h);
  });

  afterAll(async () => {
    await h?.close();
  });

  const newPage = () => h.newPage();
  const capture = (page: Page, name: string) => h.capture(page, name);
  const signIn = (page: Page, email: string, password: string) => h.signIn(page, email, password);

  it("is served with a strict CSP, cached hashed assets and index.html for client routes", async () => {
    const index = await fetch(`${base}/dashboard/approvals`);
    expect(index.status).toBe(200);
    expect(index.headers.get("cache-control")).toBe("no-store");
    const csp = index.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await index.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${base}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect(asset.headers.get("content-type")).toContain("javascript");
    // Compressed by the build, chosen by Accept-Encoding (fetch decodes the body).
    expect(asset.headers.get("vary")).toContain("accept-encoding");
    const brotli = await fetch(`${base}${script}`, { headers: { "accept-encoding": "gzip, br" } });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    const plain = await fetch(`${base}${script}`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const plainText = await plain.text();
    expect(await brotli.text()).toBe(plainText);
    const gzipped = await fetch(`${base}${script}`, { headers: { "accept-encoding": "gzip, br;q=0" } });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(await gzipped.text()).toBe(plainText);
    expect((await fetch(`${base}/dashboard/assets/missing-0000.js`)).status).toBe(404);
    expect((await fetch(`${base}/dashboard/../v1/openapi.json`)).url).not.toContain("/dashboard/");
    const bare = await fetch(`${base}/dashboard`, { redirect: "manual" });
    expect(bare.status).toBe(308);
  });

  it("signs up: registration, the e-mailed token, then sign-in", async () => {
    const { context, page } = await newPage();
    const email = `founder-${process.pid}-${Date.now()}@example.com`;
    await page.goto(`${base}/dashboard/`);
    await page.waitForURL(/\/dashboard\/sign-in$/);
    // Scanned and photographed once each page has rendered, not while the script is still starting.
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    await capture(page, "sign-in");
    await page.getByRole("link", { name: /Register a Business/ }).click();
    await page.getByRole("heading", { level: 1, name: "Register a Business" }).waitFor();
    await capture(page, "sign-up");
    await page.getByLabel("Business name").fill("Contoso Finance");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel(/^Password/).fill("short");
    await page.getByRole("button", { name: "Register" }).click();
    // The API's validation message, once, beside the field (not repeated in an alert).
    const passwordError = async () => {
      const described = (await page.getByLabel(/^Password/).getAttribute("aria-describedby")) ?? "";
      const errorId = described.split(" ").find((id) => id.endsWith("error"));
      return errorId === undefined ? null : page.locator(`[id="${errorId}"]`).textContent();
    };
    await expect.poll(passwordError, { timeout: 15_000 }).toMatch(/password|characters/i);
    await expect(page.getByRole("alert").count()).resolves.toBe(0);
    await page.getByLabel(/^Password/).fill(STRONG_PASSWORD);
    await page.getByRole("button", { name: "Register" }).click();
    await page.getByRole("heading", { name: "Check your e-mail" }).waitFor();
    const token = await takeRegistrationToken(t, email);
    await page.getByRole("link", { name: "I have the token" }).click();
    await page.getByLabel("Verification token").fill(token);
    await capture(page, "sign-up-verify");
    await page.getByRole("button", { name: "Create my Business" }).click();
    await page.getByRole("heading", { name: "Your Business is ready" }).waitFor();
    await expect(page.getByTestId("secret-value").count()).resolves.toBe(0); // keys in <code> blocks, not copy widgets
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
    await expect.poll(() => page.getByTestId("sandbox-banner").textContent(), { timeout: 15_000 }).toContain("Sandbox");
    await expect(page.textContent("header")).resolves.toContain("Contoso Finance");
    await capture(page, "home");
    // No secret in localStorage: only the environment choice.
    const stored = () => page.evaluate<string[]>("Object.keys(localStorage)");
    expect((await stored()).filter((key) => key !== "dashboard.environment")).toEqual([]);
    // Production: the banner goes, and the data is the production environment's.
    await page.getByText("Production", { exact: true }).click();
    await expect.poll(() => page.getByTestId("sandbox-banner").count(), { timeout: 15_000 }).toBe(0);
    await capture(page, "home-production");
    expect(await stored()).toEqual(["dashboard.environment"]);
    await context.close();
  });

  it("an admin invites an approver, who approves from the inbox; the payouts reach disbursed", async () => {
    t.clock.set(TEST_START);
    const admin = await newPage();
    await signIn(admin.page, biz.email, REGISTRATION_PASSWORD);
    await admin.page.getByRole("link", { name: "Team" }).click();
    await admin.page.getByRole("heading", { name: "Team" }).waitFor();
    await capture(admin.page, "team");
    // Six minutes later the sign-in no longer counts as a recent confirmation: inviting asks for the password.
    t.clock.set(new Date(TEST_START.getTime() + 6 * 60_000));
    const approverEmail = `approver-${process.pid}-${Date.now()}@example.com`;
    await admin.page.getByRole("button", { name: "Invite a member" }).click();
    const dialog = admin.page.getByRole("dialog");
    await dialog.getByLabel("Email").fill(approverEmail);
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    const stepUp = admin.page.getByRole("dialog", { name: "Confirm it is you" });
    await stepUp.waitFor();
    await capture(admin.page, "step-up");
    await stepUp.getByLabel(/^Password/).fill(REGISTRATION_PASSWORD);
    await stepUp.getByRole("button", { name: "Confirm" }).click();
    await admin.page.getByText(`Invitation sent to ${approverEmail}`).waitFor();
    await capture(admin.page, "team-invited");

    const token = await invitationTokenFor(t.app, approverEmail);
    const approver = await newPage();
    await approver.page.goto(`${base}/dashboard/invitation`);
    await approver.page.getByLabel("Invitation token").fill(token);
    await approver.page.getByLabel("New password").fill(STRONG_PASSWORD);
    await capture(approver.page, "invitation");
    await approver.page.getByRole("button", { name: "Join the Business" }).click();
    await approver.page.getByText("You joined the Business").waitFor();

    // Two payouts made by the admin's key: the approver is not their maker.
    const { beneficiaryId } = await payableBeneficiary(t.app, biz.keys.sandbox);
    const first = await createPayout(t.app, biz.keys.sandbox, {
      beneficiary_id: beneficiaryId,
      amount_minor: 125000,
      external_ref: "INV-1001",
    });
    const second = await createPayout(t.app, biz.keys.sandbox, {
      beneficiary_id: beneficiaryId,
      amount_minor: 9950,
      external_ref: "INV-1002",
    });

    await signIn(approver.page, approverEmail, STRONG_PASSWORD);
    const nav = approver.page.getByRole("navigation", { name: "Main" });
    // The badge fills in once the count has loaded.
    await expect.poll(() => nav.getByRole("link", { name: /Approvals/ }).textContent(), { timeout: 15_000 }).toContain("2");
    await nav.getByRole("link", { name: /Approvals/ }).click();
    await approver.page.getByRole("tab", { name: "Awaiting my approval" }).waitFor();
    await expect.poll(() => approver.page.getByTestId("approval-row").count(), { timeout: 15_000 }).toBe(2);
    // Money by the currency's exponent: 125000 minor units of EUR.
    await expect(approver.page.textContent("main")).resolves.toContain("€1,250.00");
    await capture(approver.page, "approvals");
    await approver.page.getByRole("button", { name: "Select this page" }).click();
    await approver.page.getByRole("button", { name: "Approve selected" }).click();
    const decision = approver.page.getByRole("dialog", { name: "Approve 2 payouts" });
    await decision.getByLabel("Note").fill("Checked against the invoices");
    await capture(approver.page, "approvals-confirm");
    await decision.getByRole("button", { name: "Approve", exact: true }).click();
    await decision.getByText("2 of 2 approved.").waitFor();
    await expect(decision.getByTestId("decision-result").allTextContents()).resolves.toEqual([
      expect.stringContaining("Approved"),
      expect.stringContaining("Approved"),
    ]);
    await capture(approver.page, "approvals-result");
    await decision.getByRole("button", { name: "Close", exact: true }).click();
    await approver.page.getByTestId("empty").waitFor();

    await t.runtime.createWorker("dashboard-test").drain();
    for (const payout of [first, second]) {
      await approver.page.goto(`${base}/dashboard/payouts/${payout.payout_id}`);
      await approver.page.getByText("Disbursed", { exact: true }).first().waitFor();
      await expect
        .poll(() => approver.page.getByTestId("timeline").textContent(), { timeout: 15_000 })
        .toContain(`Approved by ${approverEmail}`);
    }
    await capture(approver.page, "payout-disbursed");
    await approver.page.getByRole("link", { name: "Payouts", exact: true }).click();
    await approver.page.getByRole("heading", { name: "Payouts" }).waitFor();
    await expect.poll(() => approver.page.getByTestId("payout-row").count(), { timeout: 15_000 }).toBe(2);
    await capture(approver.page, "payouts");
    await approver.page.getByRole("textbox", { name: "Search", exact: true }).fill("INV-1002");
    await approver.page.getByRole("button", { name: "Search", exact: true }).click();
    await expect.poll(() => approver.page.getByTestId("payout-row").count(), { timeout: 15_000 }).toBe(1);
    await approver.context.close();
    await admin.context.close();
  });

  it("a rejected payout shows its note", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, biz.keys.sandbox);
    const payout = await createPayout(t.app, biz.keys.sandbox, {
      beneficiary_id: beneficiaryId,
      amount_minor: 5000,
      currency: "EUR",
    });
    const { context, page } = await newPage();
    await signIn(page, biz.email, REGISTRATION_PASSWORD);
    await page.goto(`${base}/dashboard/payouts/${payout.payout_id}`);
    await page.getByRole("button", { name: "Reject" }).click();
    const dialog = page.getByRole("dialog", { name: "Reject 1 payout" });
    await dialog.getByLabel("Note").fill("Duplicate of invoice 42");
    await dialog.getByRole("button", { name: "Reject", exact: true }).click();
    await dialog.getByText("1 of 1 rejected.").waitFor();
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    await expect
      .poll(() => page.getByTestId("timeline-note").allTextContents(), { timeout: 15_000 })
      .toEqual(["“Duplicate of invoice 42”"]);
    await expect.poll(() => page.getByText("Rejected", { exact: true }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await capture(page, "payout-rejected");
    await context.close();
  });

  it("creates an API key shown once, and revokes it after a confirmation", async () => {
    const { context, page } = await newPage();
    await signIn(page, biz.email, REGISTRATION_PASSWORD);
    await page.getByRole("link", { name: "Developers" }).click();
    await page.getByRole("heading", { name: "Developers" }).waitFor();
    await capture(page, "developers");
    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create an API key" });
    await dialog.getByLabel("Name").fill("billing-service");
    await dialog.getByRole("button", { name: "Create key" }).click();
    const secret = await page.getByTestId("secret-value").textContent();
    expect(secret).toMatch(/^pok_sandbox_/);
    await capture(page, "developers-key-created");
    await page.getByRole("button", { name: "Hide the key" }).click();
    await expect.poll(() => page.getByTestId("secret-value").count(), { timeout: 15_000 }).toBe(0);
    await page.getByRole("button", { name: "Revoke billing-service" }).click();
    await page.getByRole("dialog", { name: "Revoke this key?" }).getByRole("button", { name: "Revoke key" }).click();
    await expect
      .poll(() => page.getByTestId("api-key-row").filter({ hasText: "billing-service" }).textContent(), { timeout: 15_000 })
      .toContain("Revoked");
    // The key no longer works.
    const refused = await fetch(`${base}/v1/payouts`, { headers: { authorization: `Bearer ${secret}` } });
    expect(refused.status).toBe(401);
    await page.goto(`${base}/dashboard/payouts/new`);
    await page.getByRole("heading", { name: "New payout" }).waitFor();
    await capture(page, "payout-new");
    await context.close();
  });

  it("creates a payout from the form; with maker-checker on, its maker finds it under Awaiting others", async () => {
    const policy = await t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      headers: { authorization: `Bearer ${biz.keys.sandbox}` },
      payload: { rules: [], maker_checker: true },
    });
    expect(policy.statusCode).toBe(200);
    await payableBeneficiary(t.app, biz.keys.sandbox);
    const { context, page } = await newPage();
    await signIn(page, biz.email, REGISTRATION_PASSWORD);
    await page.getByRole("link", { name: "Payouts", exact: true }).click();
    await page.getByRole("link", { name: "New payout" }).click();
    await page.getByRole("heading", { level: 1, name: "New payout" }).waitFor();
    await page
      .getByLabel(/^Beneficiary/)
      .first()
      .click();
    await page.getByRole("option").first().click();
    await page
      .getByLabel(/^Destination/)
      .first()
      .click();
    // A destination's option (named "Account •••• 1234 · EUR · DE"), not one of the Beneficiary's list, which may
    // still be closing; the destinations arrive by a query of their own after the choice.
    await page
      .getByRole("option", { name: /^(Account|Card) •••• / })
      .first()
      .click();
    await page.getByLabel(/^Amount/).fill("12.345");
    await page.getByRole("button", { name: "Create payout" }).click();
    await page.getByText("EUR has at most 2 decimals").waitFor();
    await capture(page, "payout-new-errors");
    await page.getByLabel(/^Amount/).fill("12.34");
    await page.getByLabel("External reference").fill("INV-2001");
    await page.getByRole("button", { name: "Create payout" }).click();
    await page.getByRole("heading", { level: 1, name: "€12.34" }).waitFor();
    await page.getByText("Maker-checker: you created this payout").waitFor();
    await expect(page.getByRole("button", { name: "Approve" }).isDisabled()).resolves.toBe(true);

    await page.getByRole("link", { name: /Approvals/ }).click();
    await page.getByTestId("empty").waitFor();
    await expect.poll(() => page.getByTestId("empty").textContent(), { timeout: 15_000 }).toBe("Nothing awaits your approval.");
    await page.getByRole("tab", { name: "Awaiting others" }).click();
    const row = page.getByTestId("approval-row");
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain("You created it: someone else must decide");
    await expect(row.getByRole("checkbox").isDisabled()).resolves.toBe(true);
    await capture(page, "approvals-awaiting-others");

    // Production shows production's data only: none of these sandbox payouts.
    await page.getByRole("link", { name: "Payouts", exact: true }).click();
    await expect.poll(() => page.getByTestId("payout-row").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.getByText("Production", { exact: true }).click();
    await page.getByText("No payouts match.").waitFor();
    await context.close();
  });

  it("loads at most 250 KB of JavaScript (gzip) on the first visit", async () => {
    const html = await (await fetch(`${base}/dashboard/sign-in`)).text();
    const initial = [...html.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
    expect(initial.length).toBeGreaterThan(0);
    let total = 0;
    for (const asset of initial) total += gzipSync(Buffer.from(await (await fetch(`${base}${asset}`)).arrayBuffer())).length;
    console.info(`dashboard initial JavaScript: ${initial.length} files, ${(total / 1024).toFixed(1)} KB gzip`);
    expect(total).toBeLessThanOrEqual(250 * 1024);
  });

  it("signs in with two-factor authentication, by keyboard alone", async () => {
    t.clock.set(TEST_START);
    const owner = await registerBusiness(t.app, "Fabrikam Treasury");
    const s = await signInSession(t.app, owner.email);
    const started = await t.app.inject({
      method: "POST",
      url: "/v1/session/two-factor/enrolment",
      headers: sessionHeaders(s, null),
    });
    const secret = (started.json() as { secret: string }).secret;
    const enrolled = await t.app.inject({
      method: "POST",
      url: "/v1/session/two-factor/enrolment/confirmation",
      headers: sessionHeaders(s, null),
      payload: { code: totpCode(secret, t.clock.now()) },
    });
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    // A minute later: the enrolment's code may not be used twice.
    t.clock.set(new Date(TEST_START.getTime() + 60_000));

    const { context, page } = await newPage();
    await page.goto(`${base}/dashboard/sign-in`);
    await page.getByLabel("Email").focus();
    await page.keyboard.type(owner.email);
    await page.keyboard.press("Tab");
    await expect(page.evaluate<string>("document.activeElement.getAttribute('autocomplete')")).resolves.toBe("current-password");
    await page.keyboard.type(REGISTRATION_PASSWORD);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/dashboard\/two-factor$/);
    await page.getByLabel("Authentication code").focus();
    await page.keyboard.type("000000");
    await page.keyboard.press("Tab");
    // Visible focus: the focused button draws an outline.
    await expect(page.evaluate<string>("document.activeElement.textContent")).resolves.toBe("Verify");
    await expect(page.evaluate<string>("getComputedStyle(document.activeElement).outlineStyle")).resolves.not.toBe("none");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("alert").textContent(), { timeout: 15_000 }).toContain("INVALID_TWO_FACTOR_CODE");
    await capture(page, "two-factor-error");
    await page.getByLabel("Authentication code").fill(totpCode(secret, t.clock.now()));
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
    await expect(page.textContent("header")).resolves.toContain("Fabrikam Treasury");
    await context.close();
  });

  it("the pages to get in pass axe and fit a phone", async () => {
    const { context, page } = await newPage();
    for (const [route, heading] of [
      ["forgot-password", "Reset your password"],
      ["reset-password", "Choose a new password"],
      ["two-factor", "Two-factor authentication"],
    ] as const) {
      await page.goto(`${base}/dashboard/${route}`);
      await page.getByRole("heading", { name: heading }).waitFor();
      await capture(page, route);
    }
    await context.close();
    expect(h.cspViolations).toEqual([]);
  });
});
