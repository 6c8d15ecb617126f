// A short account number (or tax id) is never shown whole: not in the API response, the bank-account list,
// the `beneficiary.bank_account.registered` event, the payout, the CSV export, the hosted pages or an e-mail.
// The rule (src/platform/masking.ts): at most 4 characters, never more than half: 4 digits show 2.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCsvRecords } from "../beneficiary-export/csv.js";
import { eventsOf, mintLink, PageSession, readBeneficiary } from "../collection/helpers.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { queuedMails } from "../helpers/queued-mail.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { newKey } from "../payouts/payout-fixtures.js";

type Json = Record<string, unknown>;

const SHORT_ACCOUNT = "4417"; // 4 digits: "17" may be shown
const SHORT_TAX_ID = "AB12"; // 4 characters: "12" may be shown
const PAGE_ACCOUNT = "90735"; // 5 digits, added on a hosted page: "35" may be shown
const EMAIL = "short.numbers@example.test";

let t: TestApp;
let biz: RegisteredBusiness;
let key: string;

beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, "Short Numbers Inc");
  key = biz.keys.sandbox;
});
afterAll(async () => t?.close());

async function call(method: "GET" | "POST" | "PUT", url: string, payload?: unknown) {
  return t.app.inject({ method, url, headers: bearer(key), ...(payload === undefined ? {} : { payload: payload as Json }) });
}

/** Text that must not hold the whole short identifier next to anything that says "this is the number". */
function expectNotWhole(text: string, whole: string, context: string) {
  expect(text, context).not.toMatch(new RegExp(`ending in ${whole}|"last4":"${whole}"|•${whole}`));
}

describe("a 4-digit account number and a 4-character tax id", () => {
  it("are masked to 2 characters in every place they are shown", async () => {
    const created = await call("POST", "/v1/beneficiaries", {
      beneficiary_type: "person",
      email: EMAIL,
      first_name: "Sam",
      last_name: "Short",
      country_of_residence: "US",
      tax_id: SHORT_TAX_ID,
    });
    expect(created.statusCode, created.body).toBe(201);
    const beneficiary = created.json() as Json & { id: string };
    expect(beneficiary.tax_id).toBe("•••••12");

    // API response and listing.
    const registered = await call("POST", `/v1/beneficiaries/${beneficiary.id}/bank-accounts`, {
      account_holder_name: "Sam Short",
      country: "US",
      currency: "USD",
      routing_code: "021000021",
      account_number: SHORT_ACCOUNT,
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const account = registered.json() as Json & { id: string };
    expect(account.last4).toBe("17");
    const list = await call("GET", `/v1/beneficiaries/${beneficiary.id}/bank-accounts`);
    expect((list.json().bank_accounts as Json[]).map((a) => a.last4)).toEqual(["17"]);

    // The event.
    const [event] = await eventsOf(t, beneficiary.id, "beneficiary.bank_account.registered");
    expect(event?.data).toMatchObject({ bank_account_id: account.id, last4: "17" });

    // The e-mail of a declared-destination change.
    expect((await call("POST", `/v1/beneficiaries/${beneficiary.id}/acknowledge`)).statusCode).toBe(200);
    const declared = await call("PUT", `/v1/beneficiaries/${beneficiary.id}/declared-destination`, {
      destination_id: account.id,
    });
    expect(declared.statusCode, declared.body).toBe(200);
    const mails = await queuedMails(t, EMAIL);
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) {
      expect(mail.text).toContain("ending in 17");
      expect(mail.html).toContain("ending in 17");
      for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toContain(SHORT_ACCOUNT);
    }

    // A payout keeps the masked value.
    const payout = await call("POST", "/v1/payouts", {
      beneficiary_id: beneficiary.id,
      bank_account_id: account.id,
      amount_minor: 500,
      currency: "USD",
      idempotency_key: newKey("short"),
    });
    expect(payout.statusCode, payout.body).toBe(201);
    expect(payout.json().destination_last4).toBe("17");

    // The CSV export.
    const exported = await call("GET", "/v1/beneficiaries/export");
    expect(exported.statusCode).toBe(200);
    const { records } = parseCsvRecords(exported.body);
    const row = records.find((record) => record.id === beneficiary.id);
    expect(row).toMatchObject({ tax_id: "•••••12", payout_destination_last4: "17" });
    expectNotWhole(exported.body, SHORT_ACCOUNT, "export");
    expect(Object.values(row ?? {})).not.toContain(SHORT_ACCOUNT);
    expect(Object.values(row ?? {}).some((cell) => cell.endsWith(SHORT_TAX_ID))).toBe(false);

    // The hosted pages: the tax id hint, the destinations offered, the thank-you page.
    const onboarding = await mintLink(t.app, key, beneficiary.id, "full_onboarding");
    const onboardingPage = await new PageSession(t.app).get(onboarding.path);
    expect(onboardingPage.body).toContain("We have one ending in 12.");
    expect(onboardingPage.body).toContain("Bank account ending in 17 (USD");
    expectNotWhole(onboardingPage.body, SHORT_ACCOUNT, "onboarding page");
    expect(onboardingPage.body).not.toContain(SHORT_TAX_ID);

    const link = await mintLink(t.app, key, beneficiary.id, "payout_destination");
    const session = new PageSession(t.app);
    const done = await session.submit(link.path, {
      destination: "new",
      "bank.account_holder_name": "Sam Short",
      "bank.country": "US",
      "bank.currency": "USD",
      "bank.routing_code": "021000021",
      "bank.account_number": PAGE_ACCOUNT,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain("ending in 35");
    expect(done.body).not.toContain(PAGE_ACCOUNT);
    const pageEvents = await eventsOf(t, beneficiary.id, "beneficiary.bank_account.registered");
    expect(pageEvents.map((e) => (e.data as Json).last4)).toEqual(["17", "35"]);

    // Nothing anywhere in the API shows either whole.
    const read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read.tax_id).toBe("•••••12");
    const all = JSON.stringify([read, (await call("GET", `/v1/beneficiaries/${beneficiary.id}/bank-accounts`)).json()]);
    expect(all).not.toContain(SHORT_ACCOUNT);
    expect(all).not.toContain(PAGE_ACCOUNT);
    expect(all).not.toContain(SHORT_TAX_ID);
    for (const mail of await queuedMails(t, EMAIL)) {
      for (const part of [mail.subject, mail.text, mail.html]) {
        expect(part).not.toContain(SHORT_ACCOUNT);
        expect(part).not.toContain(PAGE_ACCOUNT);
      }
    }
  });
});
