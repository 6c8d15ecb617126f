// The Developers page's webhooks and Home's volume and failing deliveries, in a real Chromium against the
// real app on loopback, with a real HTTPS receiver whose certificate the service trusts (the webhook test
// bed): an admin adds the endpoint (a refused URL shows its error beside the field; the secret is shown
// once), edits its events, disables and enables it, rotates the secret behind a step-up confirmation; then
// deliveries fail until one is abandoned and one retries: Home counts them and links to the log, the log
// filters by status and event type, pages by cursor, shows every attempt's result and latency, and
// redelivers the abandoned one after a confirmation. Home charts the volume per day with a table beside it.
// Every page is scanned with axe and photographed at desktop and phone width.
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserHarness,
  browserAvailable,
  listenOnLoopback,
  noticeIfNoBrowser,
  startBrowser,
} from "../helpers/dashboard-browser.js";
import { bearer } from "../helpers/factories.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { TEST_START } from "../helpers/test-app.js";
import { createPayout, decide, payableBeneficiary } from "../payouts/payout-fixtures.js";
import { startWebhookTestBed, type WebhookTestBed } from "../webhooks/webhook-test-bed.js";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

noticeIfNoBrowser("dashboard webhook tests");

describe.skipIf(!browserAvailable)("the dashboard's webhooks and Home in Chromium", () => {
  let bed: WebhookTestBed;
  let harness: BrowserHarness;

  beforeAll(async () => {
    bed = await startWebhookTestBed();
    bed.testApp.clock.set(TEST_START);
    harness = await startBrowser(await listenOnLoopback(bed.testApp.app), "ran-webhooks-home");
  });

  afterAll(async () => {
    await harness?.close();
    await bed?.close();
  });

  const signIn = (page: Page) => harness.signIn(page, bed.business.email, REGISTRATION_PASSWORD);

  const endpoint = async () =>
    (await bed.testApp.app.inject({ method: "GET", url: "/v1/webhook-subscriptions", headers: bearer(bed.key) })).json() as {
      url: string;
      enabled: boolean;
      enabled_events: string[];
    };

  it("adds the endpoint with its secret shown once, edits its events, disables, enables and rotates the secret", async () => {
    const { context, page } = await harness.newPage();
    await signIn(page);
    await page.getByRole("link", { name: "Developers" }).click();
    await page.getByTestId("no-endpoint").waitFor();
    await page.getByTestId("no-deliveries").waitFor();
    await harness.capture(page, "developers-webhooks-empty");

    await page.getByRole("button", { name: "Add an endpoint" }).click();
    const form = page.getByRole("dialog", { name: "Add a webhook endpoint" });
    await form.getByLabel(/^Endpoint URL/).fill("http://example.com/hooks");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    // The API's refusal beside the field (and in the alert with its code).
    await form.getByRole("alert").waitFor();
    await expect.poll(() => form.getByRole("alert").textContent(), { timeout: 15_000 }).toContain("validation_failed");
    await expect.poll(() => form.locator(".mantine-TextInput-error").textContent(), { timeout: 15_000 }).toMatch(/https/i);
    await harness.capture(page, "developers-webhook-form-error");
    await form.getByLabel(/^Endpoint URL/).fill(bed.hookUrl);
    await form.getByRole("button", { name: "Add endpoint" }).click();
    const first = await page.getByTestId("secret-value").textContent();
    expect(first).toMatch(/^whsec_sandbox_[0-9a-f]{64}$/);
    await expect.poll(() => page.getByTestId("endpoint-url").textContent(), { timeout: 15_000 }).toBe(bed.hookUrl);
    await harness.capture(page, "developers-webhook-created");
    await page.getByRole("button", { name: "Hide the secret" }).click();
    await expect.poll(() => page.getByTestId("secret-value").count(), { timeout: 15_000 }).toBe(0);
    // No secret in localStorage: at most the environment choice.
    const stored = await page.evaluate<string[]>("Object.keys(localStorage)");
    expect(stored.filter((key) => key !== "dashboard.environment")).toEqual([]);

    // Every event type was subscribed by default; one fewer after unchecking one.
    const subscribed = (await endpoint()).enabled_events.length;
    expect(subscribed).toBeGreaterThan(1);
    await page.getByRole("button", { name: "Edit URL and events" }).click();
    const edit = page.getByRole("dialog", { name: "Edit the webhook endpoint" });
    await edit.getByRole("checkbox", { name: "payout.failed" }).uncheck();
    await edit.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(() => page.getByTestId("webhook-endpoint").textContent(), { timeout: 15_000 })
      .toContain(`${subscribed - 1} events`);
    expect((await endpoint()).enabled_events).not.toContain("payout.failed");

    await page.getByRole("button", { name: "Disable", exact: true }).click();
    await page.getByRole("dialog", { name: "Disable the endpoint?" }).getByRole("button", { name: "Disable endpoint" }).click();
    await expect.poll(() => page.getByTestId("endpoint-state").textContent(), { timeout: 15_000 }).toBe("Disabled");
    expect((await endpoint()).enabled).toBe(false);
    await page.getByRole("button", { name: "Enable", exact: true }).click();
    await expect.poll(() => page.getByTestId("endpoint-state").textContent(), { timeout: 15_000 }).toBe("Enabled");

    // Six minutes on, the sign-in no longer counts as a recent confirmation: rotating asks for the password.
    bed.testApp.clock.set(new Date(TEST_START.getTime() + 6 * MINUTE));
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.getByRole("dialog", { name: "Rotate the signing secret?" }).getByRole("button", { name: "Rotate secret" }).click();
    const stepUp = page.getByRole("dialog", { name: "Confirm it is you" });
    await stepUp.getByLabel(/^Password/).fill(REGISTRATION_PASSWORD);
    await stepUp.getByRole("button", { name: "Confirm" }).click();
    const second = await page.getByTestId("secret-value").textContent();
    expect(second).toMatch(/^whsec_sandbox_[0-9a-f]{64}$/);
    expect(second).not.toBe(first);
    // The rotation kept the events chosen.
    expect((await endpoint()).enabled_events).not.toContain("payout.failed");
    await context.close();
  });

  it("Home counts failing deliveries; the log filters, pages, shows attempts and redelivers an abandoned one", async () => {
    const clock = bed.testApp.clock;
    clock.set(new Date(TEST_START.getTime() + 10 * MINUTE));
    // 21 deliveries that succeed: more than one page of 20.
    bed.receiver.respondWith(() => ({ status: 204 }));
    for (let i = 0; i < 21; i += 1) await bed.recordEvent("beneficiary.details_submitted");
    await bed.drain();
    // One abandoned after 8 failures, then one retrying after its first failure.
    bed.receiver.respondWith(() => ({ status: 500 }));
    const abandoned = await bed.recordEvent("beneficiary.bank_account.registered", {
      data: {
        bank_account_id: randomUUID(),
        beneficiary_id: randomUUID(),
        last4: "3000",
        country: "DE",
        currency: "EUR",
      },
    });
    await bed.drain();
    for (let i = 0; i < 7; i += 1) {
      clock.advance(2 * 3600_000);
      await bed.drain();
    }
    expect((await bed.delivery(abandoned.id)).status).toBe("abandoned");
    const retrying = await bed.recordEvent("beneficiary.details_submitted");
    await bed.drain();
    expect(await bed.delivery(retrying.id)).toMatchObject({ status: "pending", attempt_count: 1 });

    const { context, page } = await harness.newPage();
    await signIn(page);
    await expect.poll(() => page.getByTestId("failing-deliveries-count").textContent(), { timeout: 15_000 }).toBe("2");
    const rows = page.getByTestId("failing-delivery-row");
    await expect(rows.allTextContents()).resolves.toEqual([
      expect.stringContaining("beneficiary.details_submitted"),
      expect.stringContaining("beneficiary.bank_account.registered"),
    ]);
    await expect.poll(() => rows.first().textContent(), { timeout: 15_000 }).toContain("Retrying (1 of 8)");
    await expect.poll(() => rows.last().textContent(), { timeout: 15_000 }).toContain("HTTP 500");
    await harness.capture(page, "home-failing-deliveries");

    await page.getByRole("link", { name: "Open the delivery log (abandoned)" }).click();
    await page.waitForURL(/delivery_status=abandoned/);
    await expect.poll(() => page.getByTestId("delivery-row").count(), { timeout: 15_000 }).toBe(1);
    const row = page.getByTestId("delivery-row");
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain("Abandoned");
    await row.getByRole("button", { name: "Attempts" }).click();
    await expect.poll(() => page.getByTestId("attempt-row").count(), { timeout: 15_000 }).toBe(8);
    await expect
      .poll(() => page.getByTestId("attempt-row").first().textContent(), { timeout: 15_000 })
      .toMatch(/Failed · HTTP 500\d+ ms/);
    await page.getByText("Stopped: attempts exhausted").waitFor();
    await harness.capture(page, "developers-delivery-attempts");

    // Redelivery, confirmed; the receiver answers now.
    bed.receiver.respondWith(() => ({ status: 200 }));
    await row.getByRole("button", { name: /^Redeliver/ }).click();
    await page.getByRole("dialog", { name: "Redeliver this event?" }).getByRole("button", { name: "Redeliver" }).click();
    await page.getByText("Redelivery started").waitFor();
    await page.getByTestId("no-deliveries").waitFor();
    await bed.drain();
    expect(await bed.delivery(abandoned.id)).toMatchObject({ status: "succeeded", series: 2 });

    // Filters: succeeded (22 now), by pages of 20; then by event type.
    await page.getByLabel("Status", { exact: true }).first().click();
    await page.getByRole("option", { name: "Succeeded" }).click();
    await page.waitForURL(/delivery_status=succeeded/);
    await expect.poll(() => page.getByTestId("delivery-row").count(), { timeout: 15_000 }).toBe(20);
    await page.getByRole("button", { name: "Next page" }).click();
    await expect.poll(() => page.getByTestId("delivery-row").count(), { timeout: 15_000 }).toBe(2);
    await expect(page.getByRole("button", { name: "Next page" }).isDisabled()).resolves.toBe(true);
    await page.getByRole("button", { name: "Previous page" }).click();
    await expect.poll(() => page.getByTestId("delivery-row").count(), { timeout: 15_000 }).toBe(20);
    await page.getByLabel("Event type", { exact: true }).first().click();
    await page.getByRole("option", { name: "beneficiary.bank_account.registered" }).click();
    await expect.poll(() => page.getByTestId("delivery-row").count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId("delivery-row").textContent(), { timeout: 15_000 }).toContain("Succeeded");
    await harness.capture(page, "developers-delivery-log");
    await context.close();
  });

  it("Home charts the payout volume per day and currency, with the figures as a table", async () => {
    const clock = bed.testApp.clock;
    const { beneficiaryId } = await payableBeneficiary(bed.testApp.app, bed.key);
    const pay = (amount: number) =>
      createPayout(bed.testApp.app, bed.key, { beneficiary_id: beneficiaryId, amount_minor: amount });
    const dayOne = new Date(Date.UTC(2026, 5, 10, 9));
    clock.set(dayOne);
    await pay(100_000);
    await pay(250);
    clock.set(new Date(dayOne.getTime() + 2 * DAY));
    await pay(4_999);
    const rejected = await pay(7_000);
    expect((await decide(bed.testApp.app, bed.key, rejected.payout_id, "reject")).statusCode).toBe(201);

    const { context, page } = await harness.newPage();
    await signIn(page);
    const chart = page.getByTestId("volume-chart");
    await chart.waitFor();
    await expect(chart.getAttribute("data-currency")).resolves.toBe("EUR");
    // 30 bars, one per day; the caption names the total, the count and the highest day.
    await expect(chart.getByTestId("volume-bar").count()).resolves.toBe(30);
    await expect
      .poll(() => chart.locator("figcaption").textContent(), { timeout: 15_000 })
      .toBe("EUR: €1,052.49 in 3 payouts, highest day €1,002.50");
    await expect(page.getByRole("img", { name: /^EUR: €1,052.49/ }).count()).resolves.toBe(1);
    // The amount axis: zero, half and the highest day.
    await expect(chart.getByTestId("volume-axis-tick").allTextContents()).resolves.toEqual(["€0.00", "€501.25", "€1,002.50"]);
    await page.getByText("EUR per day as a table").click();
    await expect(chart.getByTestId("volume-table").locator("tbody tr").allTextContents()).resolves.toEqual([
      "10 Jun2€1,002.50",
      "12 Jun1€49.99",
    ]);
    await harness.capture(page, "home-volume");
    // Production has none of the sandbox's payouts.
    await page.getByText("Production", { exact: true }).click();
    await page.getByTestId("no-volume").waitFor();
    await expect.poll(() => page.getByTestId("failing-deliveries-count").textContent(), { timeout: 15_000 }).toBe("0");
    await context.close();
    expect(harness.violations).toEqual([]);
  });
});
