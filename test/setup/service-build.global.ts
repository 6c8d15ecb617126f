// Vitest global setup of the database tests: a folder for this run's one build of the service, which the first
// test that starts the built service fills (test/helpers/service-build.ts) and the teardown removes. Nothing is
// built here: a run without such a test (one file, say) pays nothing.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import "../helpers/service-build.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), "service-build-"));
  project.provide("serviceBuildDir", dir);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
