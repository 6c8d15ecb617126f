// The payee name check where a person decides (issue 29), in Debian's Chromium against the real app on loopback:
// the approvals inbox, the payout page and the Beneficiary's destinations say in words whether the bank holds the
// account in the payee's name (the sandbox simulator's magic last fours: 0921 no match, 0922 close match with
// the bank's name), and "not checked yet" before the check ran.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, browserRequired, type DashboardHarness, startDashboard } from "../helpers/dashboard-browser.js";
import { bearer, createBeneficiary, registerBankAccount } from "../helpers/factories.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { createPayout } from "../payouts/payout-fixtures.js";

if (!browserAvailable && !browserRequired) console.warn("NOTICE: dashboard name-check tests skipped: no Chromium");

describe.skipIf(!browserAvailable && !browserRequired)("the payee name check where a person decides", () => {
  let h: DashboardHarness;
  const ids: Record<string, string> = {};

  async function payee(first: string, last: string, iban: string): Promise<string> {
    const key = h.biz.keys.sandbox;
    const beneficiary = await createBeneficiary(h.t.app, key, {
      first_name: first,
      last_name: last,
      country_of_residence: "DE",
      name: `${first} ${last}`,
    });
    await registerBankAccount(h.t.app, key, beneficiary.id, {
      account_holder_name: `${first} ${last}`,
      country: "DE",
      currency: "EUR",
      iban,
    });
    const ack = await h.t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`,
      headers: bearer(key),
    });
    expect(ack.statusCode, ack.body).toBe(200);
    return beneficiary.id;
  }

  beforeAll(async () => {
    h = await startDashboard("Name Check Review", "ran-name-check");
    ids.carla = await payee("Carla", "Conti", "DE59370400440532010921");
    ids.dora = await payee("Dora", "Diaz", "DE32370400440532010922");
    ids.emil = await payee("Emil", "Eck", "DE62370400440532013001");
    await h.t.runtime.createWorker("name-check-browser").drain();
    // Registered after the worker ran: its check has not answered yet.
    ids.fritz = await payee("Fritz", "Frey", "DE89370400440532013000");
    const key = h.biz.keys.sandbox;
    for (const [who, ref] of [
      ["carla", "INV-CARLA"],
      ["dora", "INV-DORA"],
      ["emil", "INV-EMIL"],
      ["fritz", "INV-FRITZ"],
    ] as const) {
      ids[`${who}Payout`] = (
        await createPayout(h.t.app, key, { beneficiary_id: ids[who], amount_minor: 10_000, external_ref: ref })
      ).payout_id;
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  it("the inbox, the payout page and the destinations say whether the bank holds the account in the payee's name", async () => {
    const { context, page } = await h.newPage();
    try {
      await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
      await page.goto(`${h.base}/dashboard/approvals`);
      const rows = page.getByTestId("approval-row");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(4);
      const nameCheckOf = (who: string) => rows.filter({ hasText: who }).getByTestId("name-check").textContent();
      await expect.poll(() => nameCheckOf("Carla Conti"), { timeout: 15_000 }).toBe("Name does not match the bank's records");
      expect(await nameCheckOf("Dora Diaz")).toBe("Name close: the bank holds “D. DIAZ”");
      expect(await nameCheckOf("Emil Eck")).toBe("Name matches the bank's records");
      expect(await nameCheckOf("Fritz Frey")).toBe("Name not checked yet");
      await h.capture(page, "approvals-name-check");

      await page.goto(`${h.base}/dashboard/payouts/${ids.carlaPayout}`);
      const onPayout = page.getByTestId("name-check");
      await onPayout.waitFor({ timeout: 15_000 });
      expect(await onPayout.textContent()).toBe("Name does not match the bank's records");

      await page.goto(`${h.base}/dashboard/beneficiaries/${ids.dora}`);
      const destination = page.getByTestId("destination-row");
      await expect
        .poll(() => destination.getByTestId("name-check").textContent(), { timeout: 15_000 })
        .toBe("Name close: the bank holds “D. DIAZ”");
      await h.capture(page, "destinations-name-check");
    } finally {
      await context.close();
    }
  });
});
