// The dashboard's Payouts filters and a payout's events and webhook deliveries, in Debian's Chromium against
// the real app on loopback (a local HTTPS webhook receiver answers the deliveries): filters narrow the table,
// live in the URL (a shared link shows the same rows, Back restores the previous filters: every status,
// Beneficiary and submitted search is one history entry, a keystroke none), a form mistake and
// the API's refusal of a reversed range show beside the field; the payout page lists the payout's events
// newest first and the deliveries of those events with their outcome. axe and screenshots on both pages. A
// first visit asks for the session and the list's first page once, before the app renders (the entry's early
// requests, dashboard/src/pages.ts), and an early answer from before a sign-in is never shown after it.
//
// Without /usr/bin/chromium the file is skipped with a notice, unless REQUIRE_BROWSER=1 (CI).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserHarness,
  browserAvailable,
  browserRequired,
  listenOnLoopback,
  noticeIfNoBrowser,
  pickOption,
  startBrowser,
} from "../helpers/dashboard-browser.js";
import { bearer } from "../helpers/factories.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { createPayout, decide, newKey, payableBeneficiary } from "../payouts/payout-fixtures.js";
import { startWebhookTestBed, type WebhookTestBed } from "../webhooks/webhook-test-bed.js";

noticeIfNoBrowser("dashboard payouts filters tests");

describe.skipIf(!browserAvailable && !browserRequired)("the dashboard's payouts filters and payout activity", () => {
  let bed: WebhookTestBed;
  let kit: BrowserHarness;
  let email: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    bed = await startWebhookTestBed();
    const app = bed.testApp.app;
    const base = await listenOnLoopback(app);
    email = bed.business.email;
    await bed.subscribe(["payout.disbursement_submitted", "payout.disbursed", "payout.acknowledged"]);
    const { beneficiaryId } = await payableBeneficiary(app, bed.key);
    ids.small = (
      await createPayout(app, bed.key, { beneficiary_id: beneficiaryId, amount_minor: 5_000, external_ref: "INV-SMALL" })
    ).payout_id;
    ids.large = (
      await createPayout(app, bed.key, { beneficiary_id: beneficiaryId, amount_minor: 120_000, external_ref: "INV-LARGE" })
    ).payout_id;
    const bulk = await app.inject({
      method: "POST",
      url: "/v1/payouts/bulk",
      headers: bearer(bed.key),
      payload: {
        uploadId: newKey("upload"),
        rows: [
          {
            beneficiary_id: beneficiaryId,
            amount_minor: 7_000,
            currency: "EUR",
            external_ref: "INV-CSV",
            idempotency_key: newKey(),
          },
        ],
      },
    });
    if (bulk.statusCode !== 200) throw new Error(bulk.body);
    ids.csv = bulk.json().results[0].payout_id;
    const approved = await decide(app, bed.key, ids.small, "approve");
    if (approved.statusCode >= 300) throw new Error(approved.body);
    await bed.worker.drain();
    await bed.worker.drain();
    kit = await startBrowser(base, "ran-payouts-filters");
  });

  afterAll(async () => {
    await kit?.close();
    await bed?.close();
  });

  const refs = async (page: Page) => (await page.getByTestId("payout-row").getByRole("link").allTextContents()).sort();

  it("opens the Payouts page with one request per answer, the list's first page asked for before the app renders", async () => {
    const { context, page } = await kit.newPage();
    try {
      await kit.signIn(page, email, REGISTRATION_PASSWORD);
      const asked: string[] = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith("/v1/")) asked.push(`${url.pathname}${url.search}`);
      });
      // A new document, as when a bookmark is opened: the entry starts the session check and the list's first page.
      await page.goto(`${kit.base}/dashboard/payouts`);
      await expect.poll(() => page.getByTestId("payout-row").count(), { timeout: 15_000 }).toBe(3);
      // Each answered once: the page took the entry's early requests instead of asking again (pages.ts must ask
      // for what pages/payouts.tsx asks for first).
      expect(asked.filter((url) => url === "/v1/session")).toHaveLength(1);
      expect(asked.filter((url) => url === "/v1/payouts?limit=25")).toHaveLength(1);
      const order = await page.evaluate<{ request: number; app: number }>(
        `({ request: performance.getEntriesByType("resource").find((r) => r.name.endsWith("/v1/payouts?limit=25")).startTime,
            app: performance.getEntriesByName("dashboard:app")[0].startTime })`,
      );
      expect(order.request).toBeLessThan(order.app);
      expect(kit.violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("signed out, a link to Payouts leads to sign-in, and the list then shows the payouts, not the earlier refusal", async () => {
    const { context, page } = await kit.newPage();
    try {
      await page.goto(`${kit.base}/dashboard/payouts`);
      await page.waitForURL(/\/dashboard\/sign-in$/);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(REGISTRATION_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
      await page.getByRole("link", { name: "Payouts", exact: true }).click();
      await expect.poll(() => page.getByTestId("payout-row").count(), { timeout: 15_000 }).toBe(3);
      await expect(page.getByText("Could not load payouts").count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  });

  it("filters the table, keeps the filters in the URL, and Back restores the previous ones", async () => {
    const { context, page } = await kit.newPage();
    await kit.signIn(page, email, REGISTRATION_PASSWORD);
    await page.goto(`${kit.base}/dashboard/payouts`);
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-CSV", "INV-LARGE", "INV-SMALL"]);
    const filters = page.getByRole("form", { name: "More filters" });

    // An amount needs a currency: said beside the field, nothing sent.
    await filters.getByLabel("Amount from").fill("100");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await filters.getByText("Choose a currency to filter by amount").waitFor();
    expect(page.url()).not.toContain("amount_min");

    await pickOption(page, filters.getByLabel("Currency"), "EUR", "Euro (EUR)");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-LARGE"]);
    // page.url() follows the page's own history changes by an event of their own: polled, not read once.
    await expect.poll(() => new URL(page.url()).searchParams.get("amount_min"), { timeout: 15_000 }).toBe("10000");
    const shared = page.url();

    await filters.getByLabel("Amount from").fill("");
    await filters.getByLabel("Channel").selectOption("csv");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-CSV"]);

    await page.goBack();
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-LARGE"]);
    // The form follows the address in an effect after the render that shows the (cached) rows: polled.
    await expect.poll(() => filters.getByLabel("Amount from").inputValue(), { timeout: 15_000 }).toBe("100.00");
    await page.goBack();
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-CSV", "INV-LARGE", "INV-SMALL"]);
    await expect.poll(() => filters.getByLabel("Currency").inputValue(), { timeout: 15_000 }).toBe("");

    // A shared link shows the same rows in a fresh tab.
    const other = await context.newPage();
    await other.goto(shared);
    await expect.poll(() => refs(other), { timeout: 15_000 }).toEqual(["INV-LARGE"]);
    await other.close();

    // A reversed range: the API's message and code beside the field.
    await filters.getByLabel("Created from").fill("2030-01-10");
    await filters.getByLabel("Created to").fill("2030-01-01");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await filters.getByText(/created_to.*must be after.*\(range_reversed\)/).waitFor();
    // The refusal is not presented as an empty result.
    await expect(page.getByTestId("empty").count()).resolves.toBe(0);
    await kit.capture(page, "payouts-filters");

    await filters.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-CSV", "INV-LARGE", "INV-SMALL"]);
    expect(kit.violations).toEqual([]);
    await context.close();
  });

  it("steps Back through the status, Beneficiary and search filters, one history entry per change", async () => {
    const app = bed.testApp.app;
    const other = await payableBeneficiary(app, bed.key);
    await createPayout(app, bed.key, { beneficiary_id: other.beneficiaryId, amount_minor: 3_000, external_ref: "INV-OTHER" });
    const { context, page } = await kit.newPage();
    await kit.signIn(page, email, REGISTRATION_PASSWORD);
    await page.goto(`${kit.base}/dashboard/payouts`);
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-CSV", "INV-LARGE", "INV-OTHER", "INV-SMALL"]);
    const param = (name: string) => new URL(page.url()).searchParams.get(name);

    await page.getByLabel("Status", { exact: true }).first().click();
    await page.getByRole("option", { name: "Pending approval" }).click();
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-CSV", "INV-LARGE", "INV-OTHER"]);
    await expect.poll(() => param("status"), { timeout: 15_000 }).toBe("pending_approval");

    // Typing part of an id neither filters nor adds history; the whole id does, once.
    const beneficiaryField = page.getByLabel("Beneficiary id");
    await beneficiaryField.pressSequentially(other.beneficiaryId.slice(0, 8));
    await page.getByText("Paste a Beneficiary id").waitFor();
    expect(param("beneficiary_id")).toBeNull();
    await beneficiaryField.fill(other.beneficiaryId);
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-OTHER"]);
    await expect.poll(() => param("beneficiary_id"), { timeout: 15_000 }).toBe(other.beneficiaryId);

    // A search is one entry when submitted, not one per letter typed.
    const search = page.getByRole("form", { name: "Search payouts" });
    await search.getByLabel("Search").pressSequentially("INV-LARGE");
    expect(param("external_ref")).toBeNull();
    await search.getByRole("button", { name: "Search" }).click();
    await page.getByTestId("empty").waitFor();
    await expect.poll(() => param("external_ref"), { timeout: 15_000 }).toBe("INV-LARGE");

    await page.goBack();
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-OTHER"]);
    expect(param("external_ref")).toBeNull();
    // The fields follow the address in an effect after the render that shows the (cached) rows: polled.
    await expect.poll(() => search.getByLabel("Search").inputValue(), { timeout: 15_000 }).toBe("");

    await page.goBack();
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-CSV", "INV-LARGE", "INV-OTHER"]);
    expect(param("beneficiary_id")).toBeNull();
    await expect.poll(() => beneficiaryField.inputValue(), { timeout: 15_000 }).toBe("");
    expect(param("status")).toBe("pending_approval");

    await page.goBack();
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-CSV", "INV-LARGE", "INV-OTHER", "INV-SMALL"]);
    expect(param("status")).toBeNull();
    await expect.poll(() => page.getByLabel("Status", { exact: true }).first().inputValue(), { timeout: 15_000 }).toBe("");
    // Forward replays the same entries.
    await page.goForward();
    await expect.poll(() => refs(page), { timeout: 15_000 }).toEqual(["INV-CSV", "INV-LARGE", "INV-OTHER"]);
    expect(kit.violations).toEqual([]);
    await context.close();
  });

  it("shows a payout's events newest first and the webhook deliveries of those events", async () => {
    const { context, page } = await kit.newPage();
    await kit.signIn(page, email, REGISTRATION_PASSWORD);
    await page.goto(`${kit.base}/dashboard/payouts/${ids.small}`);
    await page.getByRole("heading", { name: "Events" }).waitFor();
    await expect.poll(() => page.getByTestId("event-item").count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    const events = await bed.testApp.app.inject({
      method: "GET",
      url: `/v1/events?subject_id=${ids.small}`,
      headers: bearer(bed.key),
    });
    const types = (events.json().events as { type: string }[]).map((event) => event.type);
    expect(types[0]).toBe("payout.disbursed");
    const shown = () =>
      page
        .getByTestId("event-item")
        .evaluateAll((items) => items.map((item) => item.querySelector(".mantine-Timeline-itemTitle")?.textContent ?? ""));
    await expect.poll(shown, { timeout: 15_000 }).toEqual(types);
    await page.getByTestId("event-item").first().getByRole("button", { name: "Show data" }).click();
    await page.getByText(`"payout_id": "${ids.small}"`).first().waitFor();

    await expect.poll(() => page.getByTestId("delivery-row").count(), { timeout: 15_000 }).toBe(types.length);
    const rows = await page.getByTestId("delivery-row").allTextContents();
    expect(rows.every((row) => row.includes("succeeded") && row.includes("200"))).toBe(true);
    await kit.capture(page, "payout-activity");

    // A payout nothing happened to yet: both sections say so.
    await page.goto(`${kit.base}/dashboard/payouts/${ids.large}`);
    await page.getByTestId("events-empty").waitFor();
    await page.getByTestId("deliveries-empty").waitFor();

    // From the payout to its Beneficiary, and from there to that Beneficiary's payouts only.
    // The payout names its payee (linked to the Beneficiary), not the Beneficiary's id.
    await page.getByTestId("payout-payee").click();
    await page.getByRole("link", { name: /^Payouts to / }).click();
    await page.getByRole("heading", { level: 1, name: "Payouts" }).waitFor();
    await expect
      .poll(() => new URL(page.url()).searchParams.get("beneficiary_id"), { timeout: 15_000 })
      .toMatch(/^[0-9a-f-]{36}$/);
    // Both of this Beneficiary's payouts, and not the other Beneficiary's.
    const beneficiaryRows = page.getByTestId("payout-row");
    await expect
      .poll(
        async () => {
          const texts = await beneficiaryRows.allTextContents();
          const has = (reference: string) => texts.some((row) => row.includes(reference));
          return has("INV-LARGE") && has("INV-SMALL") && !has("INV-OTHER");
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(kit.violations).toEqual([]);
    await context.close();
  });
});
