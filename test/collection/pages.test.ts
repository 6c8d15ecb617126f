// The hosted pages through inject(): each scope submitted, field errors, consumption and double submit,
// events, re-acknowledgment, CSRF, security headers, rate limit, and the token kept out of the logs.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import {
  bearer,
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { queuedMails } from "../helpers/queued-mail.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { eventsOf, mintLink, PageSession, readBeneficiary } from "./helpers.js";

let t: TestApp;
let biz: RegisteredBusiness;
let key: string;
const tokens: string[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, "Initech <Payroll> & Co");
  key = biz.keys.sandbox;
});
afterAll(async () => {
  // Whatever the tests did (pages opened, forms posted, errors), no token ever reached a log line.
  const log = t.logLines.join("\n");
  for (const token of tokens) expect(log).not.toContain(token);
  await t?.close();
});

async function link(beneficiaryId: string, scope: "full_onboarding" | "payout_destination" | "tax_documents") {
  const minted = await mintLink(t.app, key, beneficiaryId, scope);
  tokens.push(minted.token);
  return minted;
}

const US_ACCOUNT = {
  "bank.account_holder_name": "John Roe",
  "bank.country": "US",
  "bank.currency": "USD",
  "bank.routing_code": "021000021",
  "bank.account_number": "4417120983",
};

describe("full_onboarding", () => {
  it("a person fills identity and a new bank account: details_submitted, declared destination, both events once", async () => {
    const beneficiary = await createBeneficiary(t.app, key, { name: "Stub" });
    const minted = await link(beneficiary.id, "full_onboarding");
    const session = new PageSession(t.app);
    const page = await session.get(`${minted.path}?country=US&currency=USD`);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html; charset=utf-8/);
    // In the Business's name, escaped.
    expect(page.body).toContain("Initech &lt;Payroll&gt; &amp; Co");
    expect(page.body).not.toContain("Initech <Payroll>");
    expect(page.body).toContain('<label for="f-first_name">First name</label>'.replace("f-first_name", "f-first-name"));

    t.clock.set(new Date(TEST_START.getTime() + 60_000));
    const done = await session.post(minted.path, {
      csrf: PageSession.csrfOf(page),
      first_name: "Ada",
      last_name: "Lovelace",
      country_of_residence: "GB",
      date_of_birth: "1990-12-10",
      "postal_address.line1": "1 Main St",
      "postal_address.city": "London",
      "postal_address.country": "GB",
      destination: "new",
      ...US_ACCOUNT,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain("Thank you");
    expect(done.body).toContain("ending in 0983");

    const read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      name: "Ada Lovelace",
      country_of_residence: "GB",
      date_of_birth: "1990-12-10",
      postal_address: { line1: "1 Main St", city: "London", country: "GB" },
      collection_status: "details_submitted",
      details_submitted_at: new Date(TEST_START.getTime() + 60_000).toISOString(),
      identity_complete: true,
      pending_requests: [],
    });
    const accounts = (
      await t.app.inject({ method: "GET", url: `/v1/beneficiaries/${beneficiary.id}/bank-accounts`, headers: bearer(key) })
    ).json() as { bank_accounts: Array<{ id: string; last4: string }> };
    expect(accounts.bank_accounts).toHaveLength(1);
    expect(read.declared_destination_id).toBe(accounts.bank_accounts[0]?.id);

    const submitted = await eventsOf(t, beneficiary.id, "beneficiary.details_submitted");
    expect(submitted.map((e) => e.data)).toEqual([{ beneficiary_id: beneficiary.id, status: "details_submitted" }]);
    const registered = await eventsOf(t, beneficiary.id, "beneficiary.bank_account.registered");
    expect(registered).toHaveLength(1);
    expect(registered[0]?.data).toMatchObject({ bank_account_id: accounts.bank_accounts[0]?.id, last4: "0983", country: "US" });

    // The declared destination changed through the link: the Beneficiary is told, once.
    expect(await queuedMails(t)).toHaveLength(1);

    // Double submit (back button / second tab): nothing is recorded twice.
    const again = await session.post(minted.path, {
      csrf: PageSession.csrfOf(page),
      first_name: "Eve",
      destination: "new",
      ...US_ACCOUNT,
    });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain("already submitted");
    expect(await eventsOf(t, beneficiary.id, "beneficiary.details_submitted")).toHaveLength(1);
    expect(await queuedMails(t)).toHaveLength(1);
    expect((await readBeneficiary(t.app, key, beneficiary.id)).first_name).toBe("Ada");
    // And the page itself now says so.
    const reopened = await session.get(minted.path);
    expect(reopened.statusCode).toBe(410);
    expect(reopened.body).toContain("already submitted");
    t.clock.set(TEST_START);
  });

  it("a fresh link to an onboarded Beneficiary re-collects identity and fires details_submitted again; an acknowledged one needs re-acknowledgment", async () => {
    const beneficiary = await createBeneficiary(t.app, key, {
      first_name: "Grace",
      last_name: "Hopper",
      country_of_residence: "US",
    });
    const account = await registerBankAccount(t.app, key, beneficiary.id, GERMAN_IBAN_ACCOUNT);
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(key) });

    const first = await link(beneficiary.id, "full_onboarding");
    const unchanged = await new PageSession(t.app).submit(first.path, { destination: account.id });
    expect(unchanged.statusCode, unchanged.body).toBe(200);
    let read = await readBeneficiary(t.app, key, beneficiary.id);
    // Pre-filled values resent as they were: no trigger field changed.
    expect(read.reacknowledgment_required).toBe(false);
    expect(read.declared_destination_id).toBe(account.id);

    const second = await link(beneficiary.id, "full_onboarding");
    expect((await readBeneficiary(t.app, key, beneficiary.id)).collection_status).toBe("details_submitted");
    const changed = await new PageSession(t.app).submit(second.path, { last_name: "Murray Hopper", destination: account.id });
    expect(changed.statusCode, changed.body).toBe(200);
    read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read).toMatchObject({ last_name: "Murray Hopper", reacknowledgment_required: true, compliance_status: "compliant" });
    expect(await eventsOf(t, beneficiary.id, "beneficiary.details_submitted")).toHaveLength(2);
    // Choosing an existing account registers nothing.
    expect(await eventsOf(t, beneficiary.id, "beneficiary.bank_account.registered")).toHaveLength(1);
  });

  it("bad input is shown next to each field (422), nothing is stored and the link stays usable", async () => {
    const beneficiary = await createBeneficiary(t.app, key, { name: "Stub" });
    const minted = await link(beneficiary.id, "full_onboarding");
    const session = new PageSession(t.app);
    const bad = await session.submit(`${minted.path}?country=DE&currency=EUR`, {
      first_name: "Ada",
      last_name: "",
      date_of_birth: "2999-01-01",
      country_of_residence: "GB",
      destination: "new",
      "bank.account_holder_name": "Ada",
      "bank.country": "DE",
      "bank.currency": "EUR",
      "bank.iban": "DE89370400440532013001",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("There is a problem");
    // Each message is tied to its field.
    expect(bad.body).toMatch(/<p class="error" id="f-last-name-error">[^<]*<span[^>]*>Error: <\/span>This field is required\./);
    expect(bad.body).toContain('id="f-last-name" name="last_name" aria-describedby="f-last-name-error" aria-invalid="true"');
    expect(bad.body).toMatch(/id="f-date-of-birth-error"/);
    expect(bad.body).toMatch(/id="f-bank-iban-error"[^>]*>.*check digits/i);
    // What was typed is kept.
    expect(bad.body).toContain('value="Ada"');
    const read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read.collection_status).toBe("invited");
    expect(read.pending_requests).toHaveLength(1);
    expect(await eventsOf(t, beneficiary.id)).toHaveLength(0);

    const fixed = await session.submit(`${minted.path}?country=DE&currency=EUR`, {
      first_name: "Ada",
      last_name: "Lovelace",
      country_of_residence: "GB",
      destination: "new",
      "bank.account_holder_name": "Ada Lovelace",
      "bank.country": "DE",
      "bank.currency": "EUR",
      "bank.iban": "DE89 3704 0044 0532 0130 00",
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
  });

  it("a business Beneficiary gets the business identity fields", async () => {
    const beneficiary = await createBeneficiary(t.app, key, {
      beneficiary_type: "business",
      name: undefined,
      business_name: "Umbrella",
    });
    const minted = await link(beneficiary.id, "full_onboarding");
    const page = await new PageSession(t.app).get(`${minted.path}?country=US&currency=USD`);
    expect(page.body).toContain('name="business_name"');
    expect(page.body).toContain('name="country_of_incorporation"');
    expect(page.body).not.toContain('name="first_name"');
    const done = await new PageSession(t.app).submit(`${minted.path}?country=US&currency=USD`, {
      business_name: "Umbrella Corp",
      country_of_incorporation: "US",
      registration_number: "123-456",
      destination: "new",
      ...US_ACCOUNT,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await readBeneficiary(t.app, key, beneficiary.id)).toMatchObject({
      business_name: "Umbrella Corp",
      registration_number: "123-456",
      collection_status: "details_submitted",
    });
  });
});

describe("payout_destination", () => {
  it("choosing an existing account lands in declared_destination_id; no identity, no collection_status change, no event", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const first = await registerBankAccount(t.app, key, beneficiary.id, GERMAN_IBAN_ACCOUNT);
    const second = await registerBankAccount(t.app, key, beneficiary.id, {
      account_holder_name: "Jane Doe",
      country: "GB",
      currency: "GBP",
      routing_code: "60-16-13",
      account_number: "31926819",
    });
    const minted = await link(beneficiary.id, "payout_destination");
    const session = new PageSession(t.app);
    const page = await session.get(minted.path);
    expect(page.body).toContain("ending in 3000");
    expect(page.body).toContain("ending in 6819");
    expect(page.body).not.toContain('name="first_name"');
    const done = await session.post(minted.path, { csrf: PageSession.csrfOf(page), destination: second.id });
    expect(done.statusCode, done.body).toBe(200);
    const read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read).toMatchObject({
      declared_destination_id: second.id,
      collection_status: "not_invited",
      details_submitted_at: null,
    });
    expect(first.id).not.toBe(second.id);
    expect(await eventsOf(t, beneficiary.id, "beneficiary.details_submitted")).toHaveLength(0);
  });

  it("nothing chosen, or a foreign destination id, is a field error", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    await registerBankAccount(t.app, key, beneficiary.id, GERMAN_IBAN_ACCOUNT);
    const minted = await link(beneficiary.id, "payout_destination");
    const none = await new PageSession(t.app).submit(minted.path, {});
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain("Choose an account or add a new bank account.");
    const foreign = await new PageSession(t.app).submit(minted.path, { destination: randomUUID() });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.body).toContain("can no longer be chosen");
    expect((await readBeneficiary(t.app, key, beneficiary.id)).declared_destination_id).toBeNull();
  });

  it("a deleted destination leaves the page and can no longer be chosen", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const account = await registerBankAccount(t.app, key, beneficiary.id, GERMAN_IBAN_ACCOUNT);
    const minted = await link(beneficiary.id, "payout_destination");
    const session = new PageSession(t.app);
    const page = await session.get(minted.path);
    expect(page.body).toContain("ending in 3000");
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/v1/beneficiaries/${beneficiary.id}/bank-accounts/${account.id}`,
      headers: bearer(key),
    });
    expect(removed.statusCode).toBe(204);
    expect((await session.get(minted.path)).body).not.toContain("ending in 3000");
    const stale = await session.post(minted.path, { csrf: PageSession.csrfOf(page), destination: account.id });
    expect(stale.statusCode).toBe(422);
    expect(stale.body).toContain("can no longer be chosen");
    expect((await readBeneficiary(t.app, key, beneficiary.id)).declared_destination_id).toBeNull();
  });

  it("adding a new account registers it (event) and declares it", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const minted = await link(beneficiary.id, "payout_destination");
    const done = await new PageSession(t.app).submit(`${minted.path}?country=US&currency=USD`, {
      destination: "new",
      ...US_ACCOUNT,
    });
    expect(done.statusCode, done.body).toBe(200);
    const registered = await eventsOf(t, beneficiary.id, "beneficiary.bank_account.registered");
    expect(registered).toHaveLength(1);
    expect((await readBeneficiary(t.app, key, beneficiary.id)).declared_destination_id).toBe(
      (registered[0]!.data as { bank_account_id: string }).bank_account_id,
    );
  });
});

describe("enrollment of an account added on a page", () => {
  async function acknowledged(apiKey: string) {
    const beneficiary = await createBeneficiary(t.app, apiKey);
    const ack = await t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`,
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(ack.statusCode, ack.body).toBe(200);
    return beneficiary;
  }

  it("a compliant Beneficiary's new account is enrolled with the rail after the submission (sandbox: verified)", async () => {
    const beneficiary = await acknowledged(key);
    const minted = await link(beneficiary.id, "payout_destination");
    const done = await new PageSession(t.app).submit(`${minted.path}?country=US&currency=USD`, {
      destination: "new",
      ...US_ACCOUNT,
    });
    expect(done.statusCode, done.body).toBe(200);
    const after = await readBeneficiary(t.app, key, beneficiary.id);
    expect(after.enrollment_status).toBe("verified");
    const accounts = await t.app.inject({
      method: "GET",
      url: `/v1/beneficiaries/${beneficiary.id}/bank-accounts`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(accounts.json().bank_accounts).toEqual([expect.objectContaining({ status: "verified", payout_usable: true })]);
  });

  it("a refusal by the production rail names the account added on the page", async () => {
    const productionKey = biz.keys.production;
    const beneficiary = await acknowledged(productionKey);
    const minted = await mintLink(t.app, productionKey, beneficiary.id, "payout_destination");
    tokens.push(minted.token);
    // The production simulator refuses accounts ending in 0911 (src/rails/README.md).
    const done = await new PageSession(t.app).submit(`${minted.path}?country=US&currency=USD`, {
      destination: "new",
      ...US_ACCOUNT,
      "bank.account_number": "4417120911",
    });
    expect(done.statusCode, done.body).toBe(200);
    const after = await readBeneficiary(t.app, productionKey, beneficiary.id);
    expect(after.enrollment_status).toBe("rejected");
    expect(after.enrollment_failure_bank_account_id).toBe(after.declared_destination_id);
    expect(await eventsOf(t, beneficiary.id, "beneficiary.enrollment_rejected")).toHaveLength(1);
  });
});

describe("tax_documents", () => {
  it("asks which form, then takes a W-9: stored encrypted, shown masked on the Beneficiary", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const minted = await link(beneficiary.id, "tax_documents");
    const session = new PageSession(t.app);
    const choice = await session.get(minted.path);
    expect(choice.statusCode).toBe(200);
    expect(choice.body).toContain('name="form" value="W-9"');
    expect(choice.body).toContain('value="W-8BEN"');

    const form = await session.get(`${minted.path}?form=W-9`);
    expect(form.body).toContain('name="tin"');
    const done = await session.post(minted.path, {
      csrf: PageSession.csrfOf(form),
      form: "W-9",
      name: "Jane Doe",
      tax_classification: "individual",
      tin_type: "ssn",
      tin: "123-45-6789",
      address_line1: "1 Main St",
      address_city: "Springfield",
      address_state: "IL",
      address_postal_code: "62701",
      address_country: "US",
      certify: "yes",
      signature: "Jane Doe",
    });
    expect(done.statusCode, done.body).toBe(200);
    const read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read.tax_document).toEqual({
      form: "W-9",
      status: "submitted",
      submitted_at: TEST_START.toISOString(),
      expires_at: null,
      name: "Jane Doe",
      tin_type: "ssn",
      tin: "•••••6789",
      country: "US",
      treaty_country: null,
      signed_by: "Jane Doe",
      signed_on: "2026-05-27",
    });
    expect(read.collection_status).toBe("not_invited");
    const stored = await queryRows<Record<string, unknown>>(
      t.runtime.deps.database.db,
      sql`select * from beneficiary_tax_documents where beneficiary_id = ${beneficiary.id}`,
    );
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain("123456789");
    expect(JSON.stringify(stored)).not.toContain("Springfield");
    const document = JSON.parse(t.runtime.deps.cipher.decrypt(String(stored[0]?.document_encrypted))) as Record<string, string>;
    expect(document).toMatchObject({ tin: "123456789", address_city: "Springfield", signature: "Jane Doe", certified: "yes" });
  });

  it("a W-8BEN with a treaty country; it expires at the end of the third year after signing", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const minted = await link(beneficiary.id, "tax_documents");
    const done = await new PageSession(t.app).submit(`${minted.path}?form=W-8BEN`, {
      form: "W-8BEN",
      name: "Hans Meier",
      country: "DE",
      date_of_birth: "1980-02-03",
      foreign_tin: "12 345 678 901",
      treaty_country: "DE",
      address_line1: "Hauptstr. 1",
      address_city: "Berlin",
      address_country: "DE",
      certify: "yes",
      signature: "Hans Meier",
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((await readBeneficiary(t.app, key, beneficiary.id)).tax_document).toMatchObject({
      form: "W-8BEN",
      status: "submitted",
      expires_at: "2030-01-01T00:00:00.000Z",
      tin_type: "foreign_tin",
      tin: "•••••8901",
      country: "DE",
      treaty_country: "DE",
    });
    t.clock.set(new Date("2030-01-01T00:00:00.000Z"));
    expect(((await readBeneficiary(t.app, key, beneficiary.id)).tax_document as { status: string }).status).toBe("expired");
    t.clock.set(TEST_START);
  });

  it("missing certification, a bad TIN and a US citizenship on a W-8 are field errors", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const minted = await link(beneficiary.id, "tax_documents");
    const w9 = await new PageSession(t.app).submit(`${minted.path}?form=W-9`, {
      form: "W-9",
      name: "Jane",
      tax_classification: "individual",
      tin_type: "ssn",
      tin: "12345",
      address_line1: "1 Main",
      address_city: "X",
      address_country: "US",
      signature: "Jane",
    });
    expect(w9.statusCode).toBe(422);
    expect(w9.body).toContain("A US taxpayer identification number has 9 digits.");
    expect(w9.body).toContain("Tick the box to certify");
    const w8 = await new PageSession(t.app).submit(`${minted.path}?form=W-8BEN-E`, {
      form: "W-8BEN-E",
      name: "Foo GmbH",
      country: "US",
      entity_type: "corporation",
      foreign_tin_not_required: "yes",
      address_line1: "1",
      address_city: "Y",
      address_country: "DE",
      certify: "yes",
      signature: "A B",
    });
    expect(w8.statusCode).toBe(422);
    expect(w8.body).toContain("US persons fill in a W-9 instead.");
    expect((await readBeneficiary(t.app, key, beneficiary.id)).tax_document).toBeNull();
  });
});

describe("page protections", () => {
  it("unknown and malformed tokens answer a 404 page; the security headers are on every page", async () => {
    for (const path of [`/collect/${"A".repeat(43)}`, "/collect/short", "/collect/%3Cscript%3E"]) {
      const response = await t.app.inject({ method: "GET", url: path });
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain("This link does not work");
      expect(response.headers).toMatchObject({
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
        "x-frame-options": "DENY",
        "x-content-type-options": "nosniff",
      });
      const csp = String(response.headers["content-security-policy"]);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).not.toContain("script-src");
    }
  });

  it("a POST without this browser's CSRF cookie and token, or a cross-site one, is refused with 403 and changes nothing", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const account = await registerBankAccount(t.app, key, beneficiary.id, GERMAN_IBAN_ACCOUNT);
    const minted = await link(beneficiary.id, "payout_destination");
    const victim = new PageSession(t.app);
    const page = await victim.get(minted.path);
    const attacker = new PageSession(t.app);
    const forged = await attacker.post(minted.path, { csrf: PageSession.csrfOf(page), destination: account.id });
    expect(forged.statusCode).toBe(403);
    const noToken = await victim.post(minted.path, { destination: account.id });
    expect(noToken.statusCode).toBe(403);
    const crossSite = await victim.post(
      minted.path,
      { csrf: PageSession.csrfOf(page), destination: account.id },
      { "sec-fetch-site": "cross-site" },
    );
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.body).toContain("Nothing was saved");
    expect((await readBeneficiary(t.app, key, beneficiary.id)).declared_destination_id).toBeNull();
    // Two tabs share the cookie: the first tab's form still posts after a second tab was opened.
    await victim.get(minted.path);
    const ok = await victim.post(minted.path, { csrf: PageSession.csrfOf(page), destination: account.id });
    expect(ok.statusCode).toBe(200);
  });

  it("a JSON body on the page is refused (forms only), and the API stays JSON-only", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const minted = await link(beneficiary.id, "payout_destination");
    const json = await t.app.inject({ method: "POST", url: minted.path, payload: { destination: "new" } });
    expect(json.statusCode).toBe(415);
    expect(json.headers["content-type"]).toMatch(/^text\/html/);
    const form = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries",
      headers: { ...bearer(key), "content-type": "application/x-www-form-urlencoded" },
      payload: "beneficiary_type=person&email=a%40b.c&name=X",
    });
    expect(form.statusCode).toBe(415);
    expect(form.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
  });

  it("token guessing is rate limited per client address with a 429 page", async () => {
    const limited = await buildTestApp({ env: { COLLECTION_RATE_LIMIT_REQUESTS: "5" } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        const response = await limited.app.inject({ method: "GET", url: `/collect/${randomUUID()}${randomUUID()}`.slice(0, 52) });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) {
          expect(response.body).toContain("Too many attempts");
          expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
          expect(response.headers["referrer-policy"]).toBe("no-referrer");
        }
      }
      expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it("the token is in no log line, even for failures on the page path", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const minted = await link(beneficiary.id, "full_onboarding");
    await t.app.inject({ method: "GET", url: minted.path });
    await t.app.inject({ method: "POST", url: minted.path, payload: "x=1", headers: { "content-type": "text/plain" } });
    await t.app.inject({ method: "PUT", url: minted.path });
    await t.app.inject({ method: "GET", url: `${minted.path}/extra` });
    await t.app.inject({
      method: "POST",
      url: minted.path,
      payload: "a".repeat(70_000),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    const log = t.logLines.join("\n");
    expect(log).toContain("/collect/:token");
    expect(log).not.toContain(minted.token);
  });
});
