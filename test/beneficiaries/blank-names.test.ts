// Blank and invisible names are refused everywhere a name is accepted: the API (Beneficiary create and update,
// bank accounts, cards, registration, API key labels, approval-policy rules, Decision validators), import rows
// and the hosted pages, all with the detail code `blank` and the same wording.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLANK_NAME_MESSAGE } from "../../src/platform/names.js";
import { mintLink, PageSession, readBeneficiary } from "../collection/helpers.js";
import {
  bearer,
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";

let t: TestApp;
let biz: RegisteredBusiness;
let key: string;

beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, "Blank Check Payroll");
  key = biz.keys.sandbox;
});
afterAll(async () => {
  await t?.close();
});

/** Names that show nothing: spaces of several kinds, zero-width and format characters, fillers, marks alone. */
const INVISIBLE = {
  spaces: "       ",
  no_break_and_ideographic: "\u00A0\u3000\u2003",
  zero_width: "\u200B\u200C\u200D\uFEFF",
  word_joiner_and_bidi: "\u2060\u200E\u202E",
  hangul_fillers: "\u3164\u115F\u1160\uFFA0",
  braille_blank: "\u2800\u2800",
  combining_only: "\u0301\u0308",
  line_separators: "\u2028\u2029",
  controls: "\u0007\u001B",
} as const;

const actor = () => ({
  user_id: biz.userId,
  membership_id: biz.membershipId,
  role: "business_admin" as const,
  environment: "sandbox" as const,
});

async function send(method: "POST" | "PUT", url: string, payload: unknown) {
  return t.app.inject({ method, url, headers: bearer(key), payload: payload as Record<string, unknown> });
}

function expectBlank(response: Awaited<ReturnType<typeof send>>, fields: readonly string[]) {
  const error = expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor: actor() });
  for (const field of fields) {
    expect(error.details, response.body).toContainEqual({ field, code: "blank", message: BLANK_NAME_MESSAGE });
  }
}

describe("POST /v1/beneficiaries", () => {
  it.each(Object.entries(INVISIBLE))("refuses a person whose first and last names are %s", async (_kind, blank) => {
    const response = await send("POST", "/v1/beneficiaries", {
      beneficiary_type: "person",
      email: `blank-${randomUUID()}@example.test`,
      first_name: blank,
      last_name: blank,
      country_of_residence: "DE",
    });
    if (_kind === "controls") {
      // Control characters are refused by the service-wide text rule before any name rule runs.
      const error = expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor: actor() });
      for (const field of ["first_name", "last_name"]) {
        expect(error.details, response.body).toContainEqual(expect.objectContaining({ field, code: "invalid_character" }));
      }
      return;
    }
    expectBlank(response, ["first_name", "last_name"]);
  });

  it("refuses a blank name, nickname or business name, and stores nothing", async () => {
    const email = `blank-${randomUUID()}@example.test`;
    expectBlank(await send("POST", "/v1/beneficiaries", { beneficiary_type: "person", email, name: INVISIBLE.zero_width }), [
      "name",
    ]);
    expectBlank(
      await send("POST", "/v1/beneficiaries", {
        beneficiary_type: "business",
        email,
        business_name: INVISIBLE.hangul_fillers,
        nickname: INVISIBLE.spaces,
      }),
      ["business_name", "nickname"],
    );
    const list = await t.app.inject({ method: "GET", url: `/v1/beneficiaries?email=${email}`, headers: bearer(key) });
    expect(list.json().beneficiaries).toEqual([]);
  });

  it("accepts names in any script, with marks, and digits", async () => {
    for (const [first, last] of [
      ["李", "小龙"],
      ["José", "O\u0301scar"],
      ["Đặng", "Thị"],
      ["X", "Æ A-12"],
    ] as const) {
      const response = await send("POST", "/v1/beneficiaries", {
        beneficiary_type: "person",
        email: `names-${randomUUID()}@example.test`,
        first_name: first,
        last_name: last,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().name).toBe(`${first} ${last}`);
    }
  });
});

describe("PUT /v1/beneficiaries/{id}", () => {
  it("refuses a blank name and keeps the stored one; identity stays as it was", async () => {
    const beneficiary = await createBeneficiary(t.app, key, { first_name: "Ada", last_name: "Lovelace" });
    expectBlank(await send("PUT", `/v1/beneficiaries/${beneficiary.id}`, { name: "   " }), ["name"]);
    expectBlank(await send("PUT", `/v1/beneficiaries/${beneficiary.id}`, { first_name: INVISIBLE.word_joiner_and_bidi }), [
      "first_name",
    ]);
    expectBlank(await send("PUT", `/v1/beneficiaries/${beneficiary.id}`, { nickname: INVISIBLE.braille_blank }), ["nickname"]);
    const read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read).toMatchObject({ name: "Jane Doe", first_name: "Ada", display_name: "Jane Doe", identity_complete: false });
  });
});

describe("POST /v1/beneficiaries/import", () => {
  it("a row with an invisible name fails with the same code and wording; the other rows are imported", async () => {
    const row = (email: string, first: string) => ({
      email,
      first_name: first,
      last_name: "Doe",
      bank: { ...GERMAN_IBAN_ACCOUNT },
    });
    const response = await send("POST", "/v1/beneficiaries/import", {
      rows: [
        row(`import-ok-${randomUUID()}@example.test`, "Jane"),
        row(`import-blank-${randomUUID()}@example.test`, INVISIBLE.zero_width),
        {
          ...row(`import-holder-${randomUUID()}@example.test`, "John"),
          bank: { ...GERMAN_IBAN_ACCOUNT, account_holder_name: "\u200B" },
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json().results as Array<Record<string, unknown>>;
    expect(results[0]?.status).toBe("created");
    expect(results[1]).toMatchObject({
      status: "failed",
      error: { code: "blank", field: "first_name", message: BLANK_NAME_MESSAGE },
    });
    expect(results[2]).toMatchObject({
      status: "failed",
      error: { code: "blank", field: "bank.account_holder_name", message: BLANK_NAME_MESSAGE },
    });
  });
});

describe("destinations", () => {
  it("a bank account's holder or bank name, and a card's holder, must contain a letter or digit", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const path = `/v1/beneficiaries/${beneficiary.id}`;
    expectBlank(await send("POST", `${path}/bank-accounts`, { ...GERMAN_IBAN_ACCOUNT, account_holder_name: "\u200B\u00A0" }), [
      "account_holder_name",
    ]);
    expectBlank(await send("POST", `${path}/bank-accounts`, { ...GERMAN_IBAN_ACCOUNT, bank_name: INVISIBLE.braille_blank }), [
      "bank_name",
    ]);
    expectBlank(
      await send("POST", `${path}/cards`, {
        card_number: "4242424242424242",
        expiry_month: 12,
        expiry_year: 2030,
        cardholder_name: INVISIBLE.combining_only,
        country: "US",
        currency: "USD",
      }),
      ["cardholder_name"],
    );
    const list = await t.app.inject({ method: "GET", url: `${path}/bank-accounts`, headers: bearer(key) });
    expect(list.json().bank_accounts).toEqual([]);
  });
});

describe("other names of the API", () => {
  it("registration refuses an invisible business name", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/v1/registration",
      payload: {
        business_name: INVISIBLE.hangul_fillers,
        email: `reg-${randomUUID()}@example.test`,
        password: "a long enough password",
      },
    });
    const error = expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor: null });
    expect(error.details).toEqual([{ field: "business_name", code: "blank", message: BLANK_NAME_MESSAGE }]);
  });

  it("an API key label, an approval-policy rule name and an automated validator's name", async () => {
    expectBlank(await send("POST", "/v1/api-keys", { role: "business_read_only", label: INVISIBLE.zero_width }), ["label"]);
    expectBlank(await send("PUT", "/v1/approval-policy", { rules: [{ name: INVISIBLE.spaces, outcome: "approve" }] }), [
      "rules[0].name",
    ]);
    expectBlank(
      await send("POST", `/v1/payouts/${randomUUID()}/decisions`, {
        outcome: "approve",
        validator: { type: "automated", name: INVISIBLE.no_break_and_ideographic },
      }),
      ["validator.name"],
    );
  });
});

describe("hosted pages", () => {
  it("full_onboarding: an invisible first name is refused on the page with the same wording, nothing is saved", async () => {
    const beneficiary = await createBeneficiary(t.app, key, { name: "Stub" });
    const minted = await mintLink(t.app, key, beneficiary.id, "full_onboarding");
    const session = new PageSession(t.app);
    const response = await session.submit(`${minted.path}?country=DE&currency=EUR`, {
      first_name: INVISIBLE.zero_width,
      last_name: "Lovelace",
      country_of_residence: "GB",
      destination: "new",
      "bank.account_holder_name": "\u2060\u200B",
      "bank.country": "DE",
      "bank.currency": "EUR",
      "bank.iban": GERMAN_IBAN_ACCOUNT.iban,
    });
    expect(response.statusCode, response.body).toBe(422);
    // Once by the first name, once by the account holder (and each in the error summary).
    expect(response.body.split(BLANK_NAME_MESSAGE).length - 1).toBeGreaterThanOrEqual(2);
    expect(response.body).toMatch(/id="f-first-name"[^>]*aria-invalid="true"/);
    expect(response.body).toMatch(/id="f-bank-account-holder-name"[^>]*aria-invalid="true"/);
    const read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read).toMatchObject({ first_name: null, collection_status: "invited", declared_destination_id: null });
  });

  it("tax form: an invisible name or signature is refused", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const minted = await mintLink(t.app, key, beneficiary.id, "tax_documents");
    const session = new PageSession(t.app);
    const response = await session.submit(`${minted.path}?form=W-9`, {
      form: "W-9",
      name: INVISIBLE.hangul_fillers,
      tax_classification: "individual",
      tin_type: "ssn",
      tin: "123-45-6789",
      address_line1: "1 Main St",
      address_city: "Springfield",
      address_country: "US",
      certify: "yes",
      signature: INVISIBLE.zero_width,
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.body).toMatch(/id="f-name"[^>]*aria-invalid="true"/);
    expect(response.body).toMatch(/id="f-signature"[^>]*aria-invalid="true"/);
    expect(response.body).toContain(BLANK_NAME_MESSAGE);
    expect((await readBeneficiary(t.app, key, beneficiary.id)).tax_document).toBeNull();
  });
});
