// The one browser harness of the dashboard tests: Debian's Chromium through playwright-core with the project's
// flags (one browser per test process), pages that record any Content-Security-Policy report or request to
// another origin, sign-in (through the API into the page's cookie jar, or through the sign-in page), and the
// capture of a settled page: an axe-core scan (no serious or critical violation), and screenshots at desktop and
// 375 px under test-output/screenshots/dashboard/ with a check that nothing is wider than the phone. Every captured
// page name is written, when the harness closes, to `<ranFile>-<engine>.txt` there: .ci/run checks those
// markers to prove the browser tests ran on both engines rather than being skipped.
//
// `startDashboard` builds the app, listens on loopback and registers a Business; `startBrowser` is for a test
// that brings its own listening app (the webhook test bed, for instance).
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Locator, type Page, type Request } from "playwright-core";
import { expect } from "vitest";
import { type RegisteredBusiness, registerBusiness } from "./factories.js";
import { buildTestApp, type TestApp } from "./test-app.js";
import { onPostgres } from "./test-database.js";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const browserAvailable = existsSync(CHROMIUM);
export const browserRequired = process.env.REQUIRE_BROWSER === "1";
export const ENGINE = onPostgres ? "postgres" : "pglite";
export const SCREENSHOTS = path.resolve("test-output/screenshots/dashboard");
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 740 };
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Prints why a browser test file is skipped (a missing Chromium is fatal only with REQUIRE_BROWSER=1). */
export function noticeIfNoBrowser(what: string): void {
  if (!browserAvailable && !browserRequired)
    console.warn(`NOTICE: ${what} skipped: no Chromium at ${CHROMIUM} (set REQUIRE_BROWSER=1 to make this fatal)`);
}

/** The base URL of a Fastify app listening on loopback. */
export async function listenOnLoopback(app: TestApp["app"]): Promise<string> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

let axeSource: string | null = null;

/** The page's violations, or null where axe is not injected yet. */
const AXE_SCAN =
  "typeof window.axe?.run !== 'function' ? null : axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, summary: n.failureSummary })) })))";

export interface BrowserHarness {
  readonly browser: Browser;
  readonly base: string;
  /** CSP reports and requests to another origin seen on any page this harness opened. */
  readonly violations: string[];
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
  /** Scans the settled page with axe, photographs it at desktop and phone width, checks the phone width. */
  capture(page: Page, name: string): Promise<void>;
  /**
   * Signs in through the API (POST /v1/session from the page's browser context, so the session cookie lands in
   * that context's cookie jar, as the sign-in page would leave it), opens the dashboard and waits for Home.
   * For tests whose point is what comes after signing in; the sign-in page itself is `signInThroughPage`.
   */
  signIn(page: Page, email: string, password: string): Promise<void>;
  /** Signs in through the sign-in page (email, password, the button) and waits for Home. */
  signInThroughPage(page: Page, email: string, password: string): Promise<void>;
  close(): Promise<void>;
}

export interface DashboardHarness extends BrowserHarness {
  readonly t: TestApp;
  readonly biz: RegisteredBusiness;
  /** The same list as `violations`. */
  readonly cspViolations: string[];
}

/**
 * Waits for the page's finite animations and transitions (spinners loop forever and are left out): contrast is
 * measured, and screenshots taken, on the settled page rather than halfway through a fade or a slide.
 */
async function finishAnimations(page: Page): Promise<void> {
  await page.evaluate(
    "Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => null)))",
  );
}

// One Chromium per test process: the files of a vitest worker run one after another in one process (isolate:
// false keeps this module, and the browser, from file to file), and launching costs about a second a file. Each
// harness (and each file of test/browser/) opens its own contexts and closes only those. A browser that crashed or was closed is launched again
// by the next harness; playwright closes the last one when the process ends.
let chromiumProcess: Promise<Browser> | undefined;

export function sharedChromium(): Promise<Browser> {
  if (!chromiumProcess) {
    const launching = chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const forget = () => {
      if (chromiumProcess === launching) chromiumProcess = undefined;
    };
    launching.then((browser) => browser.on("disconnected", forget), forget);
    chromiumProcess = launching;
  }
  return chromiumProcess;
}

/** Requests each page has started and not yet finished (or failed), for `settle`. */
const requestsInFlight = new WeakMap<Page, Set<Request>>();

function trackRequests(page: Page): void {
  const inFlight = new Set<Request>();
  requestsInFlight.set(page, inFlight);
  page.on("request", (request) => inFlight.add(request));
  page.on("requestfinished", (request) => inFlight.delete(request));
  page.on("requestfailed", (request) => inFlight.delete(request));
}

/**
 * Waits until the page has no request in flight and starts none over the next two animation frames (a response's
 * render, and the requests its effects start, come within them): the page the test asked for has loaded what it
 * loads. Playwright's "networkidle" waits for 500 ms of quiet after a document loads and not at all after a
 * client-side route change.
 */
async function settle(page: Page, name: string): Promise<void> {
  const inFlight = requestsInFlight.get(page);
  if (!inFlight) return page.waitForLoadState("networkidle");
  for (;;) {
    await expect
      .poll(() => [...inFlight].map((request) => request.url()), {
        message: `${name}: requests still in flight`,
        timeout: 15_000,
      })
      .toEqual([]);
    await page.evaluate("new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))");
    if (inFlight.size === 0) return;
  }
}

/**
 * Chromium against an app already listening at `base`. With `ranFile`, the names of the captured pages are
 * written to `<ranFile>-<engine>.txt` when the harness closes (nothing is written if no page was captured).
 */
export async function startBrowser(base: string, ranFile?: string): Promise<BrowserHarness> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const browser = await sharedChromium();
  const contexts = new Set<BrowserContext>();
  const violations: string[] = [];
  const ran: string[] = [];

  async function axe(page: Page, name: string): Promise<void> {
    // Injected through the DevTools protocol, which the page's CSP does not govern; once per document (a client
    // route change keeps the document, and with it the axe already injected): the scan answers null without it.
    let found = await page.evaluate<AxeViolation[] | null>(AXE_SCAN);
    if (found === null) {
      axeSource ??= readFileSync(path.resolve("node_modules/axe-core/axe.min.js"), "utf8");
      await page.evaluate(axeSource);
      found = await page.evaluate<AxeViolation[] | null>(AXE_SCAN);
    }
    expect(found, `${name}: axe did not run`).not.toBeNull();
    const serious = (found ?? []).filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious, `${name}: ${JSON.stringify(serious, null, 1)}`).toEqual([]);
  }

  return {
    browser,
    base,
    violations,
    async newPage() {
      const context = await browser.newContext({
        viewport: DESKTOP,
        timezoneId: "Europe/Berlin",
        locale: "en-GB",
        reducedMotion: "reduce",
        acceptDownloads: true,
      });
      contexts.add(context);
      context.on("close", () => contexts.delete(context));
      // A limit for a condition to come true, not a speed check: on a loaded 2-core machine (the PostgreSQL pass
      // with both workers busy) a dialog has been seen to take over 10 s to appear after its button's click.
      context.setDefaultTimeout(30_000);
      // Every page of the context, including one a test opens itself, can be captured.
      context.on("page", trackRequests);
      const page = await context.newPage();
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      // Nothing but this origin: a request elsewhere would be a third-party request.
      page.on("request", (request) => {
        const url = request.url();
        if (!url.startsWith(base) && !url.startsWith("data:") && !url.startsWith("blob:")) violations.push(`third-party ${url}`);
      });
      return { context, page };
    },
    async capture(page, name) {
      await settle(page, name);
      await finishAnimations(page);
      await axe(page, name);
      await page.screenshot({ path: path.join(SCREENSHOTS, `${ENGINE}-${name}-desktop.png`), fullPage: true });
      await page.setViewportSize(PHONE);
      // The navigation leaves the phone's screen without sliding: the context asks for reduced motion.
      expect(
        await page.evaluate<number>("document.querySelector('.mantine-AppShell-navbar')?.getAnimations().length ?? 0"),
        `${name}: the navigation slides although reduced motion was asked for`,
      ).toBe(0);
      // Some layouts switch by a media-query listener and a React render, not by CSS alone: wait for the page
      // to fit (a page that stays wider than the phone fails here after the limit).
      await expect
        .poll(() => page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth"), {
          message: `${name} is wider than a 375 px screen`,
          timeout: 15_000,
        })
        .toBeLessThanOrEqual(0);
      // Shoot the settled page, after any transition the resize started.
      await finishAnimations(page);
      // The environment switch is always visible: on a phone too, both of its choices lie inside the screen (their
      // boxes asked for together; a choice's name is read for a failure message only).
      const choices = await page
        .locator("header")
        .getByText(/^(Sandbox|Production)$/)
        .all();
      const boxes = await Promise.all(choices.map((choice) => choice.boundingBox()));
      for (const [index, box] of boxes.entries()) {
        if (box === null)
          expect.fail(`${name}: the environment switch's ${await choices[index]?.textContent()} is not shown on a phone`);
        expect(box.x + box.width, `${name}: the environment switch is cut off on a phone`).toBeLessThanOrEqual(PHONE.width);
      }
      await page.screenshot({ path: path.join(SCREENSHOTS, `${ENGINE}-${name}-phone.png`), fullPage: true });
      await page.setViewportSize(DESKTOP);
      // Back at desktop width: hand the test a settled page.
      await finishAnimations(page);
      ran.push(name);
    },
    async signIn(page, email, password) {
      const response = await page.context().request.post(`${base}/v1/session`, { data: { email, password } });
      if (response.status() !== 201) throw new Error(`sign-in of ${email} failed: ${response.status()} ${await response.text()}`);
      await page.goto(`${base}/dashboard/`);
      await page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
    },
    async signInThroughPage(page, email, password) {
      await page.goto(`${base}/dashboard/sign-in`);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { level: 1, name: "Home" }).waitFor();
    },
    async close() {
      // The contexts of this file only: the browser serves the next file of this process.
      await Promise.all([...contexts].map((context) => context.close()));
      if (ranFile && ran.length > 0) await writeFile(path.join(SCREENSHOTS, `${ranFile}-${ENGINE}.txt`), `${ran.join("\n")}\n`);
    },
  };
}

/** The app on loopback with a registered Business, and Chromium against it. */
export async function startDashboard(businessName: string, ranFile: string): Promise<DashboardHarness> {
  const t = await buildTestApp();
  const base = await listenOnLoopback(t.app);
  const biz = await registerBusiness(t.app, businessName);
  const browser = await startBrowser(base, ranFile);
  return {
    ...browser,
    t,
    biz,
    cspViolations: browser.violations,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/**
 * Chooses in a searchable picker (the dashboard's country and currency selects): types `search` into the field,
 * then clicks the option named `option` in the list that opens (rendered outside the form, so looked up on the page).
 */
export async function pickOption(page: Page, field: Locator, search: string, option: string): Promise<void> {
  await field.fill(search);
  await page.getByRole("option", { name: option, exact: true }).click();
}
