// The PGlite data directories test databases start from. Booting PGlite runs initdb (measured: about 2 s of
// CPU, 3.5 s in a fresh process) and the migrations add 0.2-0.3 s, while loading a saved copy of a data
// directory costs about 0.5-0.9 s. So the global setup boots PGlite once per run and saves two copies: one
// right after initdb (`empty`: what openTestDatabase() gives, for tests that run the migrator themselves) and
// one after every migration (`migrated`: what buildTestApp starts from).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import type { Db } from "../../src/platform/db/client.js";
import { runMigrations } from "../../src/platform/db/migrate.js";

export interface PgliteSnapshotFiles {
  readonly empty: string;
  readonly migrated: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Tarballs of the saved data directories (null: none were made, e.g. on the PostgreSQL pass). */
    pgliteSnapshots: PgliteSnapshotFiles | null;
  }
}

/** Boots a fresh in-memory PGlite and saves its data directory before and after the service's migrations. */
export async function writePgliteSnapshots(dir: string): Promise<PgliteSnapshotFiles> {
  const files = { empty: path.join(dir, "empty.tar"), migrated: path.join(dir, "migrated.tar") };
  const client = new PGlite();
  // Uncompressed: gunzip on every load would cost more CPU than the larger file costs to read.
  const save = async (file: string) => writeFile(file, new Uint8Array(await (await client.dumpDataDir("none")).arrayBuffer()));
  try {
    await client.waitReady;
    await save(files.empty);
    await runMigrations(drizzle({ client }) as unknown as Db);
    await save(files.migrated);
  } finally {
    await client.close();
  }
  return files;
}
