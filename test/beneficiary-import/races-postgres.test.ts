// Concurrent imports of one file, which PGlite cannot show (it runs one transaction at a time): the tenant
// e-mail index decides, each Beneficiary exists once, and the loser's rows answer with the winner's ids.
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { waitFor } from "../fixtures/child-processes.js";
import { bearer, GERMAN_IBAN_ACCOUNT, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";

interface ImportBody {
  results: Array<{ index: number; status: string; beneficiary_id: string | null; bank_account_id: string | null }>;
  created_count: number;
  already_exists_count: number;
  failed_count: number;
}

function rowsFor(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    email: `${prefix}-${i}@race.example.com`,
    first_name: `First${i}`,
    last_name: `Last${i}`,
    acknowledged: true,
    bank: { ...GERMAN_IBAN_ACCOUNT },
  }));
}

describe.skipIf(!onPostgres)("concurrent imports on PostgreSQL", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;

  beforeAll(async () => {
    t = await buildTestApp();
    biz = await registerBusiness(t.app);
  });
  afterAll(async () => t?.close());

  async function importRows(rows: unknown[]): Promise<ImportBody> {
    const response = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries/import",
      headers: bearer(biz.keys.sandbox),
      payload: { rows },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ImportBody;
  }

  async function countFor(prefix: string): Promise<{ beneficiaries: number; destinations: number }> {
    const [row] = await queryRows<{ beneficiaries: number; destinations: number }>(
      t.runtime.deps.database.db,
      sql`select (select count(*)::int from beneficiaries where business_id = ${biz.businessId} and email_normalized like ${`${prefix}-%`}) as beneficiaries,
                 (select count(*)::int from destinations d join beneficiaries b on b.id = d.beneficiary_id
                   where b.business_id = ${biz.businessId} and b.email_normalized like ${`${prefix}-%`}) as destinations`,
    );
    return row ?? { beneficiaries: -1, destinations: -1 };
  }

  /** Both answers agree row by row on the ids, and exactly one of them created each row. */
  function expectOneWinnerPerRow(a: ImportBody, b: ImportBody, rows: number): void {
    expect(a.failed_count + b.failed_count).toBe(0);
    expect(a.created_count + b.created_count).toBe(rows);
    expect(a.already_exists_count + b.already_exists_count).toBe(rows);
    for (let i = 0; i < rows; i += 1) {
      const [x, y] = [a.results[i], b.results[i]];
      expect(x?.beneficiary_id, `row ${i}`).toBe(y?.beneficiary_id);
      expect(x?.bank_account_id, `row ${i}`).toBe(y?.bank_account_id);
      expect([x?.status, y?.status].sort(), `row ${i}`).toEqual(["already_exists", "created"]);
    }
  }

  it("two identical 100-row imports in parallel create exactly 100 Beneficiaries", async () => {
    const rows = rowsFor("parallel", 100);
    const [a, b] = await Promise.all([importRows(rows), importRows(rows)]);
    expect(await countFor("parallel")).toEqual({ beneficiaries: 100, destinations: 100 });
    expectOneWinnerPerRow(a, b, 100);
  });

  it("both past their e-mail lookup before either inserts: the index decides and nothing deadlocks", async () => {
    // A SHARE lock on the table lets both imports read (and find no e-mail) but holds their INSERTs until
    // both wait on it; releasing it sends both batches into the unique index at the same moment. The second
    // file is the first in reverse order: the inserts still take the index entries in one (e-mail) order.
    const rows = rowsFor("gate", 100);
    const gate = new pg.Client({ connectionString: t.testDatabase.url ?? "" });
    await gate.connect();
    try {
      await gate.query("begin");
      await gate.query("lock table beneficiaries in share mode");
      const both = Promise.all([importRows(rows), importRows([...rows].reverse())]);
      // A condition with a generous deadline: two 100-row imports (validation, encryption, lookups) reach their
      // inserts in well under a second alone, but can take many seconds on a loaded machine.
      await waitFor(
        "both imports to wait on the lock at their inserts",
        async () => {
          const waiting = await gate.query<{ count: number }>(
            "select count(*)::int as count from pg_locks where relation = 'beneficiaries'::regclass and not granted",
          );
          return (waiting.rows[0]?.count ?? 0) >= 2 ? true : undefined;
        },
        60_000,
      );
      await gate.query("commit");
      const [a, reversed] = await both;
      const b = { ...reversed, results: [...reversed.results].reverse() };
      expect(await countFor("gate")).toEqual({ beneficiaries: 100, destinations: 100 });
      expectOneWinnerPerRow(a, b, 100);
    } finally {
      await gate.end();
    }
  });
});
