// Bank rails and bank files in the dashboard, in Debian's Chromium against the real app: an admin sets up the
// SEPA rail in Settings against a real OpenSSH server (test/helpers/sshd.ts) — a wrong cut-off refused before
// sending, a wrong IBAN refused by the API beside its field — then saves it, sees the cut-offs in the rail's
// zone and presses "Test connection" (every step passed, in words); a changed host key fails the test naming
// the key presented. The Bank files page shows a file sent at a cut-off (status, its payout, download) and a
// status report the bank sent back (what it moved, a problem in words). Each page is scanned with axe-core
// and photographed at desktop and 375 px.
// Without /usr/bin/chromium the file is skipped (unless REQUIRE_BROWSER=1); the SSH part also needs
// /usr/sbin/sshd (skipped without it, unless REQUIRE_SFTP=1, CI).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localFolder, sepaConfig, sepaPayee } from "../bank-rails/bank-rail-fixtures.js";
import {
  type BrowserHarness,
  browserAvailable,
  listenOnLoopback,
  noticeIfNoBrowser,
  startBrowser,
} from "../helpers/dashboard-browser.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { removeSshdDir, SSHD_PATH, sshdAvailable, startTestSshd, type TestSshd } from "../helpers/sshd.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { bankPain002 } from "../helpers/test-bank.js";
import { createPayout, decide } from "../payouts/payout-fixtures.js";

noticeIfNoBrowser("dashboard bank rails browser tests");
const sftpRequired = process.env.REQUIRE_SFTP === "1";
const sftpAvailable = sshdAvailable();
if (!sftpAvailable)
  console.warn(`NOTICE: bank rail setup browser test skipped: no ${SSHD_PATH} (set REQUIRE_SFTP=1 to make this fatal)`);

describe("OpenSSH server for the dashboard's bank rail test", () => {
  it.runIf(sftpRequired)("is installed (REQUIRE_SFTP=1)", () => {
    expect(sftpAvailable, `REQUIRE_SFTP=1 but ${SSHD_PATH} is missing: apt-get install -y openssh-server`).toBe(true);
  });
});

describe.skipIf(!browserAvailable)("bank rails and bank files in Chromium", () => {
  let t: TestApp;
  let h: BrowserHarness;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "bank-rails-dashboard-"));
    t = await buildTestApp({
      env: { BANK_RAIL_LOCAL_ROOT: root, BANK_RAIL_ALLOW_PRIVATE_HOSTS: "true", BANK_RAIL_POLL_INTERVAL_SECONDS: "60" },
    });
    h = await startBrowser(await listenOnLoopback(t.app), "ran-bank-rails");
  });
  afterAll(async () => {
    await h?.close();
    await t?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  async function signInToProduction(biz: RegisteredBusiness, at: string) {
    const { context, page } = await h.newPage();
    await h.signIn(page, biz.email, REGISTRATION_PASSWORD);
    await page.getByText("Production", { exact: true }).click();
    await page.goto(`${h.base}/dashboard${at}`);
    return { context, page };
  }

  describe.runIf(sftpAvailable)("setting up a rail against a real SSH server", () => {
    let sshd: TestSshd;
    beforeAll(async () => {
      sshd = await startTestSshd();
    });
    afterAll(async () => {
      await sshd?.stop();
      if (sshd) removeSshdDir(sshd);
    });

    it("sets up SEPA in Settings, refusals beside their fields, then tests the connection", async () => {
      const biz = await registerBusiness(t.app, "Rails By Browser GmbH");
      const { context, page } = await signInToProduction(biz, "/settings?tab=bank-rails");
      const card = page.getByTestId("rail-sepa");
      await expect.poll(() => card.textContent(), { timeout: 15_000 }).toContain("Not configured");
      await h.capture(page, "bank-rails-empty");

      await card.getByRole("button", { name: "Set up SEPA rail" }).click();
      const form = page.getByRole("form", { name: "SEPA rail settings" });
      await form.getByLabel("Account holder name").fill("Rails By Browser GmbH");
      await form.getByLabel("IBAN of the account debited").fill("DE00 1234 5678 9012 3456 78");
      await form.getByLabel("Time zone of the cut-offs").selectOption("Europe/Berlin");
      await form.getByLabel(/^Cut-off times/).fill("09:30, 25:00");
      await form.getByLabel(/^Host( \*)?$/).fill("127.0.0.1");
      await form.getByLabel("Port", { exact: true }).fill(String(sshd.port));
      await form.getByLabel("Username").fill(sshd.username);
      await form.getByLabel("Host key fingerprint").fill(sshd.hostKeyFingerprint);
      await form.getByLabel("Private key").fill(sshd.privateKey);
      await form.getByLabel(/^Outbound directory/).fill("out");
      await form.getByLabel(/^Inbound directory/).fill("in");
      await form.getByRole("button", { name: "Save SEPA rail" }).click();
      // Checked before sending: the time of day.
      await form.getByText('"25:00" is not a time of day as HH:MM').waitFor();
      await form.getByLabel(/^Cut-off times/).fill("15:00, 09:30");
      await form.getByRole("button", { name: "Save SEPA rail" }).click();
      // The API's refusal of the IBAN, beside the IBAN.
      await expect
        .poll(() => form.getByLabel("IBAN of the account debited").getAttribute("aria-invalid"), { timeout: 15_000 })
        .toBe("true");
      await form.getByText(/Not a valid IBAN/).waitFor();
      await h.capture(page, "bank-rails-refused");

      await form.getByLabel("IBAN of the account debited").fill("FR14 2004 1010 0505 0001 3M02 606");
      await form.getByRole("button", { name: "Save SEPA rail" }).click();
      await expect.poll(() => card.textContent(), { timeout: 15_000 }).toContain("Configured");
      await expect(card.getByTestId("rail-sepa-cutoffs").textContent()).resolves.toBe(
        "Cut-offs: 09:30, 15:00 (Europe/Berlin time)",
      );
      await expect(card.textContent()).resolves.not.toContain("PRIVATE KEY");

      await card.getByRole("button", { name: "Test connection" }).click();
      const result = card.getByTestId("connection-test-sepa");
      await expect.poll(() => result.textContent(), { timeout: 30_000 }).toContain("The connection works");
      const text = await result.textContent();
      expect(text).toContain(`Login: Passed. Logged in as ${sshd.username} with the stored private key.`);
      expect(text).toContain('Inbound directory: Passed. Listed the inbound directory "in": 0 files.');
      await h.capture(page, "bank-rails-tested");

      // The bank's server changes its key: the test fails at the host key and names the key presented.
      const rotated = await sshd.rotateHostKey();
      await card.getByRole("button", { name: "Test connection" }).click();
      await expect.poll(() => result.textContent(), { timeout: 30_000 }).toContain("The connection test failed");
      await expect(result.textContent()).resolves.toContain(`Host key: Failed. The server presented host key ${rotated}`);
      await h.capture(page, "bank-rails-host-key-changed");
      expect(h.violations).toEqual([]);
      await context.close();
    });
  });

  it("shows a file sent at the cut-off and the bank's answer, with what each moved and a problem in words", async () => {
    const biz = await registerBusiness(t.app, "Files By Browser GmbH");
    const key = biz.keys.production;
    const delivery = { kind: "local_directory", outbound_directory: "out", inbound_directory: "in" };
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({ delivery }),
    });
    expect(put.statusCode, put.body).toBe(201);
    const { beneficiaryId } = await sepaPayee(t.app, key);
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 12_345, currency: "EUR" });
    expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
    const drain = () => t.runtime.createWorker(`w-${Math.random()}`).drain();
    await drain();
    t.clock.set(new Date("2026-05-27T13:00:00.000Z"));
    await drain();
    const [file] = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
    expect(file).toMatchObject({ status: "uploaded" });
    // The bank's status report: the payout accepted, and an entry naming nothing of ours.
    const inbound = localFolder(root, biz.businessId, "in");
    mkdirSync(inbound, { recursive: true });
    writeFileSync(
      path.join(inbound, "pain002-1.xml"),
      bankPain002({
        messageId: "STS-1",
        originalMessageId: file.message_id,
        groupStatus: "PART",
        paymentInfoId: `${file.message_id}-0001`,
        transactions: [
          { endToEndId: payout.payout_id.replaceAll("-", ""), status: "ACCP" },
          { endToEndId: "NOTOURS123", status: "RJCT", reasonCode: "AC04" },
        ],
      }),
    );
    t.clock.advance(61_000);
    await drain();
    await drain();

    const { context, page } = await signInToProduction(biz, "/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Bank files" }).click();
    await page.getByRole("heading", { level: 1, name: "Bank files" }).waitFor();
    const sent = page.getByTestId("outbound-file");
    await expect.poll(() => sent.textContent(), { timeout: 15_000 }).toContain(file.file_name);
    await expect(sent.textContent()).resolves.toMatch(/SEPA · cut-off .* · 1 payout, €123\.45/);
    await sent.getByRole("button", { name: "Show payouts" }).click();
    await expect
      .poll(() => sent.getByTestId("outbound-file-payouts").textContent(), { timeout: 15_000 })
      .toContain("bank: accepted (ACCP)");
    await h.capture(page, "bank-files-sent");

    const download = page.waitForEvent("download");
    await sent.getByRole("button", { name: "Download" }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(file.file_name);
    const savedPath = await saved.path();
    expect(readFileSync(savedPath, "utf8")).toContain("<CstmrCdtTrfInitn>");

    await page.getByRole("tab", { name: "Received from the bank" }).click();
    const received = page.getByTestId("inbound-file");
    await expect.poll(() => received.textContent(), { timeout: 15_000 }).toContain("pain002-1.xml");
    const words = await received.textContent();
    expect(words).toContain("Status report (pain.002)");
    expect(words).toContain("Partly applied: some items moved nothing");
    expect(words).toContain("acknowledged by the bank (bank: accepted (ACCP))");
    expect(await received.getByTestId("inbound-problems").textContent()).toContain("NOTOURS123");
    await h.capture(page, "bank-files-received");

    // The read of the bytes is in the audit log.
    const audit = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?action=bank_file_content_read",
      headers: bearer(key),
    });
    expect(audit.json().audit_records).toHaveLength(1);
    expect(h.violations).toEqual([]);
    await context.close();
  });
});
