// Registering destinations: bank accounts per corridor, cards, the same account twice, every failed check
// reported with its field, archived and unknown Beneficiaries, and the registration event.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBeneficiary, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { detailCodes, expectErrorEnvelope } from "../http/error-envelope.js";
import {
  type ApiCall,
  apiClient,
  CORRIDORS,
  type CorridorName,
  expectSpecDestinationFields,
  MASTERCARD_CARD,
  registeredEvents,
  VISA_CARD,
} from "./destination-fixtures.js";

type Json = Record<string, unknown>;

let t: TestApp;
let biz: RegisteredBusiness;
let call: ApiCall;
let actor: { user_id: string; membership_id: string; role: "business_admin"; environment: "sandbox" };

beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, "Register Tests Ltd");
  call = apiClient(t, biz.keys.sandbox).call;
  actor = { user_id: biz.userId, membership_id: biz.membershipId, role: "business_admin", environment: "sandbox" };
});
afterAll(async () => t?.close());

async function newBeneficiary(): Promise<string> {
  return (await createBeneficiary(t.app, biz.keys.sandbox)).id;
}

const bankAccounts = (beneficiaryId: string) => `/v1/beneficiaries/${beneficiaryId}/bank-accounts`;
const cards = (beneficiaryId: string) => `/v1/beneficiaries/${beneficiaryId}/cards`;

describe("registering bank accounts", () => {
  const schemeChecked: CorridorName[] = ["de_iban", "gb_sort_code", "us_aba", "mx_clabe", "br_pix_cpf", "br_pix_email"];

  it.each(schemeChecked)("%s: 201 with the masked entry, validated and payout-usable", async (name) => {
    const corridor = CORRIDORS[name];
    const beneficiaryId = await newBeneficiary();
    const response = await call("POST", bankAccounts(beneficiaryId), corridor.body);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json() as Json;
    expectSpecDestinationFields(body);
    expect(body).toMatchObject({
      beneficiary_id: beneficiaryId,
      kind: "bank_account",
      account_holder_name: corridor.body.account_holder_name,
      country: corridor.body.country,
      currency: corridor.body.currency,
      status: "unverified",
      validation_status: "validated",
      payout_usable: true,
      last4: corridor.last4,
      account_type: "account_type" in corridor.body ? corridor.body.account_type : "checking",
      scheme: corridor.scheme,
      rail_rejection_reason: null,
    });
    expect(response.body).not.toContain(corridor.full);
    expect(body).not.toHaveProperty("iban");
    expect(body).not.toHaveProperty("account_number");
    expect(body).not.toHaveProperty("clabe");
    expect(body).not.toHaveProperty("pix_key");
  });

  it("a generic SWIFT corridor (JP, BIC + account number) is registered unvalidated and not payout-usable", async () => {
    const corridor = CORRIDORS.jp_swift;
    const response = await call("POST", bankAccounts(await newBeneficiary()), corridor.body);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json() as Json;
    expectSpecDestinationFields(body);
    expect(body).toMatchObject({
      country: "JP",
      currency: "JPY",
      status: "unverified",
      validation_status: "unvalidated",
      payout_usable: false,
      last4: corridor.last4,
      scheme: "swift",
      swift_bic: "BOTKJPJT",
    });
  });

  it("the same account registered again answers 200 with the same id and records no second event", async () => {
    const beneficiaryId = await newBeneficiary();
    const first = await call("POST", bankAccounts(beneficiaryId), CORRIDORS.de_iban.body);
    expect(first.statusCode).toBe(201);
    // Another spelling of the same IBAN is the same account.
    const again = await call("POST", bankAccounts(beneficiaryId), {
      ...CORRIDORS.de_iban.body,
      iban: "de89370400440532013000",
      country: "de",
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await registeredEvents(t, beneficiaryId)).toHaveLength(1);

    const listed = await call("GET", bankAccounts(beneficiaryId));
    expect((listed.json() as { bank_accounts: Json[] }).bank_accounts.map((d) => d.id)).toEqual([first.json().id]);
  });

  it("accepts identifiers written in their customary groups (a CLABE with spaces, an IBAN with spaces)", async () => {
    const beneficiaryId = await newBeneficiary();
    const clabe = await call("POST", bankAccounts(beneficiaryId), { ...CORRIDORS.mx_clabe.body, clabe: "002 010 07777777777 1" });
    expect(clabe.statusCode, clabe.body).toBe(201);
    expect(clabe.json()).toMatchObject({ last4: "7771", scheme: "mx_clabe" });
    // The same CLABE without the spaces is the same account.
    const bare = await call("POST", bankAccounts(beneficiaryId), CORRIDORS.mx_clabe.body);
    expect(bare.statusCode).toBe(200);
    expect(bare.json().id).toBe(clabe.json().id);
  });

  it("the same account for another Beneficiary is a destination of its own", async () => {
    const a = await call("POST", bankAccounts(await newBeneficiary()), CORRIDORS.us_aba.body);
    const b = await call("POST", bankAccounts(await newBeneficiary()), CORRIDORS.us_aba.body);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().id).not.toBe(b.json().id);
  });

  describe("each failed check is a 400 validation_failed naming the field", () => {
    const cases: Array<[string, Json, string[]]> = [
      ["a bad IBAN checksum", { ...CORRIDORS.de_iban.body, iban: "DE89370400440532013001" }, ["iban:invalid_iban_checksum"]],
      ["a wrong ABA check digit", { ...CORRIDORS.us_aba.body, routing_code: "021000022" }, ["routing_code:invalid_aba_checksum"]],
      [
        "a wrong CLABE check digit",
        { ...CORRIDORS.mx_clabe.body, clabe: "002010077777777772" },
        ["clabe:invalid_clabe_checksum"],
      ],
      [
        "a CPF Pix key with wrong check digits",
        { ...CORRIDORS.br_pix_cpf.body, pix_key: "529.982.247-26" },
        ["pix_key:invalid_pix_key"],
      ],
      ["a Pix key of no known type", { ...CORRIDORS.br_pix_cpf.body, pix_key: "not a pix key" }, ["pix_key:invalid_pix_key"]],
      ["a bad UK sort code", { ...CORRIDORS.gb_sort_code.body, routing_code: "60-16" }, ["routing_code:invalid_sort_code"]],
      ["a SWIFT corridor without a BIC", { ...CORRIDORS.jp_swift.body, swift_bic: undefined }, ["swift_bic:required"]],
      [
        "several failures at once, all reported together",
        {
          account_holder_name: "John Roe",
          country: "US",
          currency: "EUR",
          routing_code: "021000022",
          account_number: "12",
          swift_bic: "NOTABIC",
        },
        [
          "account_number:invalid_account_number",
          "currency:currency_not_supported_for_country",
          "routing_code:invalid_aba_checksum",
          "swift_bic:invalid_bic",
        ],
      ],
    ];

    it.each(cases)("%s", async (_label, payload, expected) => {
      const beneficiaryId = await newBeneficiary();
      const response = await call("POST", bankAccounts(beneficiaryId), JSON.parse(JSON.stringify(payload)));
      const error = expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor });
      expect(detailCodes(error)).toEqual([...expected].sort());
      expect(await registeredEvents(t, beneficiaryId)).toHaveLength(0);
      const listed = await call("GET", bankAccounts(beneficiaryId));
      expect(listed.json()).toEqual({ bank_accounts: [] });
    });

    it("schema failures name the field too (unknown field, wrong type)", async () => {
      const response = await call("POST", bankAccounts(await newBeneficiary()), {
        ...CORRIDORS.de_iban.body,
        account_holder_name: 42,
        routing_number: "021000021",
      });
      const error = expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor });
      expect(detailCodes(error)).toEqual(["account_holder_name:invalid_type", "routing_number:unknown_field"]);
    });
  });

  it("an archived Beneficiary refuses bank details with 422 BENEFICIARY_ARCHIVED", async () => {
    const beneficiaryId = await newBeneficiary();
    expect((await call("POST", `/v1/beneficiaries/${beneficiaryId}/archive`)).statusCode).toBe(200);
    const account = await call("POST", bankAccounts(beneficiaryId), CORRIDORS.de_iban.body);
    expectErrorEnvelope(account, { status: 422, code: "BENEFICIARY_ARCHIVED", actor });
    const card = await call("POST", cards(beneficiaryId), VISA_CARD);
    expectErrorEnvelope(card, { status: 422, code: "BENEFICIARY_ARCHIVED", actor });
    expect(await registeredEvents(t, beneficiaryId)).toHaveLength(0);
  });

  it("an unknown Beneficiary is 404 not_found", async () => {
    const unknown = "0197a1f2-0000-7000-8000-00000000abcd";
    expectErrorEnvelope(await call("POST", bankAccounts(unknown), CORRIDORS.de_iban.body), {
      status: 404,
      code: "not_found",
      actor,
    });
    expectErrorEnvelope(await call("POST", cards(unknown), VISA_CARD), { status: 404, code: "not_found", actor });
  });

  it("a malformed Beneficiary id is 400 bad_request", async () => {
    const response = await call("POST", bankAccounts("not-a-uuid"), CORRIDORS.de_iban.body);
    expectErrorEnvelope(response, { status: 400, code: "bad_request", actor, details: true });
  });
});

describe("registering cards", () => {
  it.each([
    ["Visa", VISA_CARD, "visa", "4242"],
    ["Mastercard", MASTERCARD_CARD, "mastercard", "4444"],
  ] as const)("a valid %s card: 201 with last4, network and expiry", async (_label, card, network, last4) => {
    const beneficiaryId = await newBeneficiary();
    const response = await call("POST", cards(beneficiaryId), card);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json() as Json;
    expectSpecDestinationFields(body);
    expect(body).toMatchObject({
      kind: "card",
      beneficiary_id: beneficiaryId,
      account_holder_name: "Jane Doe",
      country: card.country,
      currency: card.currency,
      status: "unverified",
      validation_status: "validated",
      payout_usable: true,
      last4,
      account_type: "card",
      scheme: "card",
      card_network: network,
      card_expiry_month: card.expiry_month,
      card_expiry_year: card.expiry_year,
      rail_rejection_reason: null,
    });
    const digits = card.card_number.replace(/\D/g, "");
    expect(response.body).not.toContain(digits);
    expect(response.body).not.toContain(card.card_number);

    const events = await registeredEvents(t, beneficiaryId);
    expect(events.map((e) => e.data)).toEqual([
      { bank_account_id: body.id, beneficiary_id: beneficiaryId, last4, country: card.country, currency: card.currency },
    ]);

    const again = await call("POST", cards(beneficiaryId), { ...card, card_number: digits });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(body.id);
    expect(await registeredEvents(t, beneficiaryId)).toHaveLength(1);
  });

  it("a card number failing the Luhn check is 400 on card_number", async () => {
    const response = await call("POST", cards(await newBeneficiary()), { ...VISA_CARD, card_number: "4242424242424241" });
    const error = expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor });
    expect(detailCodes(error)).toEqual(["card_number:invalid_card_checksum"]);
    expect(response.body).not.toContain("4242424242424241");
  });

  it("an expired card is 400 naming the expiry field to correct", async () => {
    // The clock reads 2026-05-27: April 2026 has ended, and so has 2025.
    const lastMonth = await call("POST", cards(await newBeneficiary()), { ...VISA_CARD, expiry_month: 4, expiry_year: 2026 });
    expect(detailCodes(expectErrorEnvelope(lastMonth, { status: 400, code: "validation_failed", actor }))).toEqual([
      "expiry_month:card_expired",
    ]);
    const lastYear = await call("POST", cards(await newBeneficiary()), { ...VISA_CARD, expiry_month: 12, expiry_year: 2025 });
    expect(detailCodes(expectErrorEnvelope(lastYear, { status: 400, code: "validation_failed", actor }))).toEqual([
      "expiry_year:card_expired",
    ]);
    // Good through the last day of its expiry month.
    const thisMonth = await call("POST", cards(await newBeneficiary()), { ...VISA_CARD, expiry_month: 5, expiry_year: 2026 });
    expect(thisMonth.statusCode, thisMonth.body).toBe(201);
  });

  it("several card failures are reported together", async () => {
    const response = await call("POST", cards(await newBeneficiary()), {
      ...VISA_CARD,
      card_number: "4242424242424241",
      expiry_month: 1,
      expiry_year: 2024,
      country: "XX",
    });
    const error = expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor });
    expect(detailCodes(error)).toEqual([
      "card_number:invalid_card_checksum",
      "country:invalid_country",
      "expiry_year:card_expired",
    ]);
  });
});

describe("the beneficiary.bank_account.registered event", () => {
  it("is recorded once per registered account with the spec's data, subject and api_version", async () => {
    const beneficiaryId = await newBeneficiary();
    const registered: Json[] = [];
    for (const name of Object.keys(CORRIDORS) as CorridorName[]) {
      const response = await call("POST", bankAccounts(beneficiaryId), CORRIDORS[name].body);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(201);
      registered.push(response.json() as Json);
    }
    // Registering them all again changes nothing.
    for (const name of Object.keys(CORRIDORS) as CorridorName[]) {
      expect((await call("POST", bankAccounts(beneficiaryId), CORRIDORS[name].body)).statusCode).toBe(200);
    }

    const events = await registeredEvents(t, beneficiaryId);
    expect(events).toHaveLength(registered.length);
    for (const [index, event] of events.entries()) {
      const destination = registered[index] as Json;
      expect(event).toMatchObject({
        type: "beneficiary.bank_account.registered",
        apiVersion: "2026-05-27",
        subjectId: beneficiaryId,
        businessId: biz.businessId,
        environment: "sandbox",
      });
      expect(event.occurredAt.toISOString()).toBe(t.clock.now().toISOString());
      expect(event.data).toEqual({
        bank_account_id: destination.id,
        beneficiary_id: beneficiaryId,
        last4: destination.last4,
        country: destination.country,
        currency: destination.currency,
      });
    }
    // Events of one subject are ordered by sequence.
    const sequences = events.map((e) => e.sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    expect(new Set(sequences).size).toBe(sequences.length);
  });

  it("masks a Pix key by its type", async () => {
    const beneficiaryId = await newBeneficiary();
    for (const name of ["br_pix_cpf", "br_pix_email"] as const) {
      expect((await call("POST", bankAccounts(beneficiaryId), CORRIDORS[name].body)).statusCode).toBe(201);
    }
    const lastFours = (await registeredEvents(t, beneficiaryId)).map((e) => (e.data as Json).last4);
    expect(lastFours).toEqual(["***.**2.247-**", "j***@example.com.br"]);
    const phone = await call("POST", bankAccounts(beneficiaryId), {
      ...CORRIDORS.br_pix_cpf.body,
      pix_key: "+55 (11) 98765-4321",
    });
    expect(phone.json()).toMatchObject({ last4: "+55 (**) *****-4321", pix_key_type: "phone" });
    const events = await registeredEvents(t, beneficiaryId);
    expect(events.at(-1)?.data).toMatchObject({ last4: "+55 (**) *****-4321" });
    expect(JSON.stringify(events.map((e) => e.data))).not.toMatch(/52998224725|joao\.silva|5511987654321/i);
  });

  it("names the stored ids even when the path spells the Beneficiary id in capitals", async () => {
    const beneficiaryId = await newBeneficiary();
    const response = await call("POST", bankAccounts(beneficiaryId.toUpperCase()), CORRIDORS.de_iban.body);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().beneficiary_id).toBe(beneficiaryId);
    const [event] = await registeredEvents(t, beneficiaryId);
    expect(event?.subjectId).toBe(beneficiaryId);
    expect(event?.data).toMatchObject({ beneficiary_id: beneficiaryId });
  });

  it("is not recorded for a refused registration", async () => {
    const beneficiaryId = await newBeneficiary();
    await call("POST", bankAccounts(beneficiaryId), { ...CORRIDORS.de_iban.body, iban: "DE00370400440532013000" });
    await call("POST", cards(beneficiaryId), { ...VISA_CARD, card_number: "4242424242424241" });
    expect(await registeredEvents(t, beneficiaryId)).toEqual([]);
  });
});
