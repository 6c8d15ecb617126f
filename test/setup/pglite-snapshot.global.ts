// Vitest global setup of the database and browser tests: saves the PGlite snapshots once per run (see
// test/helpers/pglite-snapshot.ts) and tells the test workers where they are. On the PostgreSQL pass nothing
// is made: each file creates its own scratch database there.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { writePgliteSnapshots } from "../helpers/pglite-snapshot.js";
import { onPostgres } from "../helpers/test-database.js";

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (onPostgres) {
    project.provide("pgliteSnapshots", null);
    return undefined;
  }
  const dir = await mkdtemp(path.join(tmpdir(), "pglite-snapshots-"));
  project.provide("pgliteSnapshots", await writePgliteSnapshots(dir));
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
