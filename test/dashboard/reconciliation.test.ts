// The Reconciliation page in Debian's Chromium against the real app (production, a SEPA rail whose debtor IBAN the
// statements name). An admin uploads a camt.053 the test writes by hand (validated against the ISO schema): two
// payouts of the same amount sent at the cut-off and one booking of that amount without a reference wait in the
// review queue beside both candidates, and one click matches one; money nobody expected (a credit, a debit) is
// listed, the debit ignored with a reason; the closing balance that differs is said in words and resolved with a
// reason; the same file again adds nothing. A read-only member sees the lines without a button. axe scans and
// screenshots at desktop and 375 px (test/helpers/dashboard-browser.ts).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sepaConfig, sepaPayee, uniqueSepaOriginator } from "../bank-rails/bank-rail-fixtures.js";
import { camt053ByHand } from "../helpers/camt053-by-hand.js";
import {
  type BrowserHarness,
  browserAvailable,
  browserRequired,
  listenOnLoopback,
  startBrowser,
} from "../helpers/dashboard-browser.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { expectIsoValid } from "../helpers/iso-xsd.js";
import { addMember, REGISTRATION_PASSWORD, STRONG_PASSWORD } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide } from "../payouts/payout-fixtures.js";

if (!browserAvailable && !browserRequired) console.warn("NOTICE: dashboard reconciliation tests skipped: no Chromium");

describe.skipIf(!browserAvailable && !browserRequired)("the Reconciliation page", () => {
  let t: TestApp;
  let h: BrowserHarness;
  let root: string;
  let biz: RegisteredBusiness;
  let iban: string;
  let statementFile: string;
  let viewer: { email: string };
  const payouts: string[] = [];

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "reconciliation-dashboard-"));
    t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root, BANK_RAIL_POLL_INTERVAL_SECONDS: "60" } });
    h = await startBrowser(await listenOnLoopback(t.app), "ran-reconciliation");
    biz = await registerBusiness(t.app, "Reconciled By Browser GmbH");
    const key = biz.keys.production;
    const originator = uniqueSepaOriginator();
    iban = String(originator.iban).replaceAll(" ", "");
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({
        originator,
        delivery: { kind: "local_directory", outbound_directory: "out", inbound_directory: "in" },
      }),
    });
    expect(put.statusCode, put.body).toBe(201);
    // Two payouts of the same amount, sent in the day's file: a booking of that amount without a reference fits both.
    const { beneficiaryId } = await sepaPayee(t.app, key);
    for (const ref of ["INV-RECON-1", "INV-RECON-2"]) {
      const payout = await createPayout(t.app, key, {
        beneficiary_id: beneficiaryId,
        amount_minor: 50_000,
        currency: "EUR",
        external_ref: ref,
      });
      expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
      payouts.push(payout.payout_id);
    }
    const drain = () => t.runtime.createWorker(`w-${Math.random()}`).drain();
    await drain();
    t.clock.set(new Date("2026-05-27T13:00:00.000Z"));
    await drain();
    const xml = camt053ByHand(iban, "2026-05-27", "0.00", "9999.00", [
      { direction: "DBIT", amount: "500.00", reference: "BANKREF-DEBIT-500", remittance: "SEPA CT BATCH" },
      { direction: "CRDT", amount: "1250.00", reference: "BANKREF-CREDIT-1250", remittance: "INCOMING FROM CUSTOMER" },
      { direction: "DBIT", amount: "40.00", reference: "BANKREF-DEBIT-40", remittance: "ACCOUNT FEE MAY" },
    ]);
    await expectIsoValid(xml);
    statementFile = path.join(root, "statement-2026-05-27.xml");
    writeFileSync(statementFile, xml);
    viewer = await addMember(t.app, key, "business_read_only");
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await t?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  async function signInToProduction(email: string, password: string) {
    const { context, page } = await h.newPage();
    await h.signIn(page, email, password);
    await page.getByText("Production", { exact: true }).click();
    await page.getByRole("link", { name: "Reconciliation" }).click();
    await page.getByRole("heading", { level: 1, name: "Reconciliation" }).waitFor();
    return { context, page };
  }

  it("uploads a statement, matches a line in one click, ignores a debit and resolves the difference", async () => {
    const { context, page } = await signInToProduction(biz.email, REGISTRATION_PASSWORD);
    try {
      await page.getByRole("button", { name: "Upload statement" }).click();
      const dialog = page.getByRole("dialog", { name: "Upload a bank statement" });
      await dialog.locator('input[type="file"]').setInputFiles(statementFile);
      await dialog.getByRole("button", { name: "Upload" }).click();
      const result = dialog.getByTestId("upload-result");
      await result.waitFor({ timeout: 15_000 });
      expect(await result.textContent()).toContain("Statement read.");
      expect(await result.textContent()).toContain("3 lines");
      await h.capture(page, "reconciliation-uploaded");
      await dialog.getByRole("button", { name: "Done" }).click();

      // The booking of 500.00 fits both payouts: it waits beside them, and one click matches the first.
      const item = page.getByTestId("review-item");
      await item.waitFor({ timeout: 15_000 });
      expect(await item.getByTestId("candidate-row").count()).toBe(2);
      expect(await item.textContent()).toContain("BANKREF-DEBIT-500");
      await h.capture(page, "reconciliation-review");
      await item
        .getByTestId("candidate-row")
        .first()
        .getByRole("button", { name: /^Match / })
        .click();
      await expect.poll(() => page.getByTestId("review-empty").count(), { timeout: 15_000 }).toBe(1);
      await page.getByRole("tab", { name: "Matched" }).click();
      const matched = page.getByTestId("statement-line-row").filter({ hasText: "BANKREF-DEBIT-500" });
      await matched.waitFor();
      expect(await matched.textContent()).toContain("Matched by hand");

      // Money nobody expected: the credit and the fee; the fee is ignored with a reason.
      await page.getByRole("tab", { name: "Unexpected money" }).click();
      const credit = page.getByTestId("statement-line-row").filter({ hasText: "BANKREF-CREDIT-1250" });
      const fee = page.getByTestId("statement-line-row").filter({ hasText: "BANKREF-DEBIT-40" });
      await credit.waitFor();
      expect(await credit.textContent()).toContain("Money in");
      expect(await credit.textContent()).toContain("1,250.00");
      expect(await fee.textContent()).toContain("Money out");
      await h.capture(page, "reconciliation-unexpected");
      await fee.getByRole("button", { name: "Ignore…" }).click();
      const ignore = page.getByRole("dialog", { name: /^Ignore the line/ });
      await ignore.getByLabel("Reason").fill("The bank's monthly account fee, booked by finance");
      await ignore.getByRole("button", { name: "Ignore line" }).click();
      await ignore.waitFor({ state: "detached", timeout: 15_000 });
      await expect.poll(() => fee.count(), { timeout: 15_000 }).toBe(0);
      await page.getByRole("tab", { name: "Ignored" }).click();
      const ignored = page.getByTestId("statement-line-row").filter({ hasText: "BANKREF-DEBIT-40" });
      await ignored.waitFor();
      expect(await ignored.textContent()).toContain("The bank's monthly account fee");

      // The closing balance of 9,999.00 is not the service's: said in words, then resolved with a reason.
      await page.getByRole("tab", { name: /^Balance differences/ }).click();
      const mismatch = page.getByTestId("mismatch");
      await mismatch.waitFor();
      expect(await mismatch.textContent()).toContain("The bank's closing balance is €9,999.00");
      await h.capture(page, "reconciliation-mismatch");
      await mismatch.getByRole("button", { name: "Resolve…" }).click();
      const resolve = page.getByRole("dialog", { name: "Resolve the difference" });
      await resolve.getByLabel("Reason").fill("Opening balance moved from the old bank, confirmed by treasury");
      await resolve.getByRole("button", { name: "Mark resolved" }).click();
      await resolve.waitFor({ state: "detached", timeout: 15_000 });
      await page.getByTestId("no-mismatches").waitFor({ timeout: 15_000 });

      await page.getByRole("tab", { name: "Statements" }).click();
      const row = page.getByTestId("statement-row");
      await row.waitFor();
      expect(await row.textContent()).toContain("End-of-day statement (camt.053)");
      expect(await row.textContent()).toContain("Difference resolved");
      await h.capture(page, "reconciliation-statements");

      // The same file again adds nothing, and says so.
      await page.getByRole("button", { name: "Upload statement" }).click();
      const again = page.getByRole("dialog", { name: "Upload a bank statement" });
      await again.locator('input[type="file"]').setInputFiles(statementFile);
      await again.getByRole("button", { name: "Upload" }).click();
      await again.getByTestId("upload-result").waitFor({ timeout: 15_000 });
      expect(await again.getByTestId("upload-result").textContent()).toContain("received before: nothing was added");
      expect(h.violations).toEqual([]);
    } finally {
      await context.close();
    }
    const lines = await t.app.inject({
      method: "GET",
      url: "/v1/statement-lines?status=matched",
      headers: bearer(biz.keys.production),
    });
    expect(lines.json().statement_lines).toEqual([
      expect.objectContaining({ match: expect.objectContaining({ payout_ids: [expect.any(String)] }) }),
    ]);
    expect(payouts).toContain(lines.json().statement_lines[0].match.payout_ids[0]);
  }, 300_000);

  it("shows a read-only member every line and no button", async () => {
    const { context, page } = await signInToProduction(viewer.email, STRONG_PASSWORD);
    try {
      expect(await page.getByRole("button", { name: "Upload statement" }).count()).toBe(0);
      await page.getByText("Your role reads only").waitFor();
      await page.getByRole("tab", { name: "Unexpected money" }).click();
      const credit = page.getByTestId("statement-line-row").filter({ hasText: "BANKREF-CREDIT-1250" });
      await credit.waitFor();
      expect(await credit.getByRole("button").count()).toBe(0);
      await page.getByRole("tab", { name: "Matched" }).click();
      await page.getByTestId("statement-line-row").first().waitFor();
      expect(await page.getByRole("button", { name: "Unmatch" }).count()).toBe(0);
      await h.capture(page, "reconciliation-read-only");
    } finally {
      await context.close();
    }
  }, 180_000);
});
