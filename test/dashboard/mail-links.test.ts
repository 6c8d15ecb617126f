// Following the links of the service's e-mails into the dashboard, in a real Chromium against the real app
// (test/helpers/dashboard-browser.ts): the link of a captured e-mail opens the right page with the token filled
// in from the URL's fragment, the fragment is removed from the address bar at once, the flow completes
// (invitation accepted -> sign in; sign-up confirmed; password reset -> sign in with the new password), and the
// token never appears in a request's URL or in a body other than the call that uses it, the page sends no Referer
// at all, and no other site is contacted (the harness records CSP reports and requests to other origins). axe scans and screenshots at desktop and 375 px.
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, browserRequired, type DashboardHarness, startDashboard } from "../helpers/dashboard-browser.js";
import { bearer } from "../helpers/factories.js";
import { queuedMails } from "../helpers/queued-mail.js";
import { answerPasswordResetRequests, STRONG_PASSWORD } from "../helpers/sessions.js";
import { TEST_START } from "../helpers/test-app.js";

if (!browserAvailable && !browserRequired) console.warn("NOTICE: dashboard e-mail link tests skipped: no Chromium");

/** The link of an e-mail's action button, as a mail client would open it (the HTML part's href, unescaped). */
function actionLink(html: string): string {
  const href = /<a href="([^"]+)"/.exec(html)?.[1];
  if (href === undefined) throw new Error("no link in the e-mail");
  return href.replaceAll("&amp;", "&");
}

/** Every request the page sends, to check that the token travels only in the body of the call that uses it. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on("request", (request) => requests.push(request));
  return requests;
}

function expectTokenNotLeaked(requests: Request[], token: string, usedBy: string): void {
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    expect(request.url()).not.toContain(token);
    expect(request.headers().referer ?? "").not.toContain(token);
    if (!request.url().endsWith(usedBy)) expect(request.postData() ?? "").not.toContain(token);
  }
  expect(requests.some((r) => r.url().endsWith(usedBy) && (r.postData() ?? "").includes(token))).toBe(true);
}

describe.skipIf(!browserAvailable)("Links in e-mails open the dashboard with the token filled in", () => {
  let h: DashboardHarness;

  beforeAll(async () => {
    h = await startDashboard("Mail Links", "ran-mail-links");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("accepts an invitation from its e-mail's link, then the new member signs in", async () => {
    h.t.clock.set(TEST_START);
    const email = "invited-by-link@example.com";
    const invited = await h.t.app.inject({
      method: "POST",
      url: "/v1/invitations",
      headers: bearer(h.biz.keys.sandbox),
      payload: { email, role: "business_read_only" },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const mail = (await queuedMails(h.t, email)).find((m) => m.idempotency_key.startsWith("invitation:"));
    const link = actionLink(mail?.html ?? "");
    expect(link.startsWith(`http://service.test/dashboard/invitation#token=`)).toBe(true);
    const token = new URLSearchParams(new URL(link).hash.slice(1)).get("token") ?? "";
    expect(mail?.text).toContain(`\n    ${token}\n`);

    const { context, page } = await h.newPage();
    const requests = recordRequests(page);
    // The test app's PUBLIC_BASE_URL is not where it listens: the same path and fragment on the listening origin.
    const opened = await page.goto(link.replace("http://service.test", h.base));
    // No Referer leaves the dashboard at all (and a fragment is never part of one).
    expect(opened?.headers()["referrer-policy"]).toBe("no-referrer");
    await page.getByRole("heading", { level: 1, name: "Accept an invitation" }).waitFor();
    await expect.poll(() => page.getByLabel("Invitation token").inputValue(), { timeout: 15_000 }).toBe(token);
    await expect.poll(() => page.getByTestId("invited-email").textContent(), { timeout: 15_000 }).toBe(`Invitation for ${email}`);
    await expect.poll(() => page.evaluate("location.hash"), { timeout: 15_000 }).toBe("");
    // Playwright's page.url() follows history.replaceState by an event of its own: polled, not read once.
    await expect.poll(() => page.url(), { timeout: 15_000 }).toBe(`${h.base}/dashboard/invitation`);
    await h.capture(page, "invitation-from-link");

    await page.getByLabel("New password").fill(STRONG_PASSWORD);
    await page.getByRole("button", { name: "Join the Business" }).click();
    await page.getByText("You joined the Business. Sign in to start.").waitFor();
    expectTokenNotLeaked(requests, token, "/v1/invitations/acceptance");
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
    expect(h.cspViolations).toEqual([]);
    await context.close();
  });

  it("confirms a sign-up from its e-mail's link", async () => {
    h.t.clock.set(TEST_START);
    const email = "signed-up-by-link@example.com";
    const registered = await h.t.app.inject({
      method: "POST",
      url: "/v1/registration",
      payload: { business_name: "Linked Co", email, password: STRONG_PASSWORD },
    });
    expect(registered.statusCode, registered.body).toBe(202);
    const mail = (await queuedMails(h.t, email)).find((m) => m.idempotency_key.startsWith("registration:"));
    const link = actionLink(mail?.html ?? "");
    expect(link.startsWith("http://service.test/dashboard/sign-up/verify#token=")).toBe(true);
    const token = new URLSearchParams(new URL(link).hash.slice(1)).get("token") ?? "";

    const { context, page } = await h.newPage();
    const requests = recordRequests(page);
    const opened = await page.goto(link.replace("http://service.test", h.base));
    // No Referer leaves the dashboard at all (and a fragment is never part of one).
    expect(opened?.headers()["referrer-policy"]).toBe("no-referrer");
    await page.getByRole("heading", { level: 1, name: "Confirm your e-mail address" }).waitFor();
    await expect.poll(() => page.getByLabel("Verification token").inputValue(), { timeout: 15_000 }).toBe(token);
    await expect.poll(() => page.evaluate("location.hash"), { timeout: 15_000 }).toBe("");
    await page.getByRole("button", { name: "Create my Business" }).click();
    await page.getByRole("heading", { level: 1, name: "Your Business is ready" }).waitFor();
    await expect.poll(() => page.getByText("Linked Co").count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expectTokenNotLeaked(requests, token, "/v1/registration/verification");
    expect(h.cspViolations).toEqual([]);
    await context.close();
  });

  it("resets a password from its e-mail's link, then signs in with the new password", async () => {
    h.t.clock.set(TEST_START);
    const { context, page } = await h.newPage();
    await page.goto(`${h.base}/dashboard/forgot-password`);
    await page.getByLabel("Email").fill(h.biz.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page
      .getByText(`If ${h.biz.email} has an account, we sent it a link to choose a new password`, { exact: false })
      .waitFor();
    // The worker answers the request (the request itself only queues it, the same for every address).
    expect(await answerPasswordResetRequests(h.t.app)).toBe(1);
    const mail = (await queuedMails(h.t, h.biz.email)).find((m) => m.idempotency_key.startsWith("password-reset:"));
    const link = actionLink(mail?.html ?? "");
    expect(link.startsWith("http://service.test/dashboard/reset-password#token=")).toBe(true);
    const token = new URLSearchParams(new URL(link).hash.slice(1)).get("token") ?? "";
    expect(mail?.text).toContain(`\n    ${token}\n`);

    const requests = recordRequests(page);
    const opened = await page.goto(link.replace("http://service.test", h.base));
    // No Referer leaves the dashboard at all (and a fragment is never part of one).
    expect(opened?.headers()["referrer-policy"]).toBe("no-referrer");
    await page.getByRole("heading", { level: 1, name: "Choose a new password" }).waitFor();
    await expect.poll(() => page.getByLabel("Reset token").inputValue(), { timeout: 15_000 }).toBe(token);
    await expect.poll(() => page.evaluate("location.hash"), { timeout: 15_000 }).toBe("");
    await expect.poll(() => page.url(), { timeout: 15_000 }).toBe(`${h.base}/dashboard/reset-password`);
    await h.capture(page, "reset-password-from-link");

    const newPassword = "lantern-orchard-copper-sparrow-42";
    await page.getByLabel("New password").fill(newPassword);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("Your password is changed and your other sessions have ended.").waitFor();
    expectTokenNotLeaked(requests, token, "/v1/password-resets/confirmation");
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill(h.biz.email);
    await page.getByLabel("Password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
    expect(h.cspViolations).toEqual([]);
    await context.close();
  });
});
