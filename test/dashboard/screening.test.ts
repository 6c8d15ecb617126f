// The Screening page in Debian's Chromium against the real app on loopback: the operator loads a tiny OFAC SDN
// list (sdn.csv and alt.csv written by test/screening/list-writers.ts) through the operator route, the Business
// turns screening on, and a Beneficiary created by the signed-in admin's key hits an alias. The hit is listed with
// the Beneficiary's name as a link, the listed entry, the list, the matched name and the score in words; the admin
// whose change was screened is told beforehand and refused by the API in its own words; a read-only member sees the
// hit without a button; a second admin opens the Beneficiary (its screening state in words, a link to its hits)
// and clears the hit with a reason, and both pages show the new state. axe scans and screenshots at desktop and
// 375 px (test/helpers/dashboard-browser.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserHarness,
  browserAvailable,
  browserRequired,
  listenOnLoopback,
  startBrowser,
} from "../helpers/dashboard-browser.js";
import { bearer, createBeneficiary, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addMember, REGISTRATION_PASSWORD, STRONG_PASSWORD } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import type { ListedParty } from "../screening/list-writers.js";
import { loadOfacList } from "../screening/operator-lists.js";

if (!browserAvailable && !browserRequired) console.warn("NOTICE: dashboard screening tests skipped: no Chromium");

const OPERATOR_TOKEN = "op-screening-".padEnd(40, "x");
const SDN: ListedParty[] = [
  { ref: "36", kind: "entity", name: "AERO-CARIBBEAN AIRLINES", aliases: ["AEROCARIBBEAN AIRLINES"], programs: ["CUBA"] },
];

describe.skipIf(!browserAvailable && !browserRequired)("the Screening page", () => {
  let t: TestApp;
  let h: BrowserHarness;
  let biz: RegisteredBusiness;
  let second: { email: string };
  let viewer: { email: string };
  let beneficiaryId: string;

  beforeAll(async () => {
    t = await buildTestApp({ env: { OPERATOR_TOKEN } });
    h = await startBrowser(await listenOnLoopback(t.app), "ran-screening");
    biz = await registerBusiness(t.app, "Screened By Browser GmbH");
    const key = biz.keys.sandbox;
    const policy = await t.app.inject({
      method: "PUT",
      url: "/v1/destination-policy",
      headers: bearer(key),
      payload: { screening: "on" },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    await loadOfacList(t.app, OPERATOR_TOKEN, SDN);
    await t.runtime.createWorker(`w-${Math.random()}`).drain();
    // Created with the signed-in admin's own key: that admin made the screened change.
    const created = await createBeneficiary(t.app, key, {
      beneficiary_type: "business",
      name: "Aerocaribbean Airlines",
      business_name: "Aerocaribbean Airlines",
    });
    expect(created).toMatchObject({ screening_status: "potential_match" });
    beneficiaryId = created.id;
    second = await addMember(t.app, key, "business_admin");
    viewer = await addMember(t.app, key, "business_read_only");
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await t?.close();
  });

  const screeningStatus = async () =>
    (await t.app.inject({ method: "GET", url: `/v1/beneficiaries/${beneficiaryId}`, headers: bearer(biz.keys.sandbox) })).json()
      .screening_status;

  it("lists the hit in words and shows the API's refusal to the admin whose change was screened", async () => {
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, biz.email, REGISTRATION_PASSWORD);
      await page.getByRole("link", { name: "Screening", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Screening" }).waitFor();
      const row = page.getByTestId("screening-hit-row");
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
      const text = (await row.textContent()) ?? "";
      expect(text).toContain("AERO-CARIBBEAN AIRLINES");
      expect(text).toContain("OFAC SDN (US)");
      expect(text).toContain("AEROCARIBBEAN AIRLINES");
      expect(text).toMatch(/\d{2,3}(\.\d)?%/);
      expect(text).toContain("Waiting for review");
      expect(text).toContain("You made the change that was screened: another admin must decide.");
      expect(await row.getByRole("link", { name: "Aerocaribbean Airlines" }).getAttribute("href")).toBe(
        `/dashboard/beneficiaries/${beneficiaryId}`,
      );
      await h.capture(page, "screening-hits");

      await row.getByRole("button", { name: "Clear the screening hits of Aerocaribbean Airlines" }).click();
      const dialog = page.getByRole("dialog", { name: "Clear the screening hits of Aerocaribbean Airlines" });
      await dialog.getByLabel(/^Reason/).fill("Different company: a travel agency in Lisbon");
      await dialog.getByRole("button", { name: "Clear hits" }).click();
      await expect
        .poll(() => dialog.textContent(), { timeout: 15_000 })
        .toContain("The person whose change was screened may not decide its hit.");
      await h.capture(page, "screening-refused");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      expect(await screeningStatus()).toBe("potential_match");
    } finally {
      await context.close();
    }
  });

  it("a read-only member sees the hit and cannot act", async () => {
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, viewer.email, STRONG_PASSWORD);
      await page.goto(`${h.base}/dashboard/screening`);
      const row = page.getByTestId("screening-hit-row");
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
      expect(await row.textContent()).toContain("Only an admin can decide");
      expect(await row.getByRole("button").count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("another admin sees the state on the Beneficiary, follows the link to its hits and clears them", async () => {
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, second.email, STRONG_PASSWORD);
      await page.goto(`${h.base}/dashboard/beneficiaries/${beneficiaryId}`);
      const state = page.getByTestId("screening-state");
      await expect.poll(() => state.textContent(), { timeout: 15_000 }).toContain("Sanctions review required");
      expect(await state.textContent()).toContain("OFAC SDN (US): “AERO-CARIBBEAN AIRLINES”");
      await h.capture(page, "screening-beneficiary-potential-match");

      await state.getByRole("link", { name: "Screening hits of Aerocaribbean Airlines" }).click();
      await page.getByRole("heading", { level: 1, name: "Screening" }).waitFor();
      const row = page.getByTestId("screening-hit-row");
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
      expect(await row.textContent()).not.toContain("You made the change");
      await row.getByRole("button", { name: "Clear the screening hits of Aerocaribbean Airlines" }).click();
      const dialog = page.getByRole("dialog", { name: "Clear the screening hits of Aerocaribbean Airlines" });
      await dialog.getByLabel(/^Reason/).fill("Different company: a travel agency in Lisbon");
      await dialog.getByRole("button", { name: "Clear hits" }).click();
      await dialog.waitFor({ state: "detached", timeout: 15_000 });
      await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain("Cleared (false positive)");
      expect(await row.textContent()).toContain("Different company: a travel agency in Lisbon");
      expect(await row.getByRole("button").count()).toBe(0);
      expect(await screeningStatus()).toBe("cleared");

      await row.getByRole("link", { name: "Aerocaribbean Airlines" }).click();
      await expect.poll(() => state.textContent(), { timeout: 15_000 }).toContain("Cleared by an admin (false positive)");
      expect(await state.textContent()).not.toContain("Sanctions review required");
      await h.capture(page, "screening-beneficiary-cleared");
    } finally {
      await context.close();
    }
  });
});
