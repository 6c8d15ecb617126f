// The first visit to the dashboard's Payouts page in Debian's Chromium (playwright-core) against the built
// service on loopback. Who visits: a person who signed in earlier (the session cookie is there) and opens
// /dashboard/payouts from a bookmark or a link in a browser with an empty HTTP cache (a fresh context: no cached
// asset, no localStorage). So the visit pays for everything a person would wait for: the HTML, the initial
// JavaScript and CSS, the session check (GET /v1/session), the page's own chunk and its first data request.
// Signing in is not part of it (that is a different page and a password hash).
//
// The clock runs from navigation start (performance.timeOrigin) until the table's rows are visible and the
// "Apply filters" button is enabled (the page is usable). The moment is taken inside the page, by a
// MutationObserver installed before any script of the page runs, so Playwright's polling adds nothing to it.
// From the same page the bench reads Chromium's Resource Timing entries and long tasks and reports the
// critical path as medians: HTML, initial JS and CSS, the session request, the page chunk, the payouts request,
// ready. The initial JavaScript (the entry and what index.html preloads) is also weighed, gzip-compressed.
//
// The ceiling, measured in the same run the same way: a fresh context loading a blank page from the same
// server (`/healthz`, a few bytes of JSON) until its load event. Runs on PostgreSQL (PGlite when PostgreSQL is
// unavailable). Targets (the dashboard issue): median < 1.5 s, initial JavaScript at most 250 KB gzip.

import { existsSync, readFileSync } from "node:fs";
import { symlink } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { type Browser, chromium, type Page } from "playwright-core";
import setupDashboardBuild from "../test/setup/dashboard-build.global.js";
import { BENCH_PASSWORD, registerBusiness, startService } from "./lib/service.js";
import { percentile, round } from "./lib/stats.js";
import type { BenchContext, Benchmark, Engine, Json } from "./lib/types.js";

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The dashboard build to serve: the checkout's (built when stale), or BENCH_DASHBOARD_DIR for an A/B comparison. */
const DASHBOARD_OVERRIDE = process.env.BENCH_DASHBOARD_DIR || null;
/**
 * Latency Chromium adds to every request (ms), to see the first visit as over a real network: on loopback a
 * round trip costs nothing, so a chain of requests waiting on each other looks as cheap as parallel ones.
 */
const NETWORK_LATENCY_MS = Number(process.env.BENCH_NETWORK_LATENCY_MS ?? "0");

/** Applies BENCH_NETWORK_LATENCY_MS to a page before it loads anything. */
async function emulateLatency(page: Page): Promise<void> {
  if (NETWORK_LATENCY_MS <= 0) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: NETWORK_LATENCY_MS,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
}
const DASHBOARD = DASHBOARD_OVERRIDE === null ? path.join(ROOT, "dist", "dashboard") : path.resolve(DASHBOARD_OVERRIDE);
const RUNS = 15;
const PAYOUTS = 30;
const TARGET_MS = 1500;
const TARGET_INITIAL_JS_KB = 250;
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

async function seedPayouts(baseUrl: string, key: string): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const created = await fetch(`${baseUrl}/v1/beneficiaries`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      beneficiary_type: "person",
      email: "payee@bench.example.com",
      first_name: "Payee",
      last_name: "Bench",
      country_of_residence: "DE",
      tax_id: "DE100000001",
    }),
  });
  const beneficiary = (await created.json()) as { id: string };
  const account = await fetch(`${baseUrl}/v1/beneficiaries/${beneficiary.id}/bank-accounts`, {
    method: "POST",
    headers,
    body: JSON.stringify({ account_holder_name: "Payee", country: "DE", currency: "EUR", iban: "DE89370400440532013000" }),
  });
  if (account.status !== 201) throw new Error(`bank account answered ${account.status}`);
  await fetch(`${baseUrl}/v1/beneficiaries/${beneficiary.id}/acknowledge`, {
    method: "POST",
    headers: { authorization: headers.authorization },
  });
  for (let i = 0; i < PAYOUTS; i++) {
    const response = await fetch(`${baseUrl}/v1/payouts`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        beneficiary_id: beneficiary.id,
        amount_minor: 1000 + i,
        currency: "EUR",
        external_ref: `INV-${i}`,
        idempotency_key: `bench-${i}`,
      }),
    });
    if (response.status !== 201) throw new Error(`payout answered ${response.status}: ${await response.text()}`);
  }
}

/**
 * Installed in every visit before the page's own scripts (Page.addScriptToEvaluateOnNewDocument: the page's CSP
 * does not apply to it). Records `__benchReady`, the performance.now() at which rows are visible and the
 * filter button is enabled, and the long tasks (main thread busy > 50 ms) until then.
 */
const READY_PROBE = `(() => {
  window.__benchLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__benchLongTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {}
  const ready = () => {
    const row = document.querySelector('[data-testid="payout-row"]');
    if (row === null || row.getClientRects().length === 0) return false;
    return [...document.querySelectorAll("button")].some((b) => b.textContent === "Apply filters" && !b.disabled);
  };
  const check = () => {
    if (window.__benchReady === undefined && ready()) window.__benchReady = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
})();`;

/** What one visit reads from the page: resource timings (relative to navigation start) and the probe's marks. */
interface VisitTimings {
  readonly ready: number;
  readonly navigation: { readonly responseEnd: number; readonly domContentLoaded: number };
  readonly firstContentfulPaint: number | null;
  /** The app's own marks (dashboard/src/main.tsx, root.tsx): the entry runs, the app starts rendering. */
  readonly marks: { readonly [name: string]: number };
  readonly longTasks: readonly { readonly start: number; readonly duration: number }[];
  readonly resources: readonly {
    readonly path: string;
    readonly start: number;
    readonly end: number;
    readonly encoded: number;
    readonly decoded: number;
  }[];
}

const COLLECT = `(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  return {
    ready: window.__benchReady,
    navigation: { responseEnd: nav.responseEnd, domContentLoaded: nav.domContentLoadedEventEnd },
    firstContentfulPaint: fcp === undefined ? null : fcp.startTime,
    marks: Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name, m.startTime])),
    longTasks: window.__benchLongTasks,
    resources: performance.getEntriesByType("resource").map((r) => {
      const url = new URL(r.name);
      return { path: url.pathname + url.search, start: r.startTime, end: r.responseEnd, encoded: r.encodedBodySize, decoded: r.decodedBodySize };
    }),
  };
})()`;

/** The files index.html loads before the app runs: the entry script, its modulepreloads and the stylesheets. */
function initialFiles(directory: string): { readonly scripts: readonly string[]; readonly styles: readonly string[] } {
  const html = readFileSync(path.join(directory, "index.html"), "utf8");
  const scripts = new Set<string>();
  const styles: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const url = /(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if (url === undefined) continue;
    if (tag.startsWith("<script") || /rel="modulepreload"/.test(tag)) scripts.add(url);
    else if (/rel="stylesheet"/.test(tag)) styles.push(url);
  }
  return { scripts: [...scripts], styles };
}

function gzipKb(directory: string, urls: readonly string[]): number | null {
  let bytes = 0;
  for (const url of urls) bytes += gzipSync(readFileSync(path.join(directory, url.replace(/^\/dashboard\//, "")))).length;
  return round(bytes / 1024);
}

function median(values: readonly number[]): number | null {
  return round(percentile(Float64Array.from(values).sort(), 50));
}

/** One phase of the critical path: when its request started and its response ended (medians over the visits). */
function phase(visits: readonly VisitTimings[], match: (resourcePath: string) => boolean): Json {
  const found = visits.map((v) => v.resources.find((r) => match(r.path))).filter((r) => r !== undefined);
  if (found.length === 0) return null;
  return { start_ms: median(found.map((r) => r.start)), end_ms: median(found.map((r) => r.end)) };
}

/** The median time of one of the app's performance marks; null when the build sets no such mark. */
function mark(visits: readonly VisitTimings[], name: string): number | null {
  const times = visits.map((v) => v.marks[name]).filter((t) => t !== undefined);
  return times.length === 0 ? null : median(times);
}

function breakdown(visits: readonly VisitTimings[], initial: ReturnType<typeof initialFiles>): Json {
  const initialScripts = new Set(initial.scripts);
  const initialStyles = new Set(initial.styles);
  const isPageRequest = (p: string) => p.startsWith("/v1/payouts?") && !p.includes("status=pending_approval");
  const busyBeforeReady = visits.map((v) =>
    v.longTasks.filter((t) => t.start < v.ready).reduce((sum, t) => sum + Math.min(t.duration, v.ready - t.start), 0),
  );
  const initialJsEnd = visits.map((v) => Math.max(...v.resources.filter((r) => initialScripts.has(r.path)).map((r) => r.end)));
  const initialEncoded = visits[0]?.resources.filter((r) => initialScripts.has(r.path)).reduce((sum, r) => sum + r.encoded, 0);
  return {
    note: "medians over the visits, ms since navigation start; start = request sent, end = response received",
    html_received_ms: median(visits.map((v) => v.navigation.responseEnd)),
    initial_js_received_ms: median(initialJsEnd),
    initial_css: phase(visits, (p) => initialStyles.has(p)),
    entry_runs_ms: mark(visits, "dashboard:entry"),
    dom_content_loaded_ms: median(visits.map((v) => v.navigation.domContentLoaded)),
    app_renders_ms: mark(visits, "dashboard:app"),
    session_request: phase(visits, (p) => p === "/v1/session"),
    page_chunk: phase(visits, (p) => /\/assets\/payouts-[^/]*\.js$/.test(p)),
    payouts_request: phase(visits, isPageRequest),
    first_contentful_paint_ms: median(visits.map((v) => v.firstContentfulPaint ?? Number.NaN).filter((n) => !Number.isNaN(n))),
    ready_ms: median(visits.map((v) => v.ready)),
    main_thread_long_tasks_before_ready_ms: median(busyBeforeReady),
    initial_js_bytes_on_the_wire_kb: initialEncoded === undefined ? null : round(initialEncoded / 1024),
    requests_before_ready: median(visits.map((v) => v.resources.filter((r) => r.start < v.ready).length)),
  };
}

async function measure(context: BenchContext, engine: Engine): Promise<{ readonly [key: string]: Json }> {
  // The built service serves dist/dashboard beside its own dist/: give it the checkout's build.
  if (DASHBOARD_OVERRIDE === null) setupDashboardBuild();
  const entry = context.service.nodeArgs.at(-1) ?? "";
  if (context.service.runtime === "dist") {
    const target = path.join(path.dirname(entry), "dashboard");
    if (!existsSync(target)) await symlink(DASHBOARD, target, "dir");
  }
  const initial = initialFiles(DASHBOARD);
  const service = await startService(context, engine);
  let browser: Browser | null = null;
  try {
    const base = service.server.baseUrl;
    const business = await registerBusiness(service, `dashboard-payouts-${engine}`);
    await seedPayouts(base, business.sandboxKey);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    const signInContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const signInPage = await signInContext.newPage();
    await signInPage.goto(`${base}/dashboard/sign-in`);
    await signInPage.getByLabel("Email").fill(business.email);
    await signInPage.getByLabel("Password", { exact: true }).fill(BENCH_PASSWORD);
    await signInPage.getByRole("button", { name: "Sign in" }).click();
    await signInPage.getByRole("heading", { level: 1, name: "Home" }).waitFor();
    const state = await signInContext.storageState();
    await signInContext.close();
    // Only the cookie: a first visit has nothing in localStorage either.
    const cookiesOnly = { cookies: state.cookies, origins: [] };

    const visits: VisitTimings[] = [];
    const blanks: number[] = [];
    let rows = 0;
    for (let run = 0; run < RUNS + 1; run++) {
      const visit = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: cookiesOnly });
      await visit.addInitScript(READY_PROBE);
      const page = await visit.newPage();
      await emulateLatency(page);
      await page.goto(`${base}/dashboard/payouts`, { waitUntil: "commit" });
      // A function, not a string: Playwright evaluates a string predicate with eval, which the page's CSP forbids.
      await page.waitForFunction(() => (globalThis as { __benchReady?: number }).__benchReady !== undefined, undefined, {
        timeout: 30_000,
      });
      const timings = await page.evaluate<VisitTimings>(COLLECT);
      rows = await page.getByTestId("payout-row").count();
      await visit.close();

      const blank = await browser.newContext();
      const blankPage = await blank.newPage();
      await emulateLatency(blankPage);
      await blankPage.goto(`${base}/healthz`, { waitUntil: "load" });
      const blankElapsed = await blankPage.evaluate<number>(
        "performance.getEntriesByType('navigation')[0]?.loadEventEnd ?? performance.now()",
      );
      await blank.close();
      // The first round warms the server (JIT, connection pool, the dashboard's files in memory).
      if (run > 0) {
        visits.push(timings);
        blanks.push(blankElapsed);
      }
    }
    const sortedVisits = Float64Array.from(visits.map((v) => v.ready)).sort();
    const sortedBlanks = Float64Array.from(blanks).sort();
    const p50 = percentile(sortedVisits, 50);
    const initialJsGzipKb = gzipKb(DASHBOARD, initial.scripts);
    context.log(
      `[${engine}] payouts page interactive: median ${round(p50)} ms, max ${round(sortedVisits.at(-1) ?? Number.NaN)} ms; blank page median ${round(percentile(sortedBlanks, 50))} ms; initial JS ${initialJsGzipKb} KB gzip`,
    );
    return {
      runs: RUNS,
      rows_visible: rows,
      added_network_latency_ms: NETWORK_LATENCY_MS,
      interactive_ms: {
        p50: round(p50),
        p90: round(percentile(sortedVisits, 90)),
        max: round(sortedVisits.at(-1) ?? Number.NaN),
      },
      ceiling_blank_page_ms: { p50: round(percentile(sortedBlanks, 50)), max: round(sortedBlanks.at(-1) ?? Number.NaN) },
      ratio_p50_to_ceiling: round(p50 / percentile(sortedBlanks, 50)),
      critical_path: breakdown(visits, initial),
      initial_js: { files: initial.scripts.length, gzip_kb: initialJsGzipKb, target_gzip_kb: TARGET_INITIAL_JS_KB },
      initial_css_gzip_kb: gzipKb(DASHBOARD, initial.styles),
      target_ms: TARGET_MS,
      met: rows > 0 && p50 < TARGET_MS && initialJsGzipKb !== null && initialJsGzipKb <= TARGET_INITIAL_JS_KB,
    };
  } finally {
    await browser?.close();
    await service.dispose();
  }
}

export const dashboardPayoutsBenchmark: Benchmark = {
  name: "dashboard_payouts",
  description:
    "First visit to the dashboard's Payouts page in Chromium on loopback (fresh context, signed in): navigation start until rows are visible and a filter is enabled, beside a blank page load",
  async run(context) {
    if (!existsSync(CHROMIUM)) return { skipped: `no Chromium at ${CHROMIUM}` };
    const engine: Engine = context.postgresServerUrl === null ? "pglite" : "postgres";
    return { engine, result: await measure(context, engine) };
  },
};
