// The built service (`tsc -p tsconfig.build.json`, what `npm start` runs) for the tests that start it as a real
// process (test/startup/*). Compiling takes the longest part of those files (tens of seconds of CPU on a
// 2-core machine), so a run compiles it once: into the run's folder that test/setup/service-build.global.ts
// provides, never into the checkout's dist/ (other work may be using it). The first file that asks takes a lock
// (an atomic mkdir) and compiles; a file in another worker that asks meanwhile waits for its outcome. Outside
// such a run (no folder provided) each worker compiles into a temporary folder of its own.
//
// The layout the built code expects around dist/: an ESM package.json, the dependencies, and the migrations,
// which migrate.ts finds at ../../../drizzle from dist/platform/db/.
import { execFile } from "node:child_process";
import { access, mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** An empty folder for this run's one build of the service (test/helpers/service-build.ts). */
    serviceBuildDir: string | null;
  }
}

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** How long a file waits for another worker's build: generous, a loaded machine compiles slowly. */
const BUILD_DEADLINE_MS = 600_000;

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

async function compileInto(root: string): Promise<void> {
  const tsc = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");
  try {
    await promisify(execFile)(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", path.join(root, "dist")], {
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    // tsc exits non-zero on a type error but still emits; either way say why.
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`the service build (tsc -p tsconfig.build.json) failed:\n${stdout ?? ""}${stderr ?? ""}`);
  }
  await writeFile(path.join(root, "package.json"), '{ "type": "module" }\n');
  await symlink(path.join(REPO_ROOT, "node_modules"), path.join(root, "node_modules"), "dir");
  await symlink(path.join(REPO_ROOT, "drizzle"), path.join(root, "drizzle"), "dir");
}

async function buildOnce(runDir: string): Promise<string> {
  const root = path.join(runDir, "service");
  const main = path.join(root, "dist/main.js");
  const done = path.join(runDir, "service.done");
  const failed = path.join(runDir, "service.failed");
  const won = await mkdir(path.join(runDir, "service.lock")).then(
    () => true,
    () => false,
  );
  if (won) {
    try {
      await mkdir(root);
      await compileInto(root);
      await writeFile(done, main);
      return main;
    } catch (error) {
      await writeFile(failed, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
  // Another worker is compiling: wait for its outcome (a condition, polled; not a timing assumption).
  const deadline = Date.now() + BUILD_DEADLINE_MS;
  for (;;) {
    if (await exists(done)) return main;
    if (await exists(failed)) throw new Error(await readFile(failed, "utf8"));
    if (Date.now() > deadline)
      throw new Error(`timed out after ${BUILD_DEADLINE_MS} ms waiting for the service build in ${runDir}`);
    await sleep(200);
  }
}

/** Shared by the files a worker runs: they all start the same build. */
let built: Promise<string> | undefined;

/** The path of the built service's main.js (run it with `node`, cwd the checkout), compiled once per run. */
export function builtServiceMain(): Promise<string> {
  built ??= (async () => {
    const runDir = inject("serviceBuildDir") ?? (await mkdtemp(path.join(tmpdir(), "service-build-")));
    return buildOnce(runDir);
  })();
  // A failed build is not cached: the next file asks again and reports its own failure.
  built.catch(() => {
    built = undefined;
  });
  return built;
}
