// A database for one test file: an in-memory PGlite by default, or a fresh PostgreSQL database created
// on the server named by TEST_DATABASE_URL (dropped again on close), so files never see each other's rows.
// On PGlite it is a copy of a snapshot the global setup saved (test/helpers/pglite-snapshot.ts): a migrated
// one comes from the worker's pool of reset instances (test/helpers/pglite-pool.ts). Without snapshots (a
// run without the global setup) PGlite boots from initdb.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase, pgliteDatabase } from "../../src/platform/db/client.js";
import { runMigrations } from "../../src/platform/db/migrate.js";
import { createPglitePool, type PglitePool } from "./pglite-pool.js";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || null;
export const onPostgres = TEST_DATABASE_URL !== null;

export interface TestDatabase {
  readonly database: Database;
  /** Connection string of the fresh PostgreSQL database (null on PGlite); child processes connect with it. */
  readonly url: string | null;
  close(): Promise<void>;
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Creates an empty PostgreSQL database and returns its URL and a function that drops it. */
export async function createScratchPostgresDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabaseName(serverUrl, name),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface TestDatabaseOptions {
  readonly poolSize?: number;
  /** Every migration already applied (buildTestApp); otherwise the database is empty, as after initdb. */
  readonly migrated?: boolean;
}

/** Read once per worker process and shared by the files it runs; PGlite copies a snapshot on every load. */
let snapshots: Promise<{ empty: Blob; migrated: PglitePool } | null> | undefined;

function pgliteSnapshots(): Promise<{ empty: Blob; migrated: PglitePool } | null> {
  snapshots ??= (async () => {
    const files = inject("pgliteSnapshots");
    if (!files) return null;
    const [empty, migrated] = await Promise.all([readFile(files.empty), readFile(files.migrated)]);
    return { empty: new Blob([empty]), migrated: createPglitePool(new Blob([migrated])) };
  })();
  return snapshots;
}

export async function openTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  if (TEST_DATABASE_URL === null) {
    const saved = await pgliteSnapshots();
    if (saved === null) {
      const database = await openDatabase({ databaseUrl: null, dataDir: "", inMemory: true });
      if (options.migrated) await runMigrations(database.db);
      return { database, url: null, close: () => database.close() };
    }
    if (options.migrated) {
      const lease = await saved.migrated.lease();
      return { database: pgliteDatabase(lease.client, lease.release), url: null, close: lease.release };
    }
    const client = new PGlite({ loadDataDir: saved.empty });
    await client.waitReady;
    const database = pgliteDatabase(client, () => client.close());
    return { database, url: null, close: () => database.close() };
  }
  const scratch = await createScratchPostgresDatabase(TEST_DATABASE_URL);
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: "", poolSize: options.poolSize ?? 10 });
  const close = async () => {
    await database.close();
    await scratch.drop();
  };
  if (options.migrated) {
    try {
      await runMigrations(database.db);
    } catch (error) {
      await close();
      throw error;
    }
  }
  return { database, url: scratch.url, close };
}
