// A fresh, empty PostgreSQL database per benchmark run (same idea as test/helpers/test-database.ts), so a
// benchmark never sees another run's rows; dropped afterwards, also when the run is interrupted.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { registerCleanup } from "./cleanup.js";

export interface ScratchDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Null when the server answers; otherwise why not (the benchmark then skips PostgreSQL and says so). */
export async function checkPostgres(serverUrl: string): Promise<string | null> {
  try {
    await withClient(serverUrl, (client) => client.query("select 1"));
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export async function postgresVersion(serverUrl: string): Promise<string | null> {
  try {
    return await withClient(serverUrl, async (client) => {
      const result = await client.query<{ server_version: string }>("show server_version");
      return result.rows[0]?.server_version ?? null;
    });
  } catch {
    return null;
  }
}

export async function createScratchDatabase(serverUrl: string, prefix = "bench"): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await withClient(serverUrl, (client) => client.query(`create database ${name}`));
  const drop = registerCleanup(async () => {
    await withClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
  });
  return { name, url: withDatabaseName(serverUrl, name), drop };
}
