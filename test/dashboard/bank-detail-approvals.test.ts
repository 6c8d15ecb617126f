// Bank details awaiting approval, in Debian's Chromium against the real app on loopback: under the destination
// policy's require_approval, an account added by another person's key is listed beside the payout approvals with
// the payee, the masked account and who added it; approving it empties the queue and makes the account payable.
// An account the signed-in person added from the dashboard is shown as theirs, with no buttons (maker-checker).
// The destination policy is shown and changed in Settings; with maker-checker on, relaxing it shows that the change
// waits for a second admin (and nothing changes).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, browserRequired, type DashboardHarness, startDashboard } from "../helpers/dashboard-browser.js";
import { bearer, createBeneficiary, GERMAN_IBAN_ACCOUNT } from "../helpers/factories.js";
import { REGISTRATION_PASSWORD, sessionHeaders, signIn } from "../helpers/sessions.js";
import { addTeamMember, type TeamMember } from "../helpers/team.js";
import { createPayout, PERSON_IDENTITY } from "../payouts/payout-fixtures.js";

if (!browserAvailable && !browserRequired) console.warn("NOTICE: dashboard bank-detail approval tests skipped: no Chromium");

describe.skipIf(!browserAvailable && !browserRequired)("bank details awaiting approval", () => {
  let h: DashboardHarness;
  let other: TeamMember;
  let beneficiaryId: string;
  let theirs: string;

  beforeAll(async () => {
    h = await startDashboard("Bank Detail Review", "ran-bank-detail-approvals");
    other = await addTeamMember(h.t, h.biz.businessId);
    const key = h.biz.keys.sandbox;
    const policy = await h.t.app.inject({
      method: "PUT",
      url: "/v1/destination-policy",
      headers: bearer(key),
      payload: { require_approval: true },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const beneficiary = await createBeneficiary(h.t.app, key, { ...PERSON_IDENTITY, name: "Clara Vogel" });
    beneficiaryId = beneficiary.id;
    // Added by the other person's key: the signed-in admin may approve it.
    const added = await h.t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts`,
      headers: bearer(other.keys.sandbox),
      payload: { ...GERMAN_IBAN_ACCOUNT, account_holder_name: "Clara Vogel" },
    });
    expect(added.statusCode, added.body).toBe(201);
    theirs = added.json().id;
    // Added by the signed-in admin from a dashboard session: theirs, so not theirs to decide.
    const session = sessionHeaders(await signIn(h.t.app, h.biz.email));
    const mine = await h.t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts`,
      headers: session,
      payload: { account_holder_name: "Clara Vogel", country: "DE", currency: "EUR", iban: "DE02120300000000202051" },
    });
    expect(mine.statusCode, mine.body).toBe(201);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("lists them beside the payout approvals, shows maker-checker, and approves one", async () => {
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
      await page.goto(`${h.base}/dashboard/approvals`);
      const rows = page.getByTestId("bank-detail-row");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
      const byKey = rows.filter({ hasText: "••3000" });
      const byMe = rows.filter({ hasText: "••2051" });
      expect(await byKey.textContent()).toContain("Clara Vogel");
      expect(await byKey.textContent()).toContain("An API key");
      expect(await byMe.textContent()).toContain("You, in the dashboard");
      expect(await byMe.textContent()).toContain("You added it: someone else must decide");
      expect(await byMe.getByRole("button").count()).toBe(0);
      expect(await page.textContent("body")).not.toContain(GERMAN_IBAN_ACCOUNT.iban);

      await byKey.getByRole("button", { name: /^Approve the account of Clara Vogel/ }).click();
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
      const accounts = await h.t.app.inject({
        method: "GET",
        url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts`,
        headers: bearer(h.biz.keys.sandbox),
      });
      const approved = (accounts.json().bank_accounts as Array<Record<string, unknown>>).find((a) => a.id === theirs);
      expect(approved).toMatchObject({ approval_status: "approved", approved_by: h.biz.membershipId, payout_usable: true });
    } finally {
      await context.close();
    }
  });

  it("shows the destination policy in Settings and saves a change", async () => {
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
      await page.goto(`${h.base}/dashboard/settings?tab=destination-policy`);
      const approval = page.getByLabel(/^Require approval/);
      await expect.poll(() => approval.isChecked(), { timeout: 15_000 }).toBe(true);
      await page.getByLabel("Cooling-off (hours)").fill("24");
      await page.getByRole("button", { name: "Save destination policy" }).click();
      await expect.poll(() => page.getByText("Destination policy saved.").isVisible(), { timeout: 15_000 }).toBe(true);
      const read = await h.t.app.inject({ method: "GET", url: "/v1/destination-policy", headers: bearer(h.biz.keys.sandbox) });
      expect(read.json()).toMatchObject({ require_approval: true, cooling_off_hours: 24 });
    } finally {
      await context.close();
    }
  });

  it("the payout approvals inbox and the payout page show the destination's facts", async () => {
    const key = h.biz.keys.sandbox;
    const ack = await h.t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${beneficiaryId}/acknowledge`,
      headers: bearer(key),
    });
    expect(ack.statusCode, ack.body).toBe(200);
    const created = await createPayout(h.t.app, key, {
      beneficiary_id: beneficiaryId,
      bank_account_id: theirs,
      amount_minor: 4_200,
    });
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
      await page.goto(`${h.base}/dashboard/approvals`);
      const row = page.getByTestId("approval-row").filter({ hasText: "Clara Vogel" });
      const facts = row.getByTestId("destination-facts");
      await expect.poll(() => facts.textContent(), { timeout: 15_000 }).toContain("First payout to this account");
      expect(await facts.textContent()).toMatch(/Added or changed (today|\d+ days? ago)/);
      await page.goto(`${h.base}/dashboard/payouts/${created.payout_id}`);
      const onPage = page.getByTestId("destination-facts");
      await expect.poll(() => onPage.textContent(), { timeout: 15_000 }).toContain("First payout to this account");
    } finally {
      await context.close();
    }
  });

  // Last: maker-checker stays on afterwards.
  it("with maker-checker on, relaxing the destination policy waits for a second admin", async () => {
    const key = h.biz.keys.sandbox;
    const on = await h.t.app.inject({
      method: "PUT",
      url: "/v1/approval-policy",
      headers: bearer(key),
      payload: { rules: [], maker_checker: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
      await page.goto(`${h.base}/dashboard/settings?tab=destination-policy`);
      const approval = page.getByLabel(/^Require approval/);
      await expect.poll(() => approval.isChecked(), { timeout: 15_000 }).toBe(true);
      await approval.uncheck();
      await page.getByRole("button", { name: "Save destination policy" }).click();
      await page.getByTestId("waiting-for-second-admin").waitFor({ timeout: 15_000 });
      expect(await page.getByText("Destination policy saved.").isVisible()).toBe(false);
      const read = await h.t.app.inject({ method: "GET", url: "/v1/destination-policy", headers: bearer(key) });
      expect(read.json()).toMatchObject({ require_approval: true });
      const pending = await h.t.app.inject({ method: "GET", url: "/v1/control-changes?status=pending", headers: bearer(key) });
      expect(pending.json().control_changes).toMatchObject([
        { kind: "destination_policy", proposed: { require_approval: false } },
      ]);
    } finally {
      await context.close();
    }
  });
});
