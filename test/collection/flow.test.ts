// The hosted pages' flow through inject(): step 1 (the bank's country and currency, a GET form), step 2
// asking exactly what the destination rules need, what the Business gave filled in, the date of birth as
// three fields, the branding API and the pages it brands, and the SEPA address a payee is asked for.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sepaConfig, uniqueSepaOriginator } from "../bank-rails/bank-rail-fixtures.js";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { newKey, postPayout } from "../payouts/payout-fixtures.js";
import { mintLink, PageSession, readBeneficiary } from "./helpers.js";

let t: TestApp;
let biz: RegisteredBusiness;
let key: string;

beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, "Flow Payouts");
  key = biz.keys.sandbox;
});
afterAll(async () => {
  await t?.close();
});

/** The `name` attributes of the form's visible inputs and selects. */
function fieldNames(body: string): string[] {
  return [...body.matchAll(/<(?:input|select)[^>]*name="([^"]+)"[^>]*>/g)]
    .filter((match) => !match[0].includes('type="hidden"'))
    .map((match) => match[1] ?? "");
}

function inputValueOf(body: string, name: string): string | undefined {
  const tag = new RegExp(`<input[^>]*name="${name.replace(/\./g, "\\.")}"[^>]*>`).exec(body)?.[0];
  return tag === undefined ? undefined : /value="([^"]*)"/.exec(tag)?.[1];
}

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

describe("step 1: the bank's country and currency", () => {
  it("a payee with no account starts with a GET form, pre-set to the country we know and its currency", async () => {
    const payee = await createBeneficiary(t.app, key, { name: "Lena Schmidt", country_of_residence: "DE" });
    const minted = await mintLink(t.app, key, payee.id, "full_onboarding");
    const page = await new PageSession(t.app).get(minted.path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Where is your bank account?");
    expect(page.body).toMatch(/<form method="get" action="\/collect\/[^"]+"/);
    expect(page.body).toMatch(/<option value="DE" data-currency="EUR" selected>Germany<\/option>/);
    expect(page.body).toMatch(/<option value="EUR" selected>EUR – Euro<\/option>/);
    // The only script is the one the CSP allows by hash; it merely pre-selects the currency.
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(page.body).toContain("<script>");
  });

  it("an incomplete answer is asked again with the message beside the field", async () => {
    const payee = await createBeneficiary(t.app, key);
    const minted = await mintLink(t.app, key, payee.id, "payout_destination");
    const page = await new PageSession(t.app).get(`${minted.path}?country=DE&currency=`);
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('<p class="error" id="f-currency-error">');
    expect(page.body).toMatch(
      /<select id="f-currency" name="currency" aria-describedby="f-currency-hint f-currency-error" aria-invalid="true"/,
    );
    // The country given is kept, and its currency offered.
    expect(page.body).toMatch(/<option value="DE" data-currency="EUR" selected>/);
  });
});

describe("step 2: the fields the country and currency need", () => {
  it("a German payee sees IBAN (BIC optional) and the structured address, not CLABE, Pix or routing fields; the name is filled in", async () => {
    const payee = await createBeneficiary(t.app, key, { name: "Lena Schmidt", country_of_residence: "DE" });
    const minted = await mintLink(t.app, key, payee.id, "full_onboarding");
    const page = await new PageSession(t.app).get(`${minted.path}?country=DE&currency=EUR`);
    expect(page.statusCode).toBe(200);
    const names = fieldNames(page.body);
    expect(names).toEqual(
      expect.arrayContaining([
        "bank.account_holder_name",
        "bank.iban",
        "bank.swift_bic",
        "postal_address.line1",
        "postal_address.city",
        "postal_address.postal_code",
        "postal_address.country",
      ]),
    );
    for (const absent of ["bank.clabe", "bank.pix_key", "bank.routing_code", "bank.account_number", "bank.currency"]) {
      expect(names).not.toContain(absent);
    }
    // IBAN is required (no "(optional)"); the BIC is optional inside SEPA.
    expect(page.body).toMatch(/<label for="f-bank-iban">IBAN<\/label>/);
    expect(page.body).toMatch(/<label for="f-bank-swift-bic">SWIFT \/ BIC <span class="opt">\(optional\)<\/span><\/label>/);
    // What the Business gave is filled in, editable.
    expect(inputValueOf(page.body, "bank.account_holder_name")).toBe("Lena Schmidt");
    expect(inputValueOf(page.body, "first_name")).toBe("Lena");
    expect(inputValueOf(page.body, "last_name")).toBe("Schmidt");
    // The address is needed for a SEPA account (not marked optional) and asked field by field.
    expect(page.body).toMatch(/<label for="f-postal-address-city">City<\/label>/);
    expect(page.body).toContain("Change country or currency");
  });

  it("a US payee sees routing and account number; a Mexican one a CLABE; a Swiss one IBAN; a Japanese one account number and BIC", async () => {
    const payee = await createBeneficiary(t.app, key);
    const minted = await mintLink(t.app, key, payee.id, "payout_destination");
    const session = new PageSession(t.app);
    const us = await session.get(`${minted.path}?country=US&currency=USD`);
    expect(us.body).toMatch(/<label for="f-bank-routing-code">ABA routing number<\/label>/);
    expect(fieldNames(us.body)).toEqual(
      expect.arrayContaining(["bank.account_holder_name", "bank.routing_code", "bank.account_number", "bank.account_type"]),
    );
    expect(fieldNames(us.body)).not.toContain("bank.iban");
    const mx = fieldNames((await session.get(`${minted.path}?country=MX&currency=MXN`)).body);
    expect(mx.filter((name) => name.startsWith("bank."))).toEqual(["bank.account_holder_name", "bank.clabe"]);
    const ch = (await session.get(`${minted.path}?country=CH&currency=CHF`)).body;
    expect(fieldNames(ch)).toContain("bank.iban");
    expect(ch).toMatch(/<label for="f-bank-swift-bic">SWIFT \/ BIC <span class="opt">/);
    const jp = (await session.get(`${minted.path}?country=JP&currency=JPY`)).body;
    expect(fieldNames(jp).filter((name) => name.startsWith("bank."))).toEqual([
      "bank.account_holder_name",
      "bank.account_number",
      "bank.swift_bic",
      "bank.routing_code",
    ]);
    expect(jp).toMatch(/<label for="f-bank-swift-bic">SWIFT \/ BIC<\/label>/);
  });

  it("the date of birth is three fields, joined into the stored date; a partial date is an error beside it", async () => {
    const payee = await createBeneficiary(t.app, key, { name: "Lena Schmidt", country_of_residence: "DE" });
    const minted = await mintLink(t.app, key, payee.id, "full_onboarding");
    const session = new PageSession(t.app);
    const form = `${minted.path}?country=DE&currency=EUR`;
    const page = await session.get(form);
    expect(fieldNames(page.body)).toEqual(
      expect.arrayContaining(["date_of_birth.day", "date_of_birth.month", "date_of_birth.year"]),
    );
    expect(page.body).not.toContain('type="date"');
    const account = {
      first_name: "Lena",
      last_name: "Schmidt",
      destination: "new",
      "bank.account_holder_name": "Lena Schmidt",
      "bank.country": "DE",
      "bank.currency": "EUR",
      "bank.iban": "DE89 3704 0044 0532 0130 00",
      "postal_address.line1": "Hauptstraße 1",
      "postal_address.city": "Berlin",
      "postal_address.country": "DE",
    };
    const partial = await session.post(minted.path, {
      csrf: PageSession.csrfOf(page),
      "date_of_birth.day": "31",
      "date_of_birth.month": "",
      "date_of_birth.year": "1990",
      ...account,
    });
    expect(partial.statusCode).toBe(422);
    expect(partial.body).toMatch(/<p class="error" id="f-date-of-birth-error">/);
    // What was typed is kept in the three fields; the account fields follow the posted country.
    expect(inputValueOf(partial.body, "date_of_birth.day")).toBe("31");
    expect(inputValueOf(partial.body, "date_of_birth.year")).toBe("1990");
    expect(fieldNames(partial.body)).toContain("bank.iban");

    const done = await session.post(minted.path, {
      csrf: PageSession.csrfOf(page),
      "date_of_birth.day": "31",
      "date_of_birth.month": "3",
      "date_of_birth.year": "1990",
      ...account,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await readBeneficiary(t.app, key, payee.id)).toMatchObject({
      date_of_birth: "1990-03-31",
      first_name: "Lena",
      last_name: "Schmidt",
      postal_address: { line1: "Hauptstraße 1", city: "Berlin", country: "DE" },
    });
  });

  it("a payee with accounts goes straight to the form; adding another is a link to step 1", async () => {
    const payee = await createBeneficiary(t.app, key);
    await registerBankAccount(t.app, key, payee.id);
    const minted = await mintLink(t.app, key, payee.id, "payout_destination");
    const page = await new PageSession(t.app).get(minted.path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("ending in 3000");
    expect(page.body).toContain(`href="${minted.path}?step=bank"`);
    expect(fieldNames(page.body)).not.toContain("bank.iban");
  });
});

describe("branding", () => {
  it("admins set a display name, a readable colour and an uploaded logo; the pages show them and serve the logo themselves", async () => {
    const refused = await t.app.inject({
      method: "PATCH",
      url: "/v1/branding",
      headers: bearer(key),
      payload: { brand_color: "#ffd700" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details).toEqual([expect.objectContaining({ field: "brand_color", code: "low_contrast" })]);
    const svg = await t.app.inject({
      method: "PATCH",
      url: "/v1/branding",
      headers: bearer(key),
      payload: { logo: { media_type: "image/png", data: Buffer.from("<svg onload=alert(1)>").toString("base64") } },
    });
    expect(svg.statusCode).toBe(400);
    expect(svg.json().error.details[0]).toMatchObject({ field: "logo.data", code: "invalid_format" });

    const set = await t.app.inject({
      method: "PATCH",
      url: "/v1/branding",
      headers: bearer(key),
      payload: {
        display_name: "Flow <Studio>",
        brand_color: "#0A5C36",
        logo: { media_type: "image/png", data: PNG.toString("base64") },
      },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      display_name: "Flow <Studio>",
      brand_color: "#0a5c36",
      logo: { media_type: "image/png", size_bytes: PNG.length },
    });
    // Absent fields stay as they are.
    const renamed = await t.app.inject({
      method: "PATCH",
      url: "/v1/branding",
      headers: bearer(key),
      payload: { display_name: "Flow Studio" },
    });
    expect(renamed.json()).toMatchObject({
      display_name: "Flow Studio",
      brand_color: "#0a5c36",
      logo: { size_bytes: PNG.length },
    });

    const payee = await createBeneficiary(t.app, key);
    await registerBankAccount(t.app, key, payee.id);
    const minted = await mintLink(t.app, key, payee.id, "payout_destination");
    const page = await new PageSession(t.app).get(minted.path);
    expect(page.body).toContain("<span>Flow Studio</span>");
    expect(page.body).toContain(`<img src="${minted.path}/logo" alt="">`);
    expect(page.body).toContain("<style>:root{--brand:#0a5c36}</style>");
    // The brand stylesheet is allowed by its hash, nothing else is opened; images only from this origin.
    const csp = String(page.headers["content-security-policy"]);
    expect(csp.match(/'sha256-/g)).toHaveLength(2);
    expect(csp).toContain("img-src 'self'");
    const logo = await t.app.inject({ method: "GET", url: `${minted.path}/logo` });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers["content-type"]).toBe("image/png");
    expect(logo.headers["x-content-type-options"]).toBe("nosniff");
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    // No logo for an unknown token.
    expect((await t.app.inject({ method: "GET", url: `/collect/${"A".repeat(43)}/logo` })).statusCode).toBe(404);

    // Per environment: production pages are not branded by a sandbox key; another Business sees nothing.
    const unset = { display_name: null, brand_color: null, logo: null, updated_at: null };
    const production = await t.app.inject({ method: "GET", url: "/v1/branding", headers: bearer(biz.keys.production) });
    expect(production.json()).toEqual(unset);
    const other = await registerBusiness(t.app, "Other Payouts");
    const foreign = await t.app.inject({ method: "GET", url: "/v1/branding", headers: bearer(other.keys.sandbox) });
    expect(foreign.json()).toEqual(unset);
  });

  it("only admins change it; read-only keys read it", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/v1/api-keys",
      headers: bearer(key),
      payload: { role: "business_read_only" },
    });
    const readOnly = created.json().key as string;
    expect((await t.app.inject({ method: "GET", url: "/v1/branding", headers: bearer(readOnly) })).statusCode).toBe(200);
    const patch = await t.app.inject({
      method: "PATCH",
      url: "/v1/branding",
      headers: bearer(readOnly),
      payload: { display_name: "Hijacked" },
    });
    expect(patch.statusCode).toBe(403);
  });
});

describe("SEPA: the structured address", () => {
  it("a payee without an address is asked for it on the page, and afterwards a SEPA payout is accepted", async () => {
    const production = biz.keys.production;
    const rail = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(production),
      payload: sepaConfig({ originator: uniqueSepaOriginator() }),
    });
    expect(rail.statusCode, rail.body).toBe(201);
    const payee = await createBeneficiary(t.app, production, {
      first_name: "Piet",
      last_name: "Jansen",
      country_of_residence: "NL",
    });
    await registerBankAccount(t.app, production, payee.id, {
      account_holder_name: "Piet Jansen",
      country: "NL",
      currency: "EUR",
      iban: "NL91ABNA0417164300",
    });
    const ack = await t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${payee.id}/acknowledge`,
      headers: bearer(production),
    });
    expect(ack.statusCode, ack.body).toBe(200);
    const payout = { beneficiary_id: payee.id, amount_minor: 2500, currency: "EUR" };
    const before = await postPayout(t.app, production, { ...payout, idempotency_key: newKey() });
    expect(before.statusCode).toBe(422);
    expect(before.json().error.code).toBe("SEPA_ADDRESS_NOT_STRUCTURED");

    const minted = await mintLink(t.app, production, payee.id, "payout_destination");
    const session = new PageSession(t.app);
    const page = await session.get(minted.path);
    expect(page.statusCode).toBe(200);
    expect(fieldNames(page.body)).toEqual(
      expect.arrayContaining(["postal_address.line1", "postal_address.city", "postal_address.country"]),
    );
    const account = /name="destination" value="([^"]+)"/.exec(page.body)?.[1] ?? "";
    // Choosing the account without the address: the page asks for town and country beside their fields.
    const missing = await session.post(minted.path, { csrf: PageSession.csrfOf(page), destination: account });
    expect(missing.statusCode).toBe(422);
    expect(missing.body).toMatch(/id="f-postal-address-city-error"[^>]*>.*SEPA/);
    expect(missing.body).toMatch(/id="f-postal-address-country-error"/);
    expect((await readBeneficiary(t.app, production, payee.id)).postal_address).toBeNull();

    const done = await session.post(minted.path, {
      csrf: PageSession.csrfOf(page),
      destination: account,
      "postal_address.line1": "Damrak 1",
      "postal_address.postal_code": "1012 LG",
      "postal_address.city": "Amsterdam",
      "postal_address.country": "NL",
    });
    expect(done.statusCode, done.body).toBe(200);
    const read = await readBeneficiary(t.app, production, payee.id);
    expect(read).toMatchObject({
      postal_address: { line1: "Damrak 1", postal_code: "1012 LG", city: "Amsterdam", country: "NL" },
      declared_destination_id: account,
      collection_status: "not_invited",
    });
    const after = await postPayout(t.app, production, { ...payout, idempotency_key: newKey() });
    expect(after.statusCode, after.body).toBe(201);
  });
});

describe("SEPA: what the bank file cannot carry is asked on the page, beside its field", () => {
  it("a Swiss account without its BIC, then a town too long for the file, each refused with the field's message", async () => {
    const business = await registerBusiness(t.app, "Limits Payouts");
    const production = business.keys.production;
    const rail = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(production),
      payload: sepaConfig({ originator: uniqueSepaOriginator() }),
    });
    expect(rail.statusCode, rail.body).toBe(201);
    const payee = await createBeneficiary(t.app, production, {
      first_name: "Urs",
      last_name: "Meier",
      country_of_residence: "CH",
    });
    const minted = await mintLink(t.app, production, payee.id, "payout_destination");
    const session = new PageSession(t.app);
    const page = await session.get(`${minted.path}?country=CH&currency=EUR`);
    expect(page.statusCode).toBe(200);
    const answer = {
      csrf: PageSession.csrfOf(page),
      destination: "new",
      "bank.account_holder_name": "Urs Meier",
      "bank.country": "CH",
      "bank.currency": "EUR",
      "bank.iban": "CH93 0076 2011 6238 5295 7",
      "postal_address.line1": "Bahnhofstrasse 1",
      "postal_address.city": "Zürich",
      "postal_address.country": "CH",
    };
    const noBic = await session.post(minted.path, answer);
    expect(noBic.statusCode).toBe(422);
    expect(noBic.body).toMatch(/id="f-bank-swift-bic-error"[^>]*>.*outside the EEA.*BIC/);

    const longTown = await session.post(minted.path, {
      ...answer,
      "bank.swift_bic": "UBSWCHZH80A",
      "postal_address.city": "Garmisch-Partenkirchen im schönen Oberland",
    });
    expect(longTown.statusCode).toBe(422);
    expect(longTown.body).toMatch(/id="f-postal-address-city-error"[^>]*>.*At most 35 characters/);
    // Nothing was written: the submission rolled back.
    expect((await readBeneficiary(t.app, production, payee.id)).postal_address).toBeNull();

    const done = await session.post(minted.path, { ...answer, "bank.swift_bic": "UBSWCHZH80A" });
    expect(done.statusCode, done.body).toBe(200);
  });
});
