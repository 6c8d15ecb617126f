// The hosted collection pages in a real Chromium (Debian's `chromium`, driven by playwright-core) against
// the real app listening on loopback: each scope filled in and submitted as a person would, field errors,
// an expired link, a consumed link, a double submit from two tabs, keyboard use and a phone-sized screen.
// A screenshot of each page is saved under test-output/screenshots/ for reviewers.
//
// Without /usr/bin/chromium the file is skipped with a notice, unless REQUIRE_BROWSER=1 (CI), which turns a
// missing browser into a failure.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventsOf, mintLink, readBeneficiary } from "../collection/helpers.js";
import {
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";

/** Debian's package; CHROMIUM_PATH overrides it (e.g. to check that REQUIRE_BROWSER=1 fails without a browser). */
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const available = existsSync(CHROMIUM);
const required = process.env.REQUIRE_BROWSER === "1";
const SCREENSHOTS = path.resolve("test-output/screenshots");
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

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    t = await buildTestApp();
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    biz = await registerBusiness(t.app, "Northwind Payouts");
    key = biz.keys.sandbox;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Playwright gives each launch a fresh temporary --user-data-dir. The rest keeps Chromium off the network.
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    // The CI script checks this marker to prove the browser tests ran (and did not silently skip).
    if (ran.length > 0) await writeFile(path.join(SCREENSHOTS, `ran-${ENGINE}.txt`), `${ran.join("\n")}\n`);
  });

  async function newPage(options: { phone?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext(
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
    await shot(page, "full-onboarding-form-phone");

    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Lovelace");
    await page.getByLabel("Country of residence").selectOption("GB");
    await page.getByLabel("Account holder name").fill("Ada Lovelace");
    await page.getByLabel("Country of the bank").selectOption("DE");
    await page.getByLabel("Account currency").fill("EUR");
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
    await page.getByLabel("Date of birth").fill("1980-02-03");
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
});
