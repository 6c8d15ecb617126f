// The payee's sanctions screening where a person decides (issue 29), in Debian's Chromium against the real app on
// loopback: two payouts wait for approval; the operator then loads an EU list naming one payee, and the rescreen
// job makes that Beneficiary a potential match. The approvals inbox (desktop and phone width) and the payout page
// say so beside the destination's facts and the name check, from the payout's `payee.screening_status`, with a
// link to the hits; the other payee reads "no match". axe scans and screenshots at desktop and 375 px.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserHarness,
  browserAvailable,
  browserRequired,
  listenOnLoopback,
  PHONE,
  startBrowser,
} from "../helpers/dashboard-browser.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout } from "../payouts/payout-fixtures.js";
import { loadEuXmlList } from "../screening/operator-lists.js";

if (!browserAvailable && !browserRequired) console.warn("NOTICE: dashboard payee screening tests skipped: no Chromium");

const OPERATOR_TOKEN = "op-payee-screening-".padEnd(40, "x");
const REVIEW = "Sanctions review required: not sent until an admin clears the hit";

describe.skipIf(!browserAvailable && !browserRequired)("the payee's screening where a person decides", () => {
  let t: TestApp;
  let h: BrowserHarness;
  let biz: RegisteredBusiness;
  const ids: Record<string, string> = {};

  async function payee(first: string, last: string): Promise<string> {
    const key = biz.keys.sandbox;
    const name = `${first} ${last}`;
    const beneficiary = await createBeneficiary(t.app, key, {
      first_name: first,
      last_name: last,
      country_of_residence: "DE",
      name,
    });
    await registerBankAccount(t.app, key, beneficiary.id, {
      account_holder_name: name,
      country: "DE",
      currency: "EUR",
      iban: "DE89370400440532013000",
    });
    const ack = await t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`,
      headers: bearer(key),
    });
    expect(ack.statusCode, ack.body).toBe(200);
    return beneficiary.id;
  }

  beforeAll(async () => {
    t = await buildTestApp({ env: { OPERATOR_TOKEN } });
    h = await startBrowser(await listenOnLoopback(t.app), "ran-payee-screening");
    biz = await registerBusiness(t.app, "Payee Screening GmbH");
    const key = biz.keys.sandbox;
    const policy = await t.app.inject({
      method: "PUT",
      url: "/v1/destination-policy",
      headers: bearer(key),
      payload: { screening: "on" },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    // No list is loaded yet: both are created unscreened, and their payouts wait for approval.
    ids.olga = await payee("Olga", "Sorokina");
    ids.anna = await payee("Anna", "Schmidt");
    ids.olgaPayout = (
      await createPayout(t.app, key, { beneficiary_id: ids.olga, amount_minor: 20_000, external_ref: "INV-OLGA" })
    ).payout_id;
    ids.annaPayout = (
      await createPayout(t.app, key, { beneficiary_id: ids.anna, amount_minor: 10_000, external_ref: "INV-ANNA" })
    ).payout_id;
    await loadEuXmlList(t.app, OPERATOR_TOKEN, [{ ref: "13", kind: "individual", name: "Olga Vasilyevna Sorokina" }]);
    await t.runtime.createWorker("payee-screening-browser").drain();
    const olga = await t.app.inject({ method: "GET", url: `/v1/beneficiaries/${ids.olga}`, headers: bearer(key) });
    expect(olga.json().screening_status).toBe("potential_match");
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await t?.close();
  });

  it("the inbox and the payout page show the potential match beside the destination's facts", async () => {
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, biz.email, REGISTRATION_PASSWORD);
      await page.goto(`${h.base}/dashboard/approvals`);
      const rows = page.getByTestId("approval-row");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
      const screeningOf = (who: string) => rows.filter({ hasText: who }).getByTestId("payee-screening");
      await expect.poll(() => screeningOf("Olga Sorokina").textContent(), { timeout: 15_000 }).toContain(REVIEW);
      expect(await screeningOf("Anna Schmidt").textContent()).toBe("Sanctions screening: No match on the sanctions lists");
      // Beside the destination's facts and the name check, in the same cell.
      const cell = rows.filter({ hasText: "Olga Sorokina" }).getByTestId("payee-screening").locator("..");
      expect(await cell.getByTestId("destination-facts").count()).toBe(1);
      expect(await cell.getByTestId("name-check").count()).toBe(1);
      expect(await screeningOf("Olga Sorokina").getByRole("link", { name: "Review the hits" }).getAttribute("href")).toBe(
        `/dashboard/screening?beneficiary_id=${ids.olga}&status=all`,
      );
      await h.capture(page, "approvals-payee-screening");

      // On a phone the stacked payee cell still says it.
      await page.setViewportSize(PHONE);
      await expect
        .poll(async () => (await page.getByRole("columnheader").allTextContents()).map((text) => text.trim()), {
          timeout: 15_000,
        })
        .not.toContain("Destination");
      expect(await screeningOf("Olga Sorokina").textContent()).toContain(REVIEW);
      await page.setViewportSize({ width: 1280, height: 900 });

      await page.goto(`${h.base}/dashboard/payouts/${ids.olgaPayout}`);
      const onPayout = page.getByTestId("payee-screening");
      await expect.poll(() => onPayout.textContent(), { timeout: 15_000 }).toContain(REVIEW);
      await h.capture(page, "payout-payee-screening");
    } finally {
      await context.close();
    }
  });
});
