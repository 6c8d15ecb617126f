// POST /v1/beneficiaries/import: every row answers for itself, good rows land with their bank account and
// acknowledgment, bad rows leave nothing behind, and a re-sent file creates nothing new.
import { sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import {
  bearer,
  createApiKey,
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";

type Row = Record<string, unknown>;

interface RowError {
  code: string;
  message: string;
  field: string;
  details: Array<{ field: string; code: string; message: string }>;
}

interface ImportResult {
  index: number;
  status: "created" | "already_exists" | "duplicate" | "failed";
  beneficiary_id: string | null;
  bank_account_id: string | null;
  payout_usable: boolean;
  duplicate_of?: number;
  error?: RowError;
}

interface ImportBody {
  results: ImportResult[];
  created_count: number;
  already_exists_count: number;
  duplicate_count: number;
  failed_count: number;
}

/** Valid bank accounts of several schemes; `usable` says whether the account is payout-usable at once. */
const BANKS: ReadonlyArray<{ bank: Row; usable: boolean }> = [
  { bank: { ...GERMAN_IBAN_ACCOUNT }, usable: true },
  {
    bank: {
      account_holder_name: "A Holder",
      country: "US",
      currency: "USD",
      routing_code: "021000021",
      account_number: "123456789",
    },
    usable: true,
  },
  {
    bank: {
      account_holder_name: "A Holder",
      country: "GB",
      currency: "GBP",
      routing_code: "12-34-56",
      account_number: "98765432",
    },
    usable: true,
  },
  { bank: { account_holder_name: "A Holder", country: "MX", currency: "MXN", clabe: "002010077777777771" }, usable: true },
  { bank: { account_holder_name: "A Holder", country: "BR", currency: "BRL", pix_key: "529.982.247-25" }, usable: true },
  // A generic SWIFT corridor is checked by shape only: registered but not payout-usable until the rail verifies it.
  {
    bank: { account_holder_name: "A Holder", country: "JP", currency: "JPY", account_number: "1234567", swift_bic: "MHCBJPJT" },
    usable: false,
  },
];

function bankFor(i: number) {
  const entry = BANKS[i % BANKS.length];
  if (entry === undefined) throw new Error("no bank");
  return entry;
}

describe("POST /v1/beneficiaries/import", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;

  const emailOf = (prefix: string, i: number) => `${prefix}-${i}@import.example.com`;

  /** A valid row: persons acknowledged on even rows, businesses every seventh row. */
  function goodRow(prefix: string, i: number): Row {
    const identity: Row =
      i % 7 === 0
        ? { business_name: `Company ${i} GmbH`, country_of_incorporation: "DE", registration_number: `HRB ${i}` }
        : { first_name: `First${i}`, last_name: `Last${i}`, country_of_residence: "DE", date_of_birth: "1990-05-17" };
    const extras: Row =
      i % 5 === 1
        ? {
            nickname: `Nick ${i}`,
            phone: "+4915123456789",
            tax_id: `DE ${100000000 + i}`,
            postal_address: { line1: `Hauptstr. ${i}`, city: "Berlin", postal_code: "10115", country: "DE" },
          }
        : {};
    return { email: emailOf(prefix, i), acknowledged: i % 2 === 0, bank: { ...bankFor(i).bank }, ...identity, ...extras };
  }

  async function send(rows: unknown, key = biz.keys.sandbox): Promise<LightMyRequestResponse> {
    return t.app.inject({ method: "POST", url: "/v1/beneficiaries/import", headers: bearer(key), payload: { rows } as Row });
  }

  async function importRows(rows: unknown, key = biz.keys.sandbox): Promise<ImportBody> {
    const response = await send(rows, key);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ImportBody;
  }

  async function listAllIds(key = biz.keys.sandbox): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await t.app.inject({
        method: "GET",
        url: `/v1/beneficiaries?limit=200${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
        headers: bearer(key),
      });
      const page = response.json() as { beneficiaries: Array<{ id: string }>; next_cursor: string | null };
      ids.push(...page.beneficiaries.map((b) => b.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    return ids;
  }

  function expectCountsAddUp(body: ImportBody, rows: number): void {
    expect(body.results.map((r) => r.index)).toEqual([...Array(rows).keys()]);
    expect(body.created_count + body.already_exists_count + body.duplicate_count + body.failed_count).toBe(rows);
    for (const status of ["created", "already_exists", "duplicate", "failed"] as const) {
      const counted = {
        created: body.created_count,
        already_exists: body.already_exists_count,
        duplicate: body.duplicate_count,
        failed: body.failed_count,
      }[status];
      expect(body.results.filter((r) => r.status === status)).toHaveLength(counted);
    }
  }

  beforeAll(async () => {
    t = await buildTestApp();
    biz = await registerBusiness(t.app);
  });
  afterAll(async () => t.close());

  describe("a 500-row file with bad rows of every kind", () => {
    const prefix = "big";
    let rows: Row[];
    let first: ImportBody;
    let existingStub: { id: string; email: string };
    let existingWithAccount: { id: string; email: string; accountId: string };
    /** index -> the code and field of the first problem expected in that row */
    const failures = new Map<number, { code: string; field: string }>();

    beforeAll(async () => {
      existingStub = await createBeneficiary(t.app, biz.keys.sandbox, { email: "Existing.Stub@Import.Example.com" });
      const holder = await createBeneficiary(t.app, biz.keys.sandbox, { email: "existing.holder@import.example.com" });
      const account = await registerBankAccount(t.app, biz.keys.sandbox, holder.id, GERMAN_IBAN_ACCOUNT);
      existingWithAccount = { id: holder.id, email: holder.email, accountId: account.id };

      rows = Array.from({ length: 500 }, (_, i) => goodRow(prefix, i));
      const bad = (i: number, row: Row, code: string, field: string) => {
        rows[i] = row;
        failures.set(i, { code, field });
      };
      const base = (i: number) => goodRow(prefix, i);
      const withBank = (i: number, bank: Row) => ({ ...base(i), bank });
      const { email: _missing, ...withoutEmail } = base(3);
      bad(3, withoutEmail, "required", "email");
      bad(10, { ...base(10), email: "not-an-email" }, "invalid_format", "email");
      bad(20, { ...base(20), nick: "typo" }, "unknown_field", "nick");
      bad(30, withBank(30, { ...GERMAN_IBAN_ACCOUNT, iban: "DE89370400440532013001" }), "invalid_iban_checksum", "bank.iban");
      bad(40, withBank(40, { ...GERMAN_IBAN_ACCOUNT, country: "FR" }), "iban_country_mismatch", "bank.iban");
      const { bank: _noBank, ...withoutBank } = base(50);
      bad(50, withoutBank, "required", "bank");
      bad(
        60,
        withBank(60, { account_holder_name: "A", country: "MX", currency: "MXN", clabe: "002010077777777772" }),
        "invalid_clabe_checksum",
        "bank.clabe",
      );
      bad(
        61,
        withBank(61, { account_holder_name: "A", country: "MX", currency: "USD", clabe: "002010077777777771" }),
        "currency_not_supported_for_country",
        "bank.currency",
      );
      bad(
        70,
        withBank(70, { account_holder_name: "A", country: "BR", currency: "BRL", pix_key: "123.456.789-00" }),
        "invalid_pix_key",
        "bank.pix_key",
      );
      bad(80, { ...base(80), date_of_birth: "2030-01-01" }, "out_of_range", "date_of_birth");
      bad(90, { ...base(90), country_of_residence: "XX" }, "invalid_country", "country_of_residence");
      bad(91, { ...base(91), country_of_residence: "de" }, "invalid_format", "country_of_residence");
      bad(92, withBank(92, { ...GERMAN_IBAN_ACCOUNT, country: "ZZ" }), "invalid_country", "bank.country");
      // 100 repeats row 99 exactly; 101 repeats its e-mail with another bank account.
      rows[100] = { ...goodRow(prefix, 99) };
      bad(101, { ...goodRow(prefix, 99), bank: { ...bankFor(100).bank } }, "duplicate_email", "email");
      bad(110, { ...base(110), email: existingStub.email.toLowerCase() }, "BENEFICIARY_EMAIL_TAKEN", "email");
      rows[111] = { ...base(111), email: existingWithAccount.email.toUpperCase(), bank: { ...GERMAN_IBAN_ACCOUNT } };
      bad(120, { ...base(120), first_name: "x".repeat(101) }, "too_long", "first_name");
      bad(
        121,
        withBank(121, { ...GERMAN_IBAN_ACCOUNT, account_holder_name: "y".repeat(141) }),
        "too_long",
        "bank.account_holder_name",
      );
      bad(122, { ...base(122), tax_id: "t".repeat(41) }, "too_long", "tax_id");
      bad(130, { ...base(130), acknowledged: "yes" }, "invalid_type", "acknowledged");
      bad(131, { ...base(131), email: 42 }, "invalid_type", "email");
      bad(132, withBank(132, { ...GERMAN_IBAN_ACCOUNT, iban: 12345 }), "invalid_type", "bank.iban");
      bad(133, { ...base(133), bank: "DE89370400440532013000" }, "invalid_type", "bank");
      bad(134, { email: emailOf(prefix, 134), bank: { ...GERMAN_IBAN_ACCOUNT } }, "required", "first_name");
      bad(135, { email: emailOf(prefix, 135), bank: { ...GERMAN_IBAN_ACCOUNT }, first_name: "Only" }, "required", "last_name");
      bad(
        136,
        {
          email: emailOf(prefix, 136),
          bank: { ...GERMAN_IBAN_ACCOUNT },
          first_name: "A",
          last_name: "B",
          business_name: "C Ltd",
        },
        "required",
        "beneficiary_type",
      );
      bad(137, { ...base(137), beneficiary_type: "business" }, "required", "business_name");
      bad(138, { ...base(138), beneficiary_type: "robot" }, "invalid_enum", "beneficiary_type");
      const { currency: _c, ...noCurrency } = GERMAN_IBAN_ACCOUNT;
      bad(139, withBank(139, noCurrency), "required", "bank.currency");
      bad(140, { ...base(140), postal_address: { line1: "Main St 1", country: "DE" } }, "required", "postal_address.city");
      bad(141, { ...base(141), phone: "0151 234" }, "invalid_format", "phone");
      bad(142, withBank(142, { ...GERMAN_IBAN_ACCOUNT, extra: "x" }), "unknown_field", "bank.extra");
      bad(143, { ...base(143), email: "" }, "invalid_format", "email");
      bad(
        144,
        withBank(144, {
          account_holder_name: "A",
          country: "US",
          currency: "USD",
          routing_code: "021000022",
          account_number: "1",
        }),
        "invalid_aba_checksum",
        "bank.routing_code",
      );
      // Several problems in one row: all are reported, the first is the row's error.
      bad(
        150,
        { ...base(150), email: "broken@", bank: { ...GERMAN_IBAN_ACCOUNT, iban: "DE00370400440532013000" } },
        "invalid_format",
        "email",
      );
      // A row whose identity is wrong still has its bank account judged (and the other way round).
      bad(
        151,
        { ...base(151), country_of_residence: "QQ", bank: { ...GERMAN_IBAN_ACCOUNT, iban: "DE00370400440532013000" } },
        "invalid_country",
        "country_of_residence",
      );

      first = await importRows(rows);
    });

    it("answers 200 with one result per row, in order, and counts that add up", () => {
      expectCountsAddUp(first, 500);
      expect(first.failed_count).toBe(failures.size);
      expect(first.duplicate_count).toBe(1);
      expect(first.already_exists_count).toBe(1);
      expect(first.created_count).toBe(500 - failures.size - 2);
    });

    it("names each bad row's first problem with a path relative to the row, and lists them all", () => {
      for (const [index, expected] of failures) {
        const result = first.results[index];
        expect(result, `row ${index}`).toMatchObject({ index, status: "failed", bank_account_id: null, payout_usable: false });
        expect(
          { code: result?.error?.code, field: result?.error?.field },
          `row ${index}: ${JSON.stringify(result?.error)}`,
        ).toEqual(expected);
        expect(result?.error?.details[0]).toEqual({
          code: result?.error?.code,
          field: result?.error?.field,
          message: result?.error?.message,
        });
      }
      const multi = first.results[150]?.error?.details.map((d) => `${d.field}:${d.code}`);
      expect(multi).toEqual(expect.arrayContaining(["email:invalid_format", "bank.iban:invalid_iban_checksum"]));
      const both = first.results[151]?.error?.details.map((d) => `${d.field}:${d.code}`);
      expect(both).toEqual(expect.arrayContaining(["country_of_residence:invalid_country", "bank.iban:invalid_iban_checksum"]));
      // A failed row answers with no ids, except where the e-mail names a holder.
      expect(first.results[3]?.beneficiary_id).toBeNull();
      expect(first.results[110]?.beneficiary_id).toBe(existingStub.id);
      expect(first.results[101]?.beneficiary_id).toBe(first.results[99]?.beneficiary_id);
      // Failure messages never echo account numbers.
      expect(JSON.stringify(first.results[30])).not.toContain("0532013001");
    });

    it("folds a repeated row onto the first and answers an existing holder of the same account with its ids", () => {
      expect(first.results[99]?.status).toBe("created");
      expect(first.results[100]).toEqual({
        index: 100,
        status: "duplicate",
        duplicate_of: 99,
        beneficiary_id: first.results[99]?.beneficiary_id,
        bank_account_id: first.results[99]?.bank_account_id,
        payout_usable: first.results[99]?.payout_usable,
      });
      expect(first.results[111]).toEqual({
        index: 111,
        status: "already_exists",
        beneficiary_id: existingWithAccount.id,
        bank_account_id: existingWithAccount.accountId,
        payout_usable: true,
      });
    });

    it("creates the good rows with identity, acknowledgment and a masked, payout-usable bank account", async () => {
      for (const index of [0, 1, 2, 4, 5, 6, 7, 8, 9, 11]) {
        const result = first.results[index];
        expect(result?.status, `row ${index}`).toBe("created");
        expect(result?.payout_usable).toBe(bankFor(index).usable);
        const beneficiary = await t.app.inject({
          method: "GET",
          url: `/v1/beneficiaries/${result?.beneficiary_id}`,
          headers: bearer(biz.keys.sandbox),
        });
        expect(beneficiary.statusCode).toBe(200);
        const body = beneficiary.json();
        const row = rows[index] as Row;
        expect(body).toMatchObject({ email: row.email, environment: "sandbox", archived_at: null });
        if (index % 7 === 0) {
          expect(body).toMatchObject({
            beneficiary_type: "business",
            name: row.business_name,
            registration_number: row.registration_number,
          });
        } else {
          expect(body).toMatchObject({
            beneficiary_type: "person",
            name: `${row.first_name} ${row.last_name}`,
            date_of_birth: "1990-05-17",
            identity_complete: true,
          });
        }
        if (row.nickname !== undefined) {
          expect(body).toMatchObject({
            nickname: row.nickname,
            display_name: row.nickname,
            phone: row.phone,
            tax_id: `•••••${String(row.tax_id).slice(-4)}`,
            postal_address: row.postal_address,
          });
          expect(beneficiary.body).not.toContain(String(row.tax_id).replace(" ", ""));
        }
        if (row.acknowledged === true) {
          expect(body).toMatchObject({ compliance_status: "compliant", acknowledged_at: t.clock.now().toISOString() });
          expect(body.status).toBe(bankFor(index).usable ? "ready" : "action_required");
        } else {
          expect(body).toMatchObject({ compliance_status: "pending", acknowledged_at: null, status: "pending_kyc" });
        }

        const accounts = await t.app.inject({
          method: "GET",
          url: `/v1/beneficiaries/${result?.beneficiary_id}/bank-accounts`,
          headers: bearer(biz.keys.sandbox),
        });
        const listed = accounts.json().bank_accounts as Array<Record<string, unknown>>;
        expect(listed).toHaveLength(1);
        const bank = row.bank as Row;
        expect(listed[0]).toMatchObject({
          id: result?.bank_account_id,
          beneficiary_id: result?.beneficiary_id,
          account_holder_name: bank.account_holder_name,
          country: bank.country,
          currency: bank.currency,
          payout_usable: bankFor(index).usable,
        });
        for (const secret of [bank.iban, bank.account_number, bank.clabe].filter((v): v is string => typeof v === "string")) {
          expect(accounts.body).not.toContain(secret);
        }
      }
    });

    it("leaves nothing behind for bad rows: the list holds exactly the created Beneficiaries and the two made before", async () => {
      const listed = new Set(await listAllIds());
      const created = first.results.filter((r) => r.status === "created").map((r) => r.beneficiary_id);
      expect(listed.size).toBe(created.length + 2);
      for (const id of created) expect(listed.has(id as string)).toBe(true);
      const [destinations] = await queryRows<{ count: number }>(
        t.runtime.deps.database.db,
        sql`select count(*)::int as count from destinations where business_id = ${biz.businessId} and environment = 'sandbox'`,
      );
      expect(destinations?.count).toBe(created.length + 1);
    });

    it("records no bank_account.registered event for imported accounts", async () => {
      const events = await queryRows<{ bank_account_id: string }>(
        t.runtime.deps.database.db,
        sql`select data->>'bank_account_id' as bank_account_id from events
            where business_id = ${biz.businessId} and type = 'beneficiary.bank_account.registered'`,
      );
      // Only the account registered through the API before the import.
      expect(events.map((e) => e.bank_account_id)).toEqual([existingWithAccount.accountId]);
    });

    it("re-sending the same file creates nothing and answers every imported row with its existing ids", async () => {
      const before = await listAllIds();
      const again = await importRows(rows);
      expectCountsAddUp(again, 500);
      expect(again.created_count).toBe(0);
      expect(again.failed_count).toBe(first.failed_count);
      for (const result of first.results) {
        const replay = again.results[result.index];
        if (result.status === "created" || result.status === "already_exists") {
          expect(replay, `row ${result.index}`).toEqual({ ...result, status: "already_exists" });
        } else {
          expect(replay, `row ${result.index}`).toEqual(result);
        }
      }
      expect((await listAllIds()).sort()).toEqual(before.sort());
    });
  });

  it("a corrected row sent again is created; the rest answer already_exists", async () => {
    const rows = [goodRow("fix", 1), { ...goodRow("fix", 2), bank: { ...GERMAN_IBAN_ACCOUNT, iban: "DE00370400440532013000" } }];
    const firstRun = await importRows(rows);
    expect(firstRun.results.map((r) => r.status)).toEqual(["created", "failed"]);
    const fixed = await importRows([rows[0], goodRow("fix", 2)]);
    expect(fixed.results.map((r) => r.status)).toEqual(["already_exists", "created"]);
    expect(fixed.results[0]?.beneficiary_id).toBe(firstRun.results[0]?.beneficiary_id);
  });

  it("matches e-mails within the caller's Business and environment only", async () => {
    const other = await registerBusiness(t.app);
    const row = goodRow("tenancy", 1);
    const sandbox = await importRows([row]);
    const production = await importRows([row], biz.keys.production);
    const otherBusiness = await importRows([row], other.keys.sandbox);
    for (const body of [sandbox, production, otherBusiness]) expect(body.results[0]?.status).toBe("created");
    const ids = new Set([sandbox, production, otherBusiness].map((b) => b.results[0]?.beneficiary_id));
    expect(ids.size).toBe(3);
  });

  it("an archived Beneficiary's e-mail is free again", async () => {
    const row = goodRow("archived", 1);
    const created = await importRows([row]);
    const id = created.results[0]?.beneficiary_id;
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${id}/archive`, headers: bearer(biz.keys.sandbox) });
    const again = await importRows([row]);
    expect(again.results[0]?.status).toBe("created");
    expect(again.results[0]?.beneficiary_id).not.toBe(id);
  });

  it("refuses a body without 1 to 500 object rows as a whole (400 validation_failed)", async () => {
    const actor = {
      user_id: biz.userId,
      membership_id: biz.membershipId,
      role: "business_admin",
      environment: "sandbox",
    } as const;
    const cases: Array<[unknown, string, string]> = [
      [[], "rows", "too_few_items"],
      [Array.from({ length: 501 }, (_, i) => goodRow("toomany", i)), "rows", "too_many_items"],
      [[goodRow("shape", 1), "not a row", goodRow("shape", 2)], "rows[1]", "invalid_type"],
      ["rows", "rows", "invalid_type"],
    ];
    for (const [rows, field, code] of cases) {
      const error = expectErrorEnvelope(await send(rows), { status: 400, code: "validation_failed", actor });
      expect(error.details).toEqual([expect.objectContaining({ field, code })]);
    }
    const missing = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries/import",
      headers: bearer(biz.keys.sandbox),
      payload: {},
    });
    expect(missing.json().error.details).toEqual([expect.objectContaining({ field: "rows", code: "required" })]);
    // None of those created anything.
    const listed = await t.app.inject({
      method: "GET",
      url: `/v1/beneficiaries?email=${encodeURIComponent(emailOf("toomany", 1))}`,
      headers: bearer(biz.keys.sandbox),
    });
    expect(listed.json().beneficiaries).toEqual([]);
  });

  it("a read-only key cannot import (403)", async () => {
    const readOnly = await createApiKey(t.app, biz.keys.sandbox, "business_read_only");
    const response = await send([goodRow("readonly", 1)], readOnly.key);
    expectErrorEnvelope(response, {
      status: 403,
      code: "forbidden",
      actor: { user_id: biz.userId, membership_id: biz.membershipId, role: "business_read_only", environment: "sandbox" },
    });
  });

  describe("when the database refuses a row", () => {
    const db = () => t.runtime.deps.database.db;

    /** Makes inserting a Beneficiary with an e-mail containing `poison` fail inside the database. */
    async function withPoisonedEmails<T>(run: () => Promise<T>): Promise<T> {
      await db().execute(
        sql.raw(`create function import_poison() returns trigger language plpgsql as $$
          begin if new.email_normalized like '%poison%' then raise exception 'poisoned row'; end if; return new; end $$`),
      );
      await db().execute(
        sql.raw("create trigger import_poison before insert on beneficiaries for each row execute function import_poison()"),
      );
      try {
        return await run();
      } finally {
        await db().execute(sql.raw("drop trigger import_poison on beneficiaries"));
        await db().execute(sql.raw("drop function import_poison()"));
      }
    }

    it("fails that row alone with internal_error; the others are created", async () => {
      const rows = [
        goodRow("fallback", 1),
        { ...goodRow("fallback", 2), email: "poison-2@import.example.com" },
        goodRow("fallback", 3),
      ];
      const body = await withPoisonedEmails(() => importRows(rows));
      expect(body.results.map((r) => r.status)).toEqual(["created", "failed", "created"]);
      expect(body.results[1]?.error).toMatchObject({ code: "internal_error", field: "" });
      expect(body.results[1]?.error?.message).not.toContain("poisoned");
      expect({ created: body.created_count, failed: body.failed_count }).toEqual({ created: 2, failed: 1 });
      for (const index of [0, 2]) {
        const accounts = await t.app.inject({
          method: "GET",
          url: `/v1/beneficiaries/${body.results[index]?.beneficiary_id}/bank-accounts`,
          headers: bearer(biz.keys.sandbox),
        });
        expect(accounts.json().bank_accounts).toHaveLength(1);
      }
      expect(t.logLines.join("\n")).toContain("beneficiary import: row insert failed");
    });

    it("answers 500 and stores nothing when every row is refused", async () => {
      const rows = [
        { ...goodRow("allpoison", 1), email: "poison-a@import.example.com" },
        { ...goodRow("allpoison", 2), email: "poison-b@import.example.com" },
      ];
      const response = await withPoisonedEmails(() => send(rows));
      expect(response.statusCode).toBe(500);
      expect(response.json().error.code).toBe("internal_error");
      const listed = await t.app.inject({
        method: "GET",
        url: "/v1/beneficiaries?email=poison-a%40import.example.com",
        headers: bearer(biz.keys.sandbox),
      });
      expect(listed.json().beneficiaries).toEqual([]);
    });
  });

  it("documents the route in the OpenAPI document, with the row schema as a component", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/v1/openapi.json" })).json();
    const operation = doc.paths["/v1/beneficiaries/import"].post;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "429"]));
    expect(operation.description).toContain("already_exists");
    expect(doc.components.schemas.BeneficiaryImportRow.required).toEqual(["email", "bank"]);
  });
});
