// A Beneficiary's identity edited and its enrollment retried in a real Chromium against the real app
// (test/helpers/dashboard-browser.ts): the API's validation message beside the field, only changed fields sent
// (an emptied optional field cleared), the readiness list following the edit; in production a refused
// enrollment retried (refused again, with the rail's wording), the e-mail corrected, retried again and accepted;
// a CSV import with its per-row results on screen and downloaded as CSV.
// axe scans and screenshots at desktop and 375 px.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sepaConfig } from "../bank-rails/bank-rail-fixtures.js";
import {
  browserAvailable,
  browserRequired,
  type DashboardHarness,
  pickOption,
  startDashboard,
} from "../helpers/dashboard-browser.js";
import { bearer, createBeneficiary, registerBankAccount } from "../helpers/factories.js";
import { REGISTRATION_PASSWORD } from "../helpers/sessions.js";
import { TEST_START } from "../helpers/test-app.js";

if (!browserAvailable && !browserRequired) console.warn("NOTICE: dashboard Beneficiary edit tests skipped: no Chromium");

const PERSON_REFUSAL = "The payee's identity could not be verified against the name and country given.";

describe.skipIf(!browserAvailable)("Editing a Beneficiary and retrying its enrollment in the dashboard", () => {
  let h: DashboardHarness;

  beforeAll(async () => {
    h = await startDashboard("Beneficiary Edits", "ran-beneficiaries-edit");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("edits the identity: the API's message beside the field, then the changes saved and an emptied field cleared", async () => {
    h.t.clock.set(TEST_START);
    const b = await createBeneficiary(h.t.app, h.biz.keys.sandbox, {
      email: "grace@example.com",
      name: "Grace Hopper",
      first_name: "Grace",
      nickname: "Amazing Grace",
    });
    const { context, page } = await h.newPage();
    await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
    await page.goto(`${h.base}/dashboard/beneficiaries/${b.id}`);
    await page.getByRole("heading", { level: 1, name: "Amazing Grace" }).waitFor();
    const readiness = page.getByTestId("readiness");
    await expect
      .poll(() => readiness.textContent(), { timeout: 15_000 })
      .toContain("Identity details: last name, country of residence");

    await page.getByRole("button", { name: "Edit identity" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit identity" });
    await expect(dialog.getByLabel("First name").inputValue()).resolves.toBe("Grace");
    // Nothing changed: nothing sent.
    await dialog.getByRole("button", { name: "Save identity" }).click();
    await dialog.getByText("Nothing changed.").waitFor();

    // A date of birth the API refuses: its message beside the field, the envelope with its code above.
    await dialog.getByLabel("Last name").fill("Hopper");
    await dialog.getByLabel("Date of birth").fill("31/12/1906");
    await dialog.getByRole("button", { name: "Save identity" }).click();
    await dialog.getByRole("alert").first().waitFor();
    await expect.poll(() => dialog.getByRole("alert").first().textContent(), { timeout: 15_000 }).toContain("validation_failed");
    const described = await dialog.getByLabel("Date of birth").getAttribute("aria-describedby");
    const errorId = described?.split(" ").find((id) => id.endsWith("error"));
    expect(errorId).toBeTruthy();
    await expect.poll(() => page.locator(`[id="${errorId}"]`).textContent(), { timeout: 15_000 }).toMatch(/date|format|pattern/i);
    await h.capture(page, "beneficiary-edit-invalid");

    // Fixed, the country chosen by its name, the nickname emptied (cleared by the API).
    await dialog.getByLabel("Date of birth").fill("1906-12-09");
    await pickOption(page, dialog.getByLabel("Country of residence"), "United States", "United States (US)");
    await dialog.getByLabel("Nickname").fill("");
    await dialog.getByRole("button", { name: "Save identity" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("heading", { level: 1, name: "Grace Hopper" }).waitFor();
    await expect.poll(() => readiness.textContent(), { timeout: 15_000 }).not.toContain("Identity details");
    const stored = (
      await h.t.app.inject({ method: "GET", url: `/v1/beneficiaries/${b.id}`, headers: bearer(h.biz.keys.sandbox) })
    ).json();
    expect(stored).toMatchObject({
      first_name: "Grace",
      last_name: "Hopper",
      date_of_birth: "1906-12-09",
      country_of_residence: "US",
      nickname: null,
      email: "grace@example.com",
    });
    await h.capture(page, "beneficiary-edited");
    expect(h.cspViolations).toEqual([]);
    await context.close();
  });

  it("edits the postal address: the API's message beside a missing town, then the whole address sent alone, then cleared", async () => {
    h.t.clock.set(TEST_START);
    const b = await createBeneficiary(h.t.app, h.biz.keys.sandbox, {
      email: "ada@example.com",
      name: "Ada Lovelace",
      first_name: "Ada",
      last_name: "Lovelace",
      country_of_residence: "GB",
    });
    const { context, page } = await h.newPage();
    await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
    await page.goto(`${h.base}/dashboard/beneficiaries/${b.id}`);
    await page.getByRole("heading", { level: 1, name: "Ada Lovelace" }).waitFor();
    const updates: unknown[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT" && request.url().endsWith(`/v1/beneficiaries/${b.id}`)) updates.push(request.postDataJSON());
    });

    await page.getByRole("button", { name: "Edit identity" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit identity" });
    const address = dialog.getByRole("group", { name: "Postal address" });
    // Polled: the dialog is opened by the click's render, which a count taken at once may precede.
    await expect
      .poll(() => address.getByText("A SEPA payout needs at least the town and the country", { exact: false }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    // A street and a country without a town: the API's "required" beside the town field.
    await address.getByLabel("Street and number").fill("Hauptstraße 1");
    await pickOption(page, address.getByLabel("Country", { exact: true }), "Germany", "Germany (DE)");
    await dialog.getByRole("button", { name: "Save identity" }).click();
    await expect.poll(() => dialog.getByRole("alert").first().textContent(), { timeout: 15_000 }).toContain("validation_failed");
    const described = await address.getByLabel("Town or city").getAttribute("aria-describedby");
    const errorId = described?.split(" ").find((id) => id.endsWith("error"));
    expect(errorId).toBeTruthy();
    await expect.poll(() => page.locator(`[id="${errorId}"]`).textContent(), { timeout: 15_000 }).toMatch(/city/i);
    await h.capture(page, "beneficiary-address-invalid");

    // Completed: the whole address, and nothing else, is sent; the country upper-cased.
    await address.getByLabel("Town or city").fill("Berlin");
    await address.getByLabel("Postal code").fill("10115");
    await dialog.getByRole("button", { name: "Save identity" }).click();
    await dialog.waitFor({ state: "detached" });
    const expected = { line1: "Hauptstraße 1", city: "Berlin", postal_code: "10115", country: "DE" };
    // The request events reach the test on their own channel, not in step with the page: the last one is polled.
    const lastUpdate = () => updates[updates.length - 1];
    await expect.poll(lastUpdate, { timeout: 15_000 }).toEqual({ postal_address: expected });
    await expect.poll(() => page.getByText("Hauptstraße 1", { exact: false }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const read = async () =>
      (await h.t.app.inject({ method: "GET", url: `/v1/beneficiaries/${b.id}`, headers: bearer(h.biz.keys.sandbox) })).json();
    expect((await read()).postal_address).toEqual(expected);
    await h.capture(page, "beneficiary-address-saved");

    // A name changed, the address not: the address is not sent.
    await page.getByRole("button", { name: "Edit identity" }).click();
    await dialog.getByLabel("Nickname").fill("Countess");
    await dialog.getByRole("button", { name: "Save identity" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(lastUpdate, { timeout: 15_000 }).toEqual({ nickname: "Countess" });

    // Every address field emptied: the address is removed (sent as null).
    await page.getByRole("button", { name: "Edit identity" }).click();
    for (const label of ["Street and number", "Town or city", "Postal code"]) await address.getByLabel(label).fill("");
    // The country is a picker: emptied by its clear button.
    await address.getByLabel("Clear Country").click();
    await dialog.getByRole("button", { name: "Save identity" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(lastUpdate, { timeout: 15_000 }).toEqual({ postal_address: null });
    expect((await read()).postal_address).toBeNull();
    expect(h.cspViolations).toEqual([]);
    await context.close();
  });

  it("retries a refused enrollment in production: refused again, the e-mail corrected, then accepted", async () => {
    h.t.clock.set(TEST_START);
    const key = h.biz.keys.production;
    const b = await createBeneficiary(h.t.app, key, {
      email: "ana+refuse_enrollment@example.com",
      name: "Ana Lima",
      first_name: "Ana",
      last_name: "Lima",
      country_of_residence: "US",
    });
    const ack = await h.t.app.inject({ method: "POST", url: `/v1/beneficiaries/${b.id}/acknowledge`, headers: bearer(key) });
    expect(ack.json()).toMatchObject({ enrollment_status: "rejected" });

    const { context, page } = await h.newPage();
    await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
    await page.getByText("Production", { exact: true }).click();
    await expect.poll(() => page.getByTestId("sandbox-banner").count(), { timeout: 15_000 }).toBe(0);
    await page.goto(`${h.base}/dashboard/beneficiaries/${b.id}`);
    await page.getByRole("heading", { level: 1, name: "Ana Lima" }).waitFor();
    const readiness = page.getByTestId("readiness");
    await expect
      .poll(() => readiness.textContent(), { timeout: 15_000 })
      .toContain(`The payout rail refused its enrollment: ${PERSON_REFUSAL}`);

    const retry = page.getByRole("button", { name: "Retry enrollment" });
    await retry.click();
    const outcome = page.getByTestId("enrollment-outcome");
    await expect
      .poll(() => outcome.textContent(), { timeout: 15_000 })
      .toBe(`The rail refused the enrollment: ${PERSON_REFUSAL}.`);
    await h.capture(page, "beneficiary-enrollment-refused");

    // The e-mail corrected (not a trigger field: no re-acknowledgment), then retried and accepted.
    await page.getByRole("button", { name: "Edit identity" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit identity" });
    await dialog.getByLabel("E-mail").fill("ana@example.com");
    await dialog.getByRole("button", { name: "Save identity" }).click();
    await dialog.waitFor({ state: "detached" });
    await retry.click();
    await expect.poll(() => outcome.textContent(), { timeout: 15_000 }).toBe("The rail accepted the enrollment.");
    await expect.poll(() => retry.count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => readiness.textContent(), { timeout: 15_000 }).not.toContain("refused");
    await h.capture(page, "beneficiary-enrollment-verified");
    const stored = (await h.t.app.inject({ method: "GET", url: `/v1/beneficiaries/${b.id}`, headers: bearer(key) })).json();
    expect(stored).toMatchObject({ email: "ana@example.com", enrollment_status: "verified", enrollment_failure_detail: null });
    expect(h.cspViolations).toEqual([]);
    await context.close();
  });

  it("a SEPA payout refused for want of an address leads to the address editor with the missing parts marked", async () => {
    h.t.clock.set(TEST_START);
    const key = h.biz.keys.production;
    const rail = await h.t.app.inject({ method: "PUT", url: "/v1/bank-rails/sepa", headers: bearer(key), payload: sepaConfig() });
    expect(rail.statusCode, rail.body).toBe(201);
    const payee = await createBeneficiary(h.t.app, key, {
      email: "piet@example.com",
      first_name: "Piet",
      last_name: "Jansen",
      country_of_residence: "NL",
    });
    await registerBankAccount(h.t.app, key, payee.id, {
      account_holder_name: "Piet Jansen",
      country: "NL",
      currency: "EUR",
      iban: "NL91ABNA0417164300",
    });
    const ack = await h.t.app.inject({ method: "POST", url: `/v1/beneficiaries/${payee.id}/acknowledge`, headers: bearer(key) });
    expect(ack.statusCode, ack.body).toBe(200);

    const { context, page } = await h.newPage();
    await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
    await page.getByText("Production", { exact: true }).click();
    await expect.poll(() => page.getByTestId("sandbox-banner").count(), { timeout: 15_000 }).toBe(0);
    await page.goto(`${h.base}/dashboard/payouts/new`);
    await page.getByRole("heading", { level: 1, name: "New payout" }).waitFor();
    await page
      .getByLabel(/^Beneficiary/)
      .first()
      .click();
    await page.getByRole("option", { name: /piet@example\.com/ }).click();
    await page
      .getByLabel(/^Destination/)
      .first()
      .click();
    // The destination's own option, by its name: the Beneficiary's list may still be closing, and the destinations
    // arrive by a query of their own after the choice.
    await page.getByRole("option", { name: /^Account •••• 4300 · EUR · NL$/ }).click();
    await page.getByLabel(/^Amount/).fill("25.00");
    await page.getByRole("button", { name: "Create payout" }).click();
    await expect
      .poll(() => page.getByRole("alert").first().textContent(), { timeout: 15_000 })
      .toContain("SEPA_ADDRESS_NOT_STRUCTURED");
    await page.getByRole("link", { name: "Complete the Beneficiary's postal address" }).click();

    // The editor opens at once, saying what the rail needs, the empty town and country marked.
    const dialog = page.getByRole("dialog", { name: "Edit identity" });
    await dialog.getByText("A SEPA payout was refused").waitFor();
    await expect
      .poll(() => dialog.getByText("needs this Beneficiary's town and country", { exact: false }).count(), { timeout: 15_000 })
      .toBe(1);
    const address = dialog.getByRole("group", { name: "Postal address" });
    for (const label of ["Town or city", "Country"]) {
      const described = await address.getByLabel(label, { exact: true }).getAttribute("aria-describedby");
      const errorId = described?.split(" ").find((id) => id.endsWith("error"));
      await expect
        .poll(() => page.locator(`[id="${errorId}"]`).textContent(), { timeout: 15_000 })
        .toBe("Needed for a SEPA payout");
    }
    await h.capture(page, "beneficiary-address-sepa");
    await address.getByLabel("Street and number").fill("Damrak 1");
    await address.getByLabel("Town or city").fill("Amsterdam");
    await pickOption(page, address.getByLabel("Country", { exact: true }), "Netherlands", "Netherlands (NL)");
    await dialog.getByRole("button", { name: "Save identity" }).click();
    await dialog.waitFor({ state: "detached" });

    // The same payout is now accepted.
    const paid = await h.t.app.inject({
      method: "POST",
      url: "/v1/payouts",
      headers: { ...bearer(key), "idempotency-key": "sepa-after-address" },
      payload: { beneficiary_id: payee.id, amount_minor: 2500, currency: "EUR" },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(h.cspViolations).toEqual([]);
    await context.close();
  });

  it("imports Beneficiaries from a CSV: per-row problems before sending, then the API's per-row results", async () => {
    h.t.clock.set(TEST_START);
    const { context, page } = await h.newPage();
    await h.signIn(page, h.biz.email, REGISTRATION_PASSWORD);
    await page.goto(`${h.base}/dashboard/beneficiaries`);
    await page.getByRole("heading", { level: 1, name: "Beneficiaries" }).waitFor();
    await page.getByRole("button", { name: "Import CSV" }).click();
    const dialog = page.getByRole("dialog", { name: "Import Beneficiaries" });
    const header = "email,first_name,last_name,bank_account_holder_name,bank_country,bank_currency,bank_iban";
    const upload = (rows: string[]) =>
      dialog.locator('input[type="file"]').setInputFiles({
        name: "payees.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(`${[header, ...rows].join("\n")}\n`),
      });
    // Problems per row, before anything is sent: the import button stays disabled.
    await upload(["lin@example.com,Lin,Wu,Lin Wu,de,eur,DE89370400440532013000", "nope,Max,,,DE,EUR,"]);
    const preview = dialog.getByTestId("import-preview-row");
    await expect.poll(() => preview.count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => preview.nth(0).textContent(), { timeout: 15_000 }).toContain("OK");
    const problems = await preview.nth(1).textContent();
    expect(problems).toContain("email is not an e-mail address");
    expect(problems).toContain("first_name and last_name (a person) or business_name (a business) is required");
    expect(problems).toContain("bank_account_holder_name is required");
    expect(await dialog.getByRole("button", { name: "Import 2 rows" }).isDisabled()).toBe(true);
    await h.capture(page, "beneficiaries-import-preview");

    // A clean file: one created, a bad IBAN refused by the API, a repeated row reported as a duplicate.
    await upload([
      "lin@example.com,Lin,Wu,Lin Wu,de,eur,DE89370400440532013000",
      "max@example.com,Max,Muster,Max Muster,DE,EUR,DE00370400440532013000",
      "lin@example.com,Lin,Wu,Lin Wu,DE,EUR,DE89370400440532013000",
    ]);
    await dialog.getByRole("button", { name: "Import 3 rows" }).click();
    await expect
      .poll(() => dialog.getByTestId("import-summary").textContent(), { timeout: 15_000 })
      .toBe("1 created, 0 already existed, 1 duplicate, 1 failed.");
    const results = dialog.getByTestId("import-result-row");
    await expect.poll(() => results.nth(0).textContent(), { timeout: 15_000 }).toContain("created");
    await expect.poll(() => results.nth(1).textContent(), { timeout: 15_000 }).toMatch(/failed.*bank\.iban/);
    await expect.poll(() => results.nth(2).textContent(), { timeout: 15_000 }).toContain("duplicate");
    await h.capture(page, "beneficiaries-import-results");
    const listed = (
      await h.t.app.inject({ method: "GET", url: "/v1/beneficiaries?email=lin@example.com", headers: bearer(h.biz.keys.sandbox) })
    ).json();
    expect(listed.beneficiaries).toHaveLength(1);
    const linId = listed.beneficiaries[0].id as string;

    // The results as a CSV file: one line per row with its key cells, the result, the id and the error.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Download results (CSV)" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("payees-results.csv");
    const csv = (await readFile(await download.path(), "utf8")).split("\r\n");
    expect(csv[0]).toBe(
      "row,email,first_name,last_name,business_name,bank_country,bank_currency,result,beneficiary_id,error_field,error_code,error_message",
    );
    expect(csv[1]).toBe(`1,lin@example.com,Lin,Wu,,DE,EUR,created,${linId},,,`);
    expect(csv[2]).toMatch(/^2,max@example\.com,Max,Muster,,DE,EUR,failed,,bank\.iban,[a-z_]+,.+$/);
    expect(csv[3]).toBe(`3,lin@example.com,Lin,Wu,,DE,EUR,duplicate,${linId},,,`);
    expect(csv.slice(4).filter((line) => line !== "")).toEqual([]);
    expect(h.cspViolations).toEqual([]);
    await context.close();
  });
});
