// The ledger's last line of defence, in the database itself (whatever code writes to it): a statement that inserts
// entries whose sum per transfer is not zero is refused (the ledger_entries_balanced trigger, checked over the rows
// each statement inserted), and transfers and entries can be neither changed nor deleted. Runs on PGlite, and on
// PostgreSQL with TEST_DATABASE_URL.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide, payableBeneficiary } from "../payouts/payout-fixtures.js";

let t: TestApp;
const db = () => t.runtime.deps.database.db;
let transferId: string;
let fundingLedgerAccount: string;
let transitLedgerAccount: string;

beforeAll(async () => {
  t = await buildTestApp();
  const business = await registerBusiness(t.app, "Ledger constraints");
  const key = business.keys.sandbox;
  const { beneficiaryId } = await payableBeneficiary(t.app, key);
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 1234 });
  expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
  // The approval's hold: one transfer, two entries (funding -1234 pending, payees in transit +1234 pending).
  const rows = (await db().execute(
    sql`select t.id as transfer_id, e.ledger_account_id, e.amount_minor
        from ledger_transfers t join ledger_entries e on e.transfer_id = t.id
        where t.cause_id = ${payout.payout_id} and t.step = 'hold' order by e.amount_minor`,
  )) as unknown as { rows: { transfer_id: string; ledger_account_id: string; amount_minor: string | number }[] };
  expect(rows.rows.map((row) => Number(row.amount_minor))).toEqual([-1234, 1234]);
  transferId = rows.rows[0]!.transfer_id;
  fundingLedgerAccount = rows.rows[0]!.ledger_account_id;
  transitLedgerAccount = rows.rows[1]!.ledger_account_id;
});
afterAll(async () => t?.close());

async function insertEntries(amounts: readonly [string, number][]): Promise<unknown> {
  const values = sql.join(
    amounts.map(
      ([account, amount]) => sql`(${randomUUID()}::uuid, ${transferId}::uuid, ${account}::uuid, ${amount}::bigint, false)`,
    ),
    sql`, `,
  );
  return db().execute(
    sql`insert into ledger_entries (id, transfer_id, ledger_account_id, amount_minor, pending) values ${values}`,
  );
}

/** The SQLSTATE of a database error, wherever the driver (pg or PGlite, possibly wrapped by Drizzle) puts it. */
function sqlState(error: unknown): string | undefined {
  const seen = error as { code?: string; cause?: { code?: string } };
  return seen.code ?? seen.cause?.code;
}

async function refusal(write: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await write();
  } catch (error) {
    return sqlState(error);
  }
  return "accepted";
}

describe("ledger constraints in the database", () => {
  it("refuses a statement whose entries do not sum to zero per transfer, and one unbalanced row at a time", async () => {
    expect(
      await refusal(() =>
        insertEntries([
          [fundingLedgerAccount, -500],
          [transitLedgerAccount, 499],
        ]),
      ),
    ).toBe("23514");
    // A transfer is never balanced later by another statement: each statement's own entries must sum to zero.
    expect(await refusal(() => insertEntries([[fundingLedgerAccount, -500]]))).toBe("23514");
    const count = (await db().execute(
      sql`select count(*)::int as n from ledger_entries where transfer_id = ${transferId}::uuid`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(count.rows[0]!.n)).toBe(2);
  });

  it("accepts a balanced statement (the check is not a blanket refusal)", async () => {
    expect(
      await refusal(() =>
        insertEntries([
          [fundingLedgerAccount, -7],
          [transitLedgerAccount, 7],
        ]),
      ),
    ).toBe("accepted");
  });

  it("refuses to change or delete a transfer or an entry", async () => {
    expect(
      await refusal(() => db().execute(sql`update ledger_entries set amount_minor = 1 where transfer_id = ${transferId}::uuid`)),
    ).toBe("42501");
    expect(await refusal(() => db().execute(sql`delete from ledger_entries where transfer_id = ${transferId}::uuid`))).toBe(
      "42501",
    );
    expect(
      await refusal(() => db().execute(sql`update ledger_transfers set currency = 'USD' where id = ${transferId}::uuid`)),
    ).toBe("42501");
  });
});
