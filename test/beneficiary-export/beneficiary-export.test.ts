// GET /v1/beneficiaries/export: a CSV a Business can open or parse back, holding exactly its active
// Beneficiaries in the key's environment, with destination data masked and spreadsheet formulas defused.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beneficiaries } from "../../src/modules/beneficiaries/beneficiaries.schema.js";
import { uuidV7Generator } from "../../src/platform/ids.js";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { parseCsvRecords } from "./csv.js";

type Json = Record<string, unknown>;

const EXPORT_URL = "/v1/beneficiaries/export";

const HEADER = [
  "id",
  "beneficiary_type",
  "name",
  "nickname",
  "display_name",
  "email",
  "phone",
  "first_name",
  "last_name",
  "country_of_residence",
  "date_of_birth",
  "business_name",
  "country_of_incorporation",
  "registration_number",
  "tax_id",
  "postal_address_line1",
  "postal_address_line2",
  "postal_address_city",
  "postal_address_state",
  "postal_address_postal_code",
  "postal_address_country",
  "compliance_status",
  "acknowledged_at",
  "reacknowledgment_required",
  "collection_status",
  "details_submitted_at",
  "status",
  "identity_complete",
  "missing_identity_fields",
  "enrollment_status",
  "declared_destination_id",
  "destination_count",
  "payout_destination_source",
  "payout_destination_id",
  "payout_destination_kind",
  "payout_destination_country",
  "payout_destination_currency",
  "payout_destination_last4",
  "payout_destination_validation_status",
  "payout_destination_status",
  "payout_destination_payout_usable",
  "created_at",
  "updated_at",
  "archived_at",
];

/** Beneficiary fields that appear in the CSV under their own name. */
const DIRECT_FIELDS = [
  "id",
  "beneficiary_type",
  "name",
  "nickname",
  "display_name",
  "email",
  "phone",
  "first_name",
  "last_name",
  "country_of_residence",
  "date_of_birth",
  "business_name",
  "country_of_incorporation",
  "registration_number",
  "tax_id",
  "compliance_status",
  "acknowledged_at",
  "reacknowledgment_required",
  "collection_status",
  "details_submitted_at",
  "status",
  "identity_complete",
  "enrollment_status",
  "declared_destination_id",
  "created_at",
  "updated_at",
  "archived_at",
] as const;

/** What a JSON value becomes in a cell: null empty, booleans spelled out, formula starts prefixed with '. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "boolean" ? String(value) : String(value);
  return /^[=+\-@\t\r]/.test(text) || /^[\s\u200B]+[=+\-@]/.test(text) ? `'${text}` : text;
}

const IBAN = "DE89370400440532013000";
const US_ACCOUNT = "987654321012";
const CARD = "4111111111111111";

describe("GET /v1/beneficiaries/export", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;
  let n = 0;
  const email = () => {
    n += 1;
    return `export-${n}-${Date.now()}@example.com`;
  };

  async function call(method: "GET" | "POST" | "PUT", url: string, payload?: Json, key = biz.keys.sandbox) {
    return t.app.inject({ method, url, headers: bearer(key), ...(payload === undefined ? {} : { payload }) });
  }
  async function create(body: Json, key = biz.keys.sandbox): Promise<Json> {
    const res = await call("POST", "/v1/beneficiaries", { beneficiary_type: "person", email: email(), ...body }, key);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Json;
  }
  async function addBankAccount(beneficiaryId: unknown, body: Json): Promise<Json> {
    const res = await call("POST", `/v1/beneficiaries/${String(beneficiaryId)}/bank-accounts`, {
      account_holder_name: "Holder",
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Json;
  }
  async function exportCsv(key = biz.keys.sandbox) {
    const res = await t.app.inject({ method: "GET", url: EXPORT_URL, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return { res, ...parseCsvRecords(res.body) };
  }

  beforeAll(async () => {
    t = await buildTestApp();
    biz = await registerBusiness(t.app, "Export Co");
  });
  afterAll(async () => t.close());

  it("answers a CSV attachment named after the environment and the date, header row first", async () => {
    await create({ name: "Header Check" });
    const { res, header } = await exportCsv();
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="beneficiaries-sandbox-20260527.csv"');
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(header).toEqual(HEADER);
    expect(res.body.startsWith(`${HEADER.join(",")}\r\n`)).toBe(true);

    const production = await t.app.inject({ method: "GET", url: EXPORT_URL, headers: bearer(biz.keys.production) });
    expect(production.headers["content-disposition"]).toBe('attachment; filename="beneficiaries-production-20260527.csv"');
  });

  // The API refuses line breaks in names and address lines; rows stored with them are covered by
  // formula-injection.test.ts at the CSV writer.
  it("round-trips names with commas, quotes and non-ASCII text", async () => {
    const tricky = {
      name: 'Doe, "JJ" Junior; the Third',
      nickname: 'Zoë, 🚀 "Rocket"',
      first_name: "Ann-Marie",
      last_name: 'O"Brien',
      country_of_residence: "DE",
      postal_address: {
        line1: 'Hauptstraße 1, "Hinterhaus"',
        line2: "3rd floor, left",
        city: "Berlin",
        postal_code: "10115",
        country: "DE",
      },
      tax_id: "DE123456789",
      date_of_birth: "1990-02-03",
    };
    const created = await create(tricky);
    const { records } = await exportCsv();
    const row = records.find((r) => r.id === created.id);
    expect(row).toBeDefined();
    expect(row?.name).toBe(tricky.name);
    expect(row?.nickname).toBe(tricky.nickname);
    expect(row?.display_name).toBe(tricky.nickname);
    expect(row?.last_name).toBe('O"Brien');
    expect(row?.first_name).toBe("Ann-Marie");
    expect(row).toMatchObject({
      postal_address_line1: tricky.postal_address.line1,
      postal_address_line2: "3rd floor, left",
      postal_address_city: "Berlin",
      postal_address_state: "",
      postal_address_postal_code: "10115",
      postal_address_country: "DE",
      date_of_birth: "1990-02-03",
      tax_id: "•••••6789",
    });
  });

  it("shows every Beneficiary field exactly as the API does (masked tax id, derived status)", async () => {
    const complete = await create({
      first_name: "Grace",
      last_name: "Hopper",
      country_of_residence: "US",
      tax_id: "123-45-6789",
      phone: "+14155550100",
    });
    await call("POST", `/v1/beneficiaries/${String(complete.id)}/acknowledge`);
    await create({ beneficiary_type: "business", name: "Stub GmbH" });
    const { records } = await exportCsv();
    expect(records.length).toBeGreaterThanOrEqual(2);
    for (const row of records) {
      const api = (await call("GET", `/v1/beneficiaries/${row.id}`)).json() as Json;
      for (const field of DIRECT_FIELDS) expect(row[field], `${row.id} ${field}`).toBe(cell(api[field]));
      expect(row.missing_identity_fields).toBe((api.missing_identity_fields as string[]).join(";"));
    }
    const grace = records.find((r) => r.id === complete.id);
    expect(grace).toMatchObject({ status: "action_required", identity_complete: "true", phone: "'+14155550100" });
    expect(grace?.tax_id).toMatch(/^•+6789$/);
  });

  it("shows the declared destination, else the only payout-usable one, masked; never a full number", async () => {
    const declared = await create({ name: "Declared Dest" });
    const iban = await addBankAccount(declared.id, { country: "DE", currency: "EUR", iban: IBAN });
    const put = await call("PUT", `/v1/beneficiaries/${String(declared.id)}/declared-destination`, { destination_id: iban.id });
    expect(put.statusCode, put.body).toBe(200);

    const single = await create({ name: "Single Usable" });
    const us = await addBankAccount(single.id, {
      country: "US",
      currency: "USD",
      routing_code: "021000021",
      account_number: US_ACCOUNT,
    });

    const ambiguous = await create({ name: "Two Usable" });
    await addBankAccount(ambiguous.id, { country: "DE", currency: "EUR", iban: "DE75512108001245126199" });
    const card = await call("POST", `/v1/beneficiaries/${String(ambiguous.id)}/cards`, {
      card_number: CARD,
      expiry_month: 12,
      expiry_year: 2030,
      cardholder_name: "Two Usable",
      country: "US",
      currency: "USD",
    });
    expect(card.statusCode, card.body).toBe(201);

    const none = await create({ name: "No Destination" });

    const { res, records } = await exportCsv();
    const byId = new Map(records.map((r) => [r.id, r]));
    expect(byId.get(String(declared.id))).toMatchObject({
      declared_destination_id: iban.id,
      destination_count: "1",
      payout_destination_source: "declared",
      payout_destination_id: iban.id,
      payout_destination_kind: "bank_account",
      payout_destination_country: "DE",
      payout_destination_currency: "EUR",
      payout_destination_last4: "3000",
      payout_destination_validation_status: "validated",
      payout_destination_status: "unverified",
      payout_destination_payout_usable: "true",
    });
    expect(byId.get(String(single.id))).toMatchObject({
      declared_destination_id: "",
      destination_count: "1",
      payout_destination_source: "only_payout_usable",
      payout_destination_id: us.id,
      payout_destination_last4: "1012",
      payout_destination_country: "US",
      payout_destination_currency: "USD",
    });
    expect(byId.get(String(ambiguous.id))).toMatchObject({
      destination_count: "2",
      payout_destination_source: "",
      payout_destination_id: "",
      payout_destination_last4: "",
      payout_destination_payout_usable: "",
    });
    expect(byId.get(String(none.id))).toMatchObject({ destination_count: "0", payout_destination_source: "" });

    // Nowhere in the file: not the full numbers, not even their first eight characters.
    for (const secret of [IBAN, US_ACCOUNT, CARD, "DE75512108001245126199"]) {
      expect(res.body.includes(secret), secret).toBe(false);
      expect(res.body.includes(secret.slice(0, 8)), secret.slice(0, 8)).toBe(false);
    }
  });

  it("defuses spreadsheet formulas with a leading apostrophe, and leaves other text alone", async () => {
    const formula = await create({
      name: '=HYPERLINK("http://evil.example","click")',
      nickname: "+SUM(1,2)",
      first_name: "-2+3",
      last_name: "@cmd",
    });
    // Whitespace or a no-break space before the formula does not hide it (OWASP); every other variant,
    // including tab, CR, LF and zero-width characters the API no longer accepts, is in formula-injection.test.ts.
    const spaced = await create({ name: "Spaced Nick", nickname: " =1+1" });
    const nbsp = await create({ name: "NBSP Nick", nickname: "\u00A0@SUM(A1)" });
    const { records } = await exportCsv();
    const byId = new Map(records.map((r) => [r.id, r]));
    expect(byId.get(String(formula.id))).toMatchObject({
      name: `'=HYPERLINK("http://evil.example","click")`,
      nickname: "'+SUM(1,2)",
      display_name: "'+SUM(1,2)",
      first_name: "'-2+3",
      last_name: "'@cmd",
    });
    expect(byId.get(String(spaced.id))?.nickname).toBe("' =1+1");
    expect(byId.get(String(nbsp.id))?.nickname).toBe("'\u00A0@SUM(A1)");
    // Dashes, plus signs and at signs later in a value are not touched.
    const tricky = await create({ name: "Ann-Marie +1 @home" });
    const again = await exportCsv();
    expect(again.records.find((r) => r.id === tricky.id)?.name).toBe("Ann-Marie +1 @home");
  });

  it("leaves out archived Beneficiaries, other Businesses and the other environment", async () => {
    const other = await registerBusiness(t.app, "Other Co");
    const mine = await create({ name: "Mine Active" });
    const archived = await create({ name: "Mine Archived" });
    const archive = await call("POST", `/v1/beneficiaries/${String(archived.id)}/archive`);
    expect(archive.statusCode, archive.body).toBe(200);
    const production = await create({ name: "Mine Production" }, biz.keys.production);
    const foreign = await create({ name: "Theirs Sandbox" }, other.keys.sandbox);

    const sandbox = await exportCsv();
    const ids = sandbox.records.map((r) => r.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(archived.id);
    expect(ids).not.toContain(production.id);
    expect(ids).not.toContain(foreign.id);
    expect(sandbox.res.body).not.toContain("Mine Archived");
    expect(sandbox.res.body).not.toContain("Theirs Sandbox");
    expect(sandbox.records.every((r) => r.archived_at === "")).toBe(true);

    const prod = await exportCsv(biz.keys.production);
    expect(prod.records.map((r) => r.id)).toEqual([production.id]);
    const theirs = await exportCsv(other.keys.sandbox);
    expect(theirs.records.map((r) => r.id)).toEqual([foreign.id]);
  });

  it("an empty export is the header row alone", async () => {
    const empty = await registerBusiness(t.app, "Empty Co");
    const res = await t.app.inject({ method: "GET", url: EXPORT_URL, headers: bearer(empty.keys.sandbox) });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.body).toBe(`${HEADER.join(",")}\r\n`);
  });

  it("a read-only key may export", async () => {
    const readOnly = await createApiKey(t.app, biz.keys.sandbox, "business_read_only");
    const admin = await exportCsv();
    const viaReadOnly = await exportCsv(readOnly.key);
    expect(viaReadOnly.records.map((r) => r.id)).toEqual(admin.records.map((r) => r.id));
  });

  it("without a key answers the JSON 401 envelope", async () => {
    const res = await t.app.inject({ method: "GET", url: EXPORT_URL });
    expectErrorEnvelope(res, { status: 401, code: "unauthorized", actor: null });
    expect(res.headers["content-disposition"]).toBeUndefined();
  });

  it("is not shadowed by GET /v1/beneficiaries/:id, which still works beside it", async () => {
    const one = await create({ name: "Still Readable" });
    expect((await call("GET", `/v1/beneficiaries/${String(one.id)}`)).json()).toMatchObject({ id: one.id });
    expect((await call("GET", EXPORT_URL)).headers["content-type"]).toBe("text/csv; charset=utf-8");
    const notUuid = await call("GET", "/v1/beneficiaries/exports");
    expect(notUuid.statusCode).toBe(400);
    const trailing = await call("GET", `${EXPORT_URL}/`);
    expect(trailing.headers["content-type"]).toBe("text/csv; charset=utf-8");
  });

  it("HEAD answers the headers without a body", async () => {
    const res = await t.app.inject({ method: "HEAD", url: EXPORT_URL, headers: bearer(biz.keys.sandbox) });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="beneficiaries-sandbox-20260527.csv"');
    expect(res.body).toBe("");
    const anonymous = await t.app.inject({ method: "HEAD", url: EXPORT_URL });
    expect(anonymous.statusCode).toBe(401);
  });

  it("a failure before the first byte answers the JSON error envelope, not a broken CSV", async () => {
    const broken = await registerBusiness(t.app, "Broken Co");
    await create({ name: "Needs Destinations" }, broken.keys.sandbox);
    const db = t.runtime.deps.database.db;
    await db.execute(sql`alter table destinations rename to destinations_hidden`);
    try {
      const res = await t.app.inject({ method: "GET", url: EXPORT_URL, headers: bearer(broken.keys.sandbox) });
      const error = expectErrorEnvelope(res, {
        status: 500,
        code: "internal_error",
        actor: {
          user_id: broken.userId,
          membership_id: broken.membershipId,
          role: "business_admin",
          environment: "sandbox",
        },
      });
      expect(error.message).not.toContain("destinations");
      expect(res.headers["content-disposition"]).toBeUndefined();
    } finally {
      await db.execute(sql`alter table destinations_hidden rename to destinations`);
    }
  });

  it("pages through many batches: every row exactly once, newest first", async () => {
    const bulk = await registerBusiness(t.app, "Bulk Co");
    const db = t.runtime.deps.database.db;
    const now = t.clock.now();
    const ids: string[] = [];
    const total = 2_345; // two full batches of 1,000 and a partial one
    for (let start = 0; start < total; start += 500) {
      const values = Array.from({ length: Math.min(500, total - start) }, (_, k) => {
        const id = uuidV7Generator.newId();
        ids.push(id);
        const i = start + k;
        return {
          id,
          businessId: bulk.businessId,
          environment: "sandbox" as const,
          beneficiaryType: "person" as const,
          name: `Bulk ${i}`,
          email: `bulk-${i}@example.com`,
          emailNormalized: `bulk-${i}@example.com`,
          createdAt: now,
          updatedAt: now,
        };
      });
      await db.insert(beneficiaries).values(values);
    }
    const { records } = await exportCsv(bulk.keys.sandbox);
    expect(records).toHaveLength(total);
    expect(records.map((r) => r.id)).toEqual([...ids].sort().reverse());
    expect(new Set(records.map((r) => r.email)).size).toBe(total);
  });
});
