// Applies the committed drizzle-kit migrations (drizzle/*.sql) on either engine. Several processes may
// start at once against one PostgreSQL: a transaction-scoped advisory lock makes them take turns, and
// the second finds everything applied and does nothing.
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { type MigrationMeta, readMigrationFiles } from "drizzle-orm/migrator";
import { type Db, queryRows, transaction } from "./client.js";

/** Arbitrary constant naming this service's migration lock (pg_advisory_xact_lock takes a bigint). */
const MIGRATION_LOCK_ID = 7_204_113_355;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../../drizzle", import.meta.url));

export function readMigrations(folder: string = MIGRATIONS_FOLDER): MigrationMeta[] {
  return readMigrationFiles({ migrationsFolder: folder });
}

export interface MigrationOutcome {
  readonly applied: number;
  readonly total: number;
}

export async function runMigrations(db: Db, folder: string = MIGRATIONS_FOLDER): Promise<MigrationOutcome> {
  const migrations = readMigrations(folder);
  return transaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await tx.execute(sql`
      create table if not exists schema_migrations (
        hash text primary key,
        folder_millis bigint not null,
        applied_at timestamptz not null default now()
      )`);
    const done = new Set((await queryRows<{ hash: string }>(tx, sql`select hash from schema_migrations`)).map((row) => row.hash));
    let applied = 0;
    for (const migration of migrations) {
      if (done.has(migration.hash)) continue;
      for (const statement of migration.sql) {
        if (statement.trim() !== "") await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`insert into schema_migrations (hash, folder_millis) values (${migration.hash}, ${migration.folderMillis})`,
      );
      applied += 1;
    }
    return { applied, total: migrations.length };
  });
}

/** True when every committed migration is recorded as applied (readiness check). */
export async function migrationsApplied(db: Db, expected: readonly MigrationMeta[]): Promise<boolean> {
  const rows = await queryRows<{ hash: string }>(db, sql`select hash from schema_migrations`).catch(() => []);
  const done = new Set(rows.map((row) => row.hash));
  return expected.every((migration) => done.has(migration.hash));
}
