// How the service under test is started. By default it is compiled with the project's build config into
// a temporary directory (never the checkout's dist/, which other work may be using) and run with plain
// `node`, exactly as `npm run start:api` runs it. BENCH_SERVICE_RUNTIME=tsx runs src/main.ts through the
// tsx loader instead (no build; slower start, same steady state). BENCH_SERVICE_ENTRY=/path/to/main.js runs
// a build made elsewhere (A/B comparisons against another commit).
import { spawn } from "node:child_process";
import { access, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTempDir } from "./temp-dir.js";

export type ServiceRuntime = "dist" | "tsx" | "entry";

export interface ServiceBuild {
  readonly runtime: ServiceRuntime;
  /** Arguments for `node` before the role argument, e.g. [".../dist/main.js"]. */
  readonly nodeArgs: readonly string[];
  /** tsc reported type errors but still emitted JavaScript (another change may be in progress). */
  readonly typeErrors: boolean;
  readonly buildSeconds: number;
  dispose(): Promise<void>;
}

function run(command: string, args: readonly string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

export async function prepareServiceBuild(
  root: string,
  runtime: ServiceRuntime,
  log: (message: string) => void,
  entry?: string,
): Promise<ServiceBuild> {
  if (runtime === "entry") {
    if (entry === undefined) throw new Error("the entry runtime needs the path of a built main.js");
    await access(entry);
    return { runtime, nodeArgs: [path.resolve(entry)], typeErrors: false, buildSeconds: 0, dispose: async () => {} };
  }
  if (runtime === "tsx") {
    return {
      runtime,
      nodeArgs: ["--import", "tsx", path.join(root, "src", "main.ts")],
      typeErrors: false,
      buildSeconds: 0,
      dispose: async () => {},
    };
  }
  const started = performance.now();
  const dir = await createTempDir("bench-service-build");
  const outDir = path.join(dir.path, "dist");
  log(`building the service into ${outDir}`);
  const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
  const result = await run(
    process.execPath,
    [tsc, "-p", "tsconfig.build.json", "--outDir", outDir, "--sourceMap", "false"],
    root,
  );
  const builtEntry = path.join(outDir, "main.js");
  try {
    await access(builtEntry);
  } catch {
    await dir.remove();
    throw new Error(`the service build produced no ${builtEntry}:\n${result.output.slice(-4000)}`);
  }
  if (result.code !== 0) log(`warning: tsc reported errors but emitted JavaScript:\n${result.output.slice(-2000)}`);
  // The layout the built code expects around dist/: an ESM package.json, the dependencies, and the
  // migrations, which migrate.ts finds at ../../../drizzle from dist/platform/db/.
  await writeFile(path.join(dir.path, "package.json"), '{ "type": "module" }\n');
  await symlink(path.join(root, "node_modules"), path.join(dir.path, "node_modules"), "dir");
  await symlink(path.join(root, "drizzle"), path.join(dir.path, "drizzle"), "dir");
  return {
    runtime,
    nodeArgs: [builtEntry],
    typeErrors: result.code !== 0,
    buildSeconds: (performance.now() - started) / 1000,
    dispose: () => dir.remove(),
  };
}
