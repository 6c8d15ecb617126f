// The hosted collection pages in a real Chromium (Debian's `chromium`, driven by playwright-core) against
// the real app listening on loopback: each scope filled in and submitted as a person would, field errors,
// an expired link, a consumed link, a double submit from two tabs, keyboard use and a phone-sized screen.
// A screenshot of each page is saved under test-output/screenshots/ for reviewers.
//
// Without /usr/bin/chromium the file is skipped with a notice, unless REQUIRE_BROWSER=1 (CI), which turns a
// missing browser into a failure.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sepaConfig } from "../bank-rails/bank-rail-fixtures.js";
import { eventsOf, mintLink, readBeneficiary } from "../collection/helpers.js";
import { CHROMIUM, sharedChromium } from "../helpers/dashboard-browser.js";
import {
  bearer,
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import { newKey, postPayout } from "../payouts/payout-fixtures.js";

const available = existsSync(CHROMIUM);
const required = process.env.REQUIRE_BROWSER === "1";
const SCREENSHOTS = path.resolve("test-output/screenshots");
/** A 1×1 PNG, as the branding API takes it. */
const LOGO_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
/** Screenshots and the run marker are named per engine, so the PGlite and PostgreSQL passes do not overwrite each other. */
const ENGINE = onPostgres ? "postgres" : "pglite";

if (!available && !required) {
  console.warn(`NOTICE: browser tests skipped: no Chromium at ${CHROMIUM} (set REQUIRE_BROWSER=1 to make this fatal)`);
}

describe("browser prerequisites", () => {
  it.runIf(required)("Chromium is installed (REQUIRE_BROWSER=1)", () => {
    expect(available, `REQUIRE_BROWSER=1 but ${CHROMIUM} is missing: apt-get install -y chromium`).toBe(true);
  });
});

describe.skipIf(!available)("hosted collection pages in Chromium", () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let biz: RegisteredBusiness;
  let key: string;
  const ran: string[] = [];
  const scanned: string[] = [];
  const contexts = new Set<BrowserContext>();

  /** A context of the shared browser that this file closes in afterAll if its test did not (a failed test). */
  async function ownContext(options: Parameters<Browser["newContext"]>[0]): Promise<BrowserContext> {
    const context = await browser.newContext(options);
    contexts.add(context);
    context.on("close", () => contexts.delete(context));
    return context;
  }

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    t = await buildTestApp();
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    biz = await registerBusiness(t.app, "Northwind Payouts");
    key = biz.keys.sandbox;
    // The test process's one Chromium (launched with the project's flags, which keep it off the network); this
    // file closes only the contexts it opened.
    browser = await sharedChromium();
  });

  afterAll(async () => {
    await Promise.all([...contexts].map((context) => context.close()));
    await t?.close();
    // The CI script checks this marker to prove the browser tests ran (and did not silently skip).
    if (ran.length > 0) await writeFile(path.join(SCREENSHOTS, `ran-${ENGINE}.txt`), `${ran.join("\n")}\n`);
  });

  async function newPage(options: { phone?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await ownContext(
      options.phone
        ? { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true }
        : { viewport: { width: 1000, height: 900 } },
    );
    return { context, page: await context.newPage() };
  }

  async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(SCREENSHOTS, `${ENGINE}-${name}.png`), fullPage: true });
    ran.push(name);
  }

  /** Nothing wider than the screen, and every visible control labelled. */
  async function expectFitsAndLabelled(page: Page): Promise<void> {
    // (Browser-side code as text: the test program is compiled without the DOM library.)
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    const unlabeled = await page.evaluate<number>(
      "[...document.querySelectorAll('input:not([type=hidden]), select')].filter((c) => !c.labels || c.labels.length === 0).length",
    );
    expect(unlabeled).toBe(0);
  }

  /**
   * axe-core's WCAG 2.1 A/AA and best-practice rules on the page as shown: no serious or critical violation.
   * The engine is evaluated through the DevTools protocol, which the pages' CSP (rightly) does not govern.
   */
  async function expectAccessible(page: Page, name: string): Promise<void> {
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate<Array<{ id: string; impact: string | null; nodes: string[] }>>(
      "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })" +
        ".then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })))",
    );
    const blocking = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(blocking, `${name}: ${JSON.stringify(blocking)}`).toEqual([]);
    scanned.push(name);
  }

  /** The page at 375 px (a phone) and at desktop width, both saved. */
  async function shotBoth(page: Page, name: string): Promise<void> {
    const before = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 740 });
    await expectFitsAndLabelled(page);
    await shot(page, `${name}-375`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, `${name}-desktop`);
    if (before !== null) await page.setViewportSize(before);
  }

  async function linkFor(beneficiaryId: string, scope: "full_onboarding" | "payout_destination" | "tax_documents") {
    const minted = await mintLink(t.app, key, beneficiaryId, scope);
    return { ...minted, href: `${base}${minted.path}` };
  }

  it("full_onboarding on a phone: errors shown at the fields, then corrected and submitted", async () => {
    t.clock.set(TEST_START);
    const beneficiary = await createBeneficiary(t.app, key, { name: "Stub Person" });
    const link = await linkFor(beneficiary.id, "full_onboarding");
    const { context, page } = await newPage({ phone: true });
    const response = await page.goto(link.href);
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toContain("Northwind Payouts");
    // Readable on a phone: nothing wider than the screen.
    // (Browser-side code as text: the test program is compiled without the DOM library.)
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    // Every visible control has a label.
    const unlabeled = await page.evaluate<number>(
      "[...document.querySelectorAll('input:not([type=hidden]), select')].filter((c) => !c.labels || c.labels.length === 0).length",
    );
    expect(unlabeled).toBe(0);
    await shot(page, "full-onboarding-step1-phone");
    // Step 1: the bank's country (the script pre-selects its currency), then step 2.
    await page.getByLabel("Country of the bank").selectOption("DE");
    await expect(page.getByLabel("Account currency").inputValue()).resolves.toBe("EUR");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForLoadState();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Your details");
    await expectFitsAndLabelled(page);
    await shot(page, "full-onboarding-form-phone");

    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Lovelace");
    await page.getByLabel("Country of residence").selectOption("GB");
    await page.getByLabel("Account holder name").fill("Ada Lovelace");
    await page.getByLabel("IBAN").fill("DE89370400440532013001"); // wrong check digits
    await page.getByRole("button", { name: "Submit details" }).click();
    await page.waitForLoadState();
    await expect(page.getByRole("alert").textContent()).resolves.toContain("There is a problem");
    const iban = page.getByLabel("IBAN");
    await expect(iban.getAttribute("aria-invalid")).resolves.toBe("true");
    const describedBy = (await iban.getAttribute("aria-describedby")) ?? "";
    const message = await page.locator(`#${describedBy.split(" ").pop()}`).textContent();
    expect(message).toMatch(/check digits/i);
    // The error summary links to the field.
    await page.getByRole("link", { name: /IBAN/ }).click();
    await shot(page, "full-onboarding-field-errors-phone");

    await iban.fill("DE89 3704 0044 0532 0130 00");
    await page.getByRole("button", { name: "Submit details" }).click();
    await page.waitForLoadState();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Thank you");
    await expect(page.textContent("main")).resolves.toContain("ending in 3000");
    await shot(page, "full-onboarding-thanks-phone");
    await context.close();

    const read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read).toMatchObject({ first_name: "Ada", last_name: "Lovelace", collection_status: "details_submitted" });
    expect(read.declared_destination_id).not.toBeNull();
    expect(await eventsOf(t, beneficiary.id, "beneficiary.details_submitted")).toHaveLength(1);
    expect(await eventsOf(t, beneficiary.id, "beneficiary.bank_account.registered")).toHaveLength(1);
  });

  it("payout_destination with the keyboard only: choose an existing account and submit", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    await registerBankAccount(t.app, key, beneficiary.id, GERMAN_IBAN_ACCOUNT);
    const gb = await registerBankAccount(t.app, key, beneficiary.id, {
      account_holder_name: "Jane Doe",
      country: "GB",
      currency: "GBP",
      routing_code: "60-16-13",
      account_number: "31926819",
    });
    const link = await linkFor(beneficiary.id, "payout_destination");
    const { context, page } = await newPage();
    await page.goto(link.href);
    await shot(page, "payout-destination-form");
    // Tab to the first radio, arrow to the second (the GB account), then submit with Enter on the button.
    await page.getByLabel(/ending in 3000/).focus();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByLabel(/ending in 6819/).isChecked()).resolves.toBe(true);
    await page.getByRole("button", { name: "Submit details" }).focus();
    await page.keyboard.press("Enter");
    // page.keyboard does not wait for the navigation a key starts (a click does), and the answer has the form's own
    // address, so waitForURL alone would return at once: wait for the answer's heading, then read it.
    await page.getByRole("heading", { level: 1, name: "Thank you" }).waitFor();
    await page.waitForURL(link.href);
    await page.waitForLoadState();
    await expect(page.textContent("main")).resolves.toContain("ending in 6819");
    await shot(page, "payout-destination-thanks");
    await context.close();
    expect((await readBeneficiary(t.app, key, beneficiary.id)).declared_destination_id).toBe(gb.id);
  });

  it("tax_documents: a foreign individual picks W-8BEN and signs it", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const link = await linkFor(beneficiary.id, "tax_documents");
    const { context, page } = await newPage();
    await page.goto(link.href);
    await shot(page, "tax-form-choice");
    await page.getByLabel(/No: fill in form W-8BEN/).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForLoadState();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Form W-8BEN");
    await page.getByLabel("Your full name", { exact: true }).fill("Hans Meier");
    await page.getByLabel("Country of citizenship").selectOption("DE");
    await page.getByLabel("Day").fill("3");
    await page.getByLabel("Month").selectOption("2");
    await page.getByLabel("Year").fill("1980");
    await page.getByLabel("Foreign tax identifying number").fill("12345678901");
    await page.getByLabel("Street address").fill("Hauptstr. 1");
    await page.getByLabel("City").fill("Berlin");
    await page.getByLabel("Country", { exact: true }).selectOption("DE");
    await page.getByLabel("Treaty country").selectOption("DE");
    await page.getByLabel("I certify that the information above is correct").check();
    await page.getByLabel("Signature: type your full name").fill("Hans Meier");
    await shot(page, "tax-form-w8ben-filled");
    await page.getByRole("button", { name: "Sign and submit" }).click();
    await page.waitForLoadState();
    await expect(page.textContent("main")).resolves.toContain("Your tax form was received.");
    await shot(page, "tax-form-thanks");
    await context.close();
    expect((await readBeneficiary(t.app, key, beneficiary.id)).tax_document).toMatchObject({
      form: "W-8BEN",
      tin: "•••••8901",
      country: "DE",
      signed_by: "Hans Meier",
    });
  });

  it("an expired link shows a page saying so, with a 410", async () => {
    t.clock.set(TEST_START);
    const beneficiary = await createBeneficiary(t.app, key);
    const link = await linkFor(beneficiary.id, "full_onboarding");
    t.clock.set(new Date(TEST_START.getTime() + 7 * 24 * 60 * 60 * 1000 + 1));
    const { context, page } = await newPage();
    const response = await page.goto(link.href);
    expect(response?.status()).toBe(410);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("This link has expired");
    await expect(page.textContent("main")).resolves.toContain("Ask Northwind Payouts to send you a new one.");
    await shot(page, "link-expired");
    await context.close();
    t.clock.set(TEST_START);
  });

  it("a double submit from two tabs records once; the second tab and a later visit say the link was used", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const account = await registerBankAccount(t.app, key, beneficiary.id, GERMAN_IBAN_ACCOUNT);
    const link = await linkFor(beneficiary.id, "full_onboarding");
    const { context, page: first } = await newPage();
    const second = await context.newPage();
    await first.goto(link.href);
    await second.goto(link.href);
    for (const tab of [first, second]) {
      await tab.getByLabel("Country of residence").selectOption("FR");
      await tab.getByLabel("First name").fill("Jane");
      await tab.getByLabel("Last name").fill("Doe");
      await tab.getByLabel(/ending in 3000/).check();
    }
    await first.getByRole("button", { name: "Submit details" }).click();
    await first.waitForLoadState();
    await expect(first.textContent("h1")).resolves.toBe("Thank you");

    const [secondResponse] = await Promise.all([
      second.waitForResponse((r) => r.request().method() === "POST"),
      second.getByRole("button", { name: "Submit details" }).click(),
    ]);
    expect(secondResponse.status()).toBe(409);
    await second.waitForLoadState();
    await expect(second.textContent("h1")).resolves.toBe("These details were already submitted");
    await shot(second, "double-submit-second-tab");

    // The back button, or opening the link again later: the consumed link says so.
    await first.goBack();
    await first.waitForLoadState();
    const later = await first.goto(link.href);
    expect(later?.status()).toBe(410);
    await expect(first.textContent("h1")).resolves.toBe("These details were already submitted");
    await shot(first, "link-consumed");
    await context.close();

    expect(await eventsOf(t, beneficiary.id, "beneficiary.details_submitted")).toHaveLength(1);
    const read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read).toMatchObject({ country_of_residence: "FR", declared_destination_id: account.id });
  });

  it("the page cannot be framed and leaks no referrer (headers as the browser sees them)", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const link = await linkFor(beneficiary.id, "payout_destination");
    const { context, page } = await newPage();
    const response = await page.goto(link.href);
    const headers = response?.headers() ?? {};
    expect(headers["referrer-policy"]).toBe("no-referrer");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    // The inline stylesheet is allowed by its hash: the page is styled (not blocked by the CSP).
    const buttonColor = await page.evaluate<string>(
      "getComputedStyle(document.querySelector('button[type=submit]')).backgroundColor",
    );
    expect(buttonColor).toBe("rgb(31, 111, 235)");
    await context.close();
  });
  it("a German payee: step 1 pre-set to Germany and euro, then only IBAN (BIC optional) and the address, name filled in; accessible", async () => {
    const beneficiary = await createBeneficiary(t.app, key, { name: "Lena Schmidt", country_of_residence: "DE" });
    const link = await linkFor(beneficiary.id, "full_onboarding");
    const { context, page } = await newPage();
    await page.goto(link.href);
    await expect(page.getByLabel("Country of the bank").inputValue()).resolves.toBe("DE");
    await expect(page.getByLabel("Account currency").inputValue()).resolves.toBe("EUR");
    await expectAccessible(page, "step1");
    await shotBoth(page, "de-step1");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForLoadState();
    // Only what a German account needs.
    for (const label of ["IBAN", "SWIFT / BIC (optional)", "Account holder name"]) {
      await expect(page.getByLabel(label, { exact: true }).isVisible()).resolves.toBe(true);
    }
    for (const label of [/CLABE/, /Pix/, /routing/i, /Account number/, /Account currency/]) {
      await expect(page.getByLabel(label).count()).resolves.toBe(0);
    }
    // What the Business gave is filled in and editable.
    await expect(page.getByLabel("Account holder name").inputValue()).resolves.toBe("Lena Schmidt");
    await expect(page.getByLabel("First name").inputValue()).resolves.toBe("Lena");
    await expect(page.getByLabel("Last name").inputValue()).resolves.toBe("Schmidt");
    await expect(page.getByLabel("Country of residence").inputValue()).resolves.toBe("DE");
    await expectAccessible(page, "de-form");
    await shotBoth(page, "de-form");

    await page.getByLabel("Day").fill("7");
    await page.getByLabel("Month").selectOption({ label: "July" });
    await page.getByLabel("Year").fill("1988");
    await page.getByLabel("Street address").fill("Hauptstraße 1");
    await page.getByLabel("Postal code").fill("10115");
    await page.getByLabel("City").fill("Berlin");
    await page.getByLabel("Country", { exact: true }).selectOption("DE");
    await page.getByLabel("IBAN").fill("DE89 3704 0044 0532");
    await page.getByRole("button", { name: "Submit details" }).click();
    await page.waitForLoadState();
    // The message sits beside its field, tied to it.
    const iban = page.getByLabel("IBAN");
    await expect(iban.getAttribute("aria-invalid")).resolves.toBe("true");
    await expectAccessible(page, "de-form-errors");
    await shotBoth(page, "de-form-errors");
    await iban.fill("DE89 3704 0044 0532 0130 00");
    await page.getByRole("button", { name: "Submit details" }).click();
    await page.waitForLoadState();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Thank you");
    await expectAccessible(page, "thanks");
    await shotBoth(page, "de-thanks");
    await context.close();
    expect(await readBeneficiary(t.app, key, beneficiary.id)).toMatchObject({
      date_of_birth: "1988-07-07",
      postal_address: { line1: "Hauptstraße 1", postal_code: "10115", city: "Berlin", country: "DE" },
    });
  });

  it("a US payee: choosing the United States switches the currency to USD, then routing and account number", async () => {
    const beneficiary = await createBeneficiary(t.app, key, { name: "John Roe" });
    const link = await linkFor(beneficiary.id, "payout_destination");
    const { context, page } = await newPage({ phone: true });
    await page.goto(link.href);
    await page.getByLabel("Country of the bank").selectOption("US");
    await expect(page.getByLabel("Account currency").inputValue()).resolves.toBe("USD");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForLoadState();
    await expect(page.getByLabel("ABA routing number").isVisible()).resolves.toBe(true);
    await expect(page.getByLabel("Account number").isVisible()).resolves.toBe(true);
    await expect(page.getByLabel("IBAN").count()).resolves.toBe(0);
    await expectAccessible(page, "us-form");
    await shotBoth(page, "us-form");
    await page.getByLabel("ABA routing number").fill("021000021");
    await page.getByLabel("Account number").fill("4417120983");
    await page.getByRole("button", { name: "Submit details" }).click();
    await page.waitForLoadState();
    await expect(page.textContent("main")).resolves.toContain("ending in 0983 (USD)");
    await context.close();
  });

  it("works without JavaScript: step 1 by hand, step 2, submitted", async () => {
    const beneficiary = await createBeneficiary(t.app, key, { name: "Ann Smith" });
    const link = await linkFor(beneficiary.id, "payout_destination");
    const context = await ownContext({ javaScriptEnabled: false, viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await page.goto(link.href);
    await page.getByLabel("Country of the bank").selectOption("GB");
    // No script ran: the currency was not pre-selected; the payee picks it.
    await expect(page.getByLabel("Account currency").inputValue()).resolves.toBe("");
    await page.getByLabel("Account currency").selectOption("GBP");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForLoadState();
    expect(page.url()).toContain("country=GB&currency=GBP");
    await page.getByLabel("Sort code").fill("60-16-13");
    await page.getByLabel("Account number").fill("31926819");
    await shot(page, "no-js-gb-form-375");
    await page.getByRole("button", { name: "Submit details" }).click();
    await page.waitForLoadState();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Thank you");
    await expect(page.textContent("main")).resolves.toContain("ending in 6819 (GBP)");
    await context.close();
  });

  it("SEPA without an address: the branded page asks for town and country, then a SEPA payout is accepted", async () => {
    const production = biz.keys.production;
    const branded = await t.app.inject({
      method: "PATCH",
      url: "/v1/branding",
      headers: bearer(production),
      payload: { display_name: "Northwind", brand_color: "#0a5c36", logo: { media_type: "image/png", data: LOGO_PNG } },
    });
    expect(branded.statusCode, branded.body).toBe(200);
    const rail = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(production),
      payload: sepaConfig(),
    });
    expect(rail.statusCode, rail.body).toBe(201);
    const payee = await createBeneficiary(t.app, production, {
      first_name: "Piet",
      last_name: "Jansen",
      country_of_residence: "NL",
    });
    await registerBankAccount(t.app, production, payee.id, {
      account_holder_name: "Piet Jansen",
      country: "NL",
      currency: "EUR",
      iban: "NL91ABNA0417164300",
    });
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${payee.id}/acknowledge`, headers: bearer(production) });
    const payout = { beneficiary_id: payee.id, amount_minor: 2500, currency: "EUR" };
    const refused = await postPayout(t.app, production, { ...payout, idempotency_key: newKey() });
    expect(refused.json().error.code).toBe("SEPA_ADDRESS_NOT_STRUCTURED");

    const minted = await mintLink(t.app, production, payee.id, "payout_destination");
    const { context, page } = await newPage();
    await page.goto(`${base}${minted.path}`);
    // Branded: the Business's name and its logo, served by the page itself; the brand colour on the button.
    await expect(page.locator("header").textContent()).resolves.toContain("Northwind");
    const logoLoaded = await page.evaluate<boolean>("document.querySelector('header img').naturalWidth > 0");
    expect(logoLoaded).toBe(true);
    const button = await page.evaluate<string>("getComputedStyle(document.querySelector('button[type=submit]')).backgroundColor");
    expect(button).toBe("rgb(10, 92, 54)");
    await page.getByLabel(/ending in 4300/).check();
    await page.getByRole("button", { name: "Submit details" }).click();
    await page.waitForLoadState();
    const city = page.getByLabel("City");
    await expect(city.getAttribute("aria-invalid")).resolves.toBe("true");
    const describedBy = (await city.getAttribute("aria-describedby")) ?? "";
    await expect(page.locator(`#${describedBy.split(" ").pop()}`).textContent()).resolves.toMatch(/SEPA/);
    await expectAccessible(page, "sepa-address-errors");
    await shotBoth(page, "sepa-address-errors");
    await page.getByLabel("Street address").fill("Damrak 1");
    await city.fill("Amsterdam");
    await page.getByLabel("Country", { exact: true }).selectOption("NL");
    await page.getByRole("button", { name: "Submit details" }).click();
    await page.waitForLoadState();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Thank you");
    await context.close();
    const accepted = await postPayout(t.app, production, { ...payout, idempotency_key: newKey() });
    expect(accepted.statusCode, accepted.body).toBe(201);
  });

  it("every page scanned had no serious or critical axe-core violation", () => {
    expect(scanned).toEqual(
      expect.arrayContaining(["step1", "de-form", "de-form-errors", "thanks", "us-form", "sepa-address-errors"]),
    );
  });
});
