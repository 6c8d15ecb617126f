// The promise every test file relies on: a test database is new. Whatever a previous database of the same
// worker held (rows, sequence values, tables, functions and triggers left behind, session settings) is gone,
// and a handle kept after close can no longer reach the next database. On PGlite the instances are reused
// after a reset (test/helpers/pglite-pool.ts), so this is what the reset must achieve; on PostgreSQL every
// database is a new scratch database.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Db, queryRows } from "../../src/platform/db/client.js";
import { openTestDatabase } from "../helpers/test-database.js";

async function count(db: Db, table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql.raw(`select count(*)::int as n from ${table}`));
  return row?.n ?? -1;
}

async function publicTables(db: Db): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  return rows.map((row) => row.name);
}

async function recordEvent(db: Db): Promise<string> {
  const businessId = randomUUID();
  await db.execute(sql`insert into businesses (id, name, created_at) values (${businessId}, 'Previous file', now())`);
  const [row] = await queryRows<{ sequence: string }>(
    db,
    sql`insert into events (id, business_id, environment, type, api_version, subject_id, data, occurred_at, created_at)
        values (${randomUUID()}, ${businessId}, 'sandbox', 'beneficiary.created', '2026-05-01', ${randomUUID()}, '{}'::jsonb, now(), now())
        returning sequence::text`,
  );
  return row?.sequence ?? "";
}

describe("a migrated test database", () => {
  it("holds no row and no session setting of a database closed before it", async () => {
    const first = await openTestDatabase({ migrated: true });
    await first.database.db.execute(
      sql`insert into businesses (id, name, created_at) values (${randomUUID()}, 'Previous file', now())`,
    );
    await first.database.db.execute(sql`set application_name = 'left behind'`);
    await first.close();
    const next = await openTestDatabase({ migrated: true });
    try {
      expect(await count(next.database.db, "businesses")).toBe(0);
      const [setting] = await queryRows<{ name: string }>(
        next.database.db,
        sql`select current_setting('application_name') as name`,
      );
      expect(setting?.name).not.toBe("left behind");
    } finally {
      await next.close();
    }
  });

  it("holds no sequence value, table, function or trigger of a database closed before it", async () => {
    const first = await openTestDatabase({ migrated: true });
    const migratedTables = await publicTables(first.database.db);
    expect(migratedTables).toContain("schema_migrations");
    const migrations = await count(first.database.db, "schema_migrations");
    expect(await recordEvent(first.database.db)).toBe("1");
    expect(await recordEvent(first.database.db)).toBe("2");
    await first.database.db.execute(sql`create table left_behind (note text)`);
    await first.database.db.execute(
      sql.raw(
        `create function left_behind_fail() returns trigger language plpgsql as $$ begin raise exception 'left behind'; end $$`,
      ),
    );
    await first.database.db.execute(
      sql.raw("create trigger left_behind_fail before insert on businesses for each row execute function left_behind_fail()"),
    );
    await first.database.db.execute(sql`set application_name = 'left behind'`);
    await first.close();

    for (let round = 0; round < 3; round += 1) {
      const next = await openTestDatabase({ migrated: true });
      try {
        const db = next.database.db;
        expect(await count(db, "businesses")).toBe(0);
        expect(await count(db, "events")).toBe(0);
        expect(await count(db, "schema_migrations")).toBe(migrations);
        expect(await publicTables(db)).toEqual(migratedTables);
        const [setting] = await queryRows<{ name: string }>(db, sql`select current_setting('application_name') as name`);
        expect(setting?.name).not.toBe("left behind");
        // The trigger is gone (the insert succeeds) and the events sequence starts again at 1.
        expect(await recordEvent(db)).toBe("1");
      } finally {
        await next.close();
      }
    }
  });

  it("is no longer reachable through a handle kept after close", async () => {
    const first = await openTestDatabase({ migrated: true });
    const kept = first.database.db;
    await first.close();
    const next = await openTestDatabase({ migrated: true });
    try {
      await expect(
        kept.execute(sql`insert into businesses (id, name, created_at) values (${randomUUID()}, 'Late write', now())`),
      ).rejects.toThrow();
      expect(await count(next.database.db, "businesses")).toBe(0);
    } finally {
      await next.close();
    }
  });

  it("is separate from another one open at the same time", async () => {
    const a = await openTestDatabase({ migrated: true });
    const b = await openTestDatabase({ migrated: true });
    try {
      await recordEvent(a.database.db);
      expect(await count(b.database.db, "events")).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("an empty test database", () => {
  it("has no table, even after migrated databases were used before it", async () => {
    const migrated = await openTestDatabase({ migrated: true });
    await recordEvent(migrated.database.db);
    await migrated.close();
    const empty = await openTestDatabase();
    try {
      expect(await publicTables(empty.database.db)).toEqual([]);
    } finally {
      await empty.close();
    }
  });
});
