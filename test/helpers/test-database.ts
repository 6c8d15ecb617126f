// A database for one test file: an in-memory PGlite by default, or a fresh PostgreSQL database created
// on the server named by TEST_DATABASE_URL (dropped again on close), so files never see each other's rows.
// Each PGlite database is its own instance, loaded from the migrated snapshot the global setup made
// (test/helpers/pglite-snapshot.ts); without one it boots empty and the runtime migrates it.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/platform/db/client.js";

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

/** Read once per worker process and shared by the files it runs; PGlite copies it on every load. */
let migratedSnapshot: Promise<Blob | null> | undefined;

function pgliteSnapshot(): Promise<Blob | null> {
  migratedSnapshot ??= (async () => {
    const file = inject("pgliteSnapshotPath");
    return file ? new Blob([await readFile(file)]) : null;
  })();
  return migratedSnapshot;
}

export async function openTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  if (TEST_DATABASE_URL === null) {
    const snapshot = await pgliteSnapshot();
    const database = await openDatabase({
      databaseUrl: null,
      dataDir: "",
      inMemory: true,
      ...(snapshot ? { pgliteDataDir: snapshot } : {}),
    });
    return { database, url: null, close: () => database.close() };
  }
  const scratch = await createScratchPostgresDatabase(TEST_DATABASE_URL);
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: "", poolSize: options.poolSize ?? 10 });
  return {
    database,
    url: scratch.url,
    close: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}
