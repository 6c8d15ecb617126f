// The migrated PGlite database every test file starts from. Booting PGlite runs initdb (measured: about 2 s of
// CPU, 3.5 s in a fresh process) and the migrations add 0.2-0.3 s, while loading a saved copy of an already
// migrated data directory costs about 0.6 s. So the global setup makes that copy once per run, and each
// in-memory test database is loaded from it: still a separate PGlite instance per database, so a file sees
// none of another file's rows, objects or session state.
import { writeFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import type { Db } from "../../src/platform/db/client.js";
import { runMigrations } from "../../src/platform/db/migrate.js";
import * as schema from "../../src/platform/db/schema.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Path of the migrated data-directory tarball (null: none was made, e.g. on the PostgreSQL pass). */
    pgliteSnapshotPath: string | null;
  }
}

/** Boots a fresh in-memory PGlite, applies every migration the way the service does, and saves its data directory. */
export async function writeMigratedPgliteSnapshot(file: string): Promise<void> {
  const client = new PGlite();
  try {
    await client.waitReady;
    await runMigrations(drizzle({ client, schema }) as unknown as Db);
    // Uncompressed: gunzip on every load would cost more CPU than the larger file costs to read.
    const tarball = await client.dumpDataDir("none");
    await writeFile(file, new Uint8Array(await tarball.arrayBuffer()));
  } finally {
    await client.close();
  }
}
