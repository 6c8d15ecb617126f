// What `transaction(db, fn)` promises on both engines: commit when `fn` resolves, nothing kept when it throws,
// a nested call is a savepoint that can fail alone, the isolation and access mode asked for are the ones in
// force, and `namedQueryRows` reads the same values inside and outside a transaction as the query builder does
// (date-times as text). On PostgreSQL the transaction holds one pool client of its own; the pool must get it
// back after every outcome, which a pool of one connection shows (a leak would hang the next transaction).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type Db, namedQueryRows, queryRows, transaction } from "../../src/platform/db/client.js";
import { openTestDatabase } from "../helpers/test-database.js";

let database: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  const opened = await openTestDatabase({ poolSize: 1 });
  database = opened.database;
  close = opened.close;
  await database.db.execute(
    sql`create table ledger (id int primary key, note text not null, at timestamptz not null default now())`,
  );
});

afterAll(async () => {
  await close();
});

async function notes(db: Db): Promise<string[]> {
  const rows = await queryRows<{ note: string }>(db, sql`select note from ledger order by id`);
  return rows.map((row) => row.note);
}

describe("transaction(db, fn)", () => {
  it("commits what fn wrote when it resolves, and returns its result", async () => {
    const result = await transaction(database.db, async (tx) => {
      await tx.execute(sql`insert into ledger (id, note) values (1, 'kept')`);
      return "done";
    });
    expect(result).toBe("done");
    expect(await notes(database.db)).toEqual(["kept"]);
  });

  it("keeps nothing of a transaction whose fn throws, and hands the error on", async () => {
    const failing = transaction(database.db, async (tx) => {
      await tx.execute(sql`insert into ledger (id, note) values (2, 'rolled back')`);
      throw new Error("refused by the use case");
    });
    await expect(failing).rejects.toThrow("refused by the use case");
    expect(await notes(database.db)).toEqual(["kept"]);
  });

  it("gives the connection back after a failed statement, so the next transaction runs", async () => {
    const duplicate = transaction(database.db, (tx) => tx.execute(sql`insert into ledger (id, note) values (1, 'duplicate')`));
    await expect(duplicate).rejects.toThrow();
    await transaction(database.db, (tx) => tx.execute(sql`insert into ledger (id, note) values (3, 'after a failure')`));
    expect(await notes(database.db)).toEqual(["kept", "after a failure"]);
  });

  it("runs a nested call as a savepoint: its failure undoes only its own writes", async () => {
    await transaction(database.db, async (tx) => {
      await tx.execute(sql`insert into ledger (id, note) values (4, 'outer')`);
      const inner = transaction(tx, async (nested) => {
        await nested.execute(sql`insert into ledger (id, note) values (5, 'inner, undone')`);
        throw new Error("inner step failed");
      });
      await expect(inner).rejects.toThrow("inner step failed");
      await transaction(tx, (nested) => nested.execute(sql`insert into ledger (id, note) values (6, 'inner, kept')`));
    });
    expect(await notes(database.db)).toEqual(["kept", "after a failure", "outer", "inner, kept"]);
  });

  it("opens the transaction with the isolation level and access mode asked for", async () => {
    const seen = await transaction(
      database.db,
      async (tx) => {
        const [row] = await queryRows<{ isolation: string; read_only: string }>(
          tx,
          sql`select current_setting('transaction_isolation') as isolation, current_setting('transaction_read_only') as read_only`,
        );
        return row;
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    expect(seen).toEqual({ isolation: "repeatable read", read_only: "on" });
    const write = transaction(database.db, (tx) => tx.execute(sql`insert into ledger (id, note) values (7, 'x')`), {
      accessMode: "read only",
    });
    // 25006: read_only_sql_transaction (Drizzle wraps the driver's error as its cause).
    await expect(write).rejects.toMatchObject({ cause: { code: "25006" } });
    expect(await notes(database.db)).not.toContain("x");
  });
});

describe("namedQueryRows", () => {
  const query = sql`select id, note, at from ledger where id = ${1}`;

  it("reads the same row inside and outside a transaction, date-times as text like the query builder", async () => {
    const outside = await namedQueryRows<{ id: number; note: string; at: unknown }>(database.db, "harness_ledger_row", query);
    const inside = await transaction(database.db, (tx) =>
      namedQueryRows<{ id: number; note: string; at: unknown }>(tx, "harness_ledger_row", query),
    );
    expect(inside).toEqual(outside);
    expect(outside).toHaveLength(1);
    expect(outside[0]?.note).toBe("kept");
    expect(typeof outside[0]?.at).toBe("string");
  });

  it("sees the transaction's own uncommitted writes", async () => {
    const seen = await transaction(database.db, async (tx) => {
      await tx.execute(sql`insert into ledger (id, note) values (8, 'not yet committed')`);
      const rows = await namedQueryRows<{ note: string }>(
        tx,
        "harness_ledger_note",
        sql`select note from ledger where id = ${8}`,
      );
      throw Object.assign(new Error("undo"), { rows });
    }).catch((error: { rows?: unknown }) => error.rows);
    expect(seen).toEqual([{ note: "not yet committed" }]);
    expect(await notes(database.db)).not.toContain("not yet committed");
  });
});
