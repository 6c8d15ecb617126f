// The built service (what `npm start` runs: `node dist/main.js`) for the tests that start it as a real process
// (test/startup/*). `npm run build:service` is `tsc -p tsconfig.build.json`; this emits the same dist/ with
// esbuild instead, in about a second rather than tens of seconds of CPU, and the same output follows from the
// build config: tsconfig.build.json compiles each file of src/ to the same path under dist/ without bundling
// (module NodeNext under "type": "module": ESM, import specifiers kept as written), with target ES2022 (so class
// fields keep define semantics in both) and verbatimModuleSyntax, which keeps every import not marked `type` and
// makes the typecheck reject whatever a per-file transpiler could not emit alone (it implies isolatedModules):
// each file's JavaScript is its own source with the types erased, which is what esbuild writes given the same
// tsconfig. What it leaves out is the typecheck, which `npm run typecheck` does.
//
// A run builds it once: into the run's folder that test/setup/service-build.global.ts provides, never into the
// checkout's dist/ (other work may be using it). The first file that asks takes a lock (an atomic mkdir) and
// builds; a file in another worker that asks meanwhile waits for its outcome. Outside such a run (no folder
// provided) each worker builds into a temporary folder of its own.
//
// The layout the built code expects around dist/: an ESM package.json, the dependencies, and the migrations,
// which migrate.ts finds at ../../../drizzle from dist/platform/db/.
import { access, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** An empty folder for this run's one build of the service (test/helpers/service-build.ts). */
    serviceBuildDir: string | null;
  }
}

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** How long a file waits for another worker's build: generous, a loaded machine builds slowly. */
const BUILD_DEADLINE_MS = 600_000;

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Every TypeScript source of src/, as tsconfig.build.json includes them (declaration files emit nothing). */
async function serviceSources(): Promise<string[]> {
  const entries = await readdir(path.join(REPO_ROOT, "src"), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

async function buildInto(root: string): Promise<void> {
  try {
    await build({
      entryPoints: await serviceSources(),
      outdir: path.join(root, "dist"),
      outbase: path.join(REPO_ROOT, "src"),
      tsconfig: path.join(REPO_ROOT, "tsconfig.build.json"),
      bundle: false,
      platform: "node",
      format: "esm",
      target: "es2022",
      sourcemap: true,
      logLevel: "silent",
    });
  } catch (error) {
    throw new Error(`the service build (esbuild over src/ with tsconfig.build.json) failed: ${String(error)}`);
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
      await buildInto(root);
      await writeFile(done, main);
      return main;
    } catch (error) {
      await writeFile(failed, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
  // Another worker is building: wait for its outcome (a condition, polled; not a timing assumption).
  const deadline = Date.now() + BUILD_DEADLINE_MS;
  for (;;) {
    if (await exists(done)) return main;
    if (await exists(failed)) throw new Error(await readFile(failed, "utf8"));
    if (Date.now() > deadline)
      throw new Error(`timed out after ${BUILD_DEADLINE_MS} ms waiting for the service build in ${runDir}`);
    await sleep(50);
  }
}

/** Shared by the files a worker runs: they all start the same build. */
let built: Promise<string> | undefined;

/** The path of the built service's main.js (run it with `node`, cwd the checkout), built once per run. */
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
