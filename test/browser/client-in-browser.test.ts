// The client's browser entry in a real Chromium (Debian's `chromium`, driven by playwright-core): bundled for the
// browser by esbuild, loaded as a module by a page, calling the real service (fetch, WebCrypto, AbortSignal).
// The page's origin is routed by Playwright: the page and the bundle are served from memory and /v1 requests are
// passed on to the service, so the page and the API share an origin as behind a reverse proxy.
// Without /usr/bin/chromium the file is skipped (collection-pages.test.ts checks REQUIRE_BROWSER=1 for CI).
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, sharedChromium } from "../helpers/dashboard-browser.js";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

// localhost is a secure context (WebCrypto's subtle and randomUUID exist only there and on https); nothing
// listens on this port: Playwright answers every request of the origin.
const ORIGIN = "http://localhost:9";

describe.skipIf(!existsSync(CHROMIUM))("the client in Chromium", () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let service: string;
  let business: RegisteredBusiness;
  let bundle: string;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    service = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    business = await registerBusiness(t.app);
    const result = await build({
      entryPoints: ["packages/client/src/index.ts"],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    bundle = result.outputFiles[0]?.text ?? "";
    // The test process's one Chromium; this file closes only its own context.
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await context?.close();
    await t?.close();
  });

  it("creates and lists through the service, computes an upload id and throws typed errors", async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    await page.route(`${ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === "/") return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>client</title>" });
      if (url.pathname === "/client.js") return route.fulfill({ contentType: "text/javascript", body: bundle });
      const response = await route.fetch({ url: `${service}${url.pathname}${url.search}` });
      return route.fulfill({ response });
    });
    await page.goto(`${ORIGIN}/`);
    // A string, not a function: vitest rewrites import() in functions of this file, which the page cannot run.
    const script = `(async () => {
      const m = await import("/client.js");
      const client = m.createClient({ baseUrl: location.origin, apiKey: ${JSON.stringify(business.keys.sandbox)}, retry: { maxRetries: 0 } });
      const created = await client.createBeneficiary({
        body: { beneficiary_type: "person", email: "browser-" + Date.now() + "@example.com", first_name: "Bea", last_name: "Rowser" },
      });
      const ids = [];
      for await (const b of client.paginate("listBeneficiaries", { query: { limit: 1 } })) ids.push(b.id);
      let error = null;
      try {
        await client.getPayout({ path: { payoutId: "0196f1a3-0a1b-7c20-8e55-8091a2b3c4d6" } });
      } catch (e) {
        error = { name: e.name, status: e.status, code: e.code };
      }
      const beneficiary = created.id;
      const payout = await client.raw.createPayout({ body: { beneficiary_id: beneficiary, amount_minor: 100, currency: "EUR" } }).catch((e) => e);
      return { createdId: created.id, ids, uploadId: await m.computeUploadId("abc"), error, payoutCode: payout.code ?? null };
    })()`;
    const outcome = (await page.evaluate(script)) as {
      createdId: string;
      ids: string[];
      uploadId: string;
      error: { name: string; status: number; code: string } | null;
      payoutCode: string | null;
    };
    expect(outcome.ids).toContain(outcome.createdId);
    expect(outcome.uploadId).toBe("sha256-ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(outcome.error).toMatchObject({ name: "PayoutsApiError", status: 404 });
    // The Beneficiary has no bank account yet, so the payout is refused, but for that and not for a missing
    // Idempotency-Key (400 validation_failed): the browser build generated one.
    expect(outcome.payoutCode).toEqual(expect.any(String));
    expect(outcome.payoutCode).not.toBe("validation_failed");
  });
});
