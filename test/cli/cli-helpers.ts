// Runs the `payouts` CLI as a child process against a service the test started, with its own config file. The
// CLI is its TypeScript sources (the client package by its "source" export condition) bundled by esbuild, the
// transpiler tsx uses, once per harness into one ESM file that plain `node` runs: a start through the tsx loader
// cost about half a second of CPU more per command, and the tests run about thirty commands. Its dependencies
// (commander, cli-progress) stay external and resolve from the checkout's node_modules.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const bin = path.join(repoRoot, "packages/cli/src/bin.ts");

/** The CLI's sources in one file, `<folder>/bin.mjs` (the name commander shows is still "bin"). */
async function bundleCli(folder: string): Promise<string> {
  const outfile = path.join(folder, "bin.mjs");
  await build({
    entryPoints: [bin],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["source"],
    external: ["commander", "cli-progress"],
    outfile,
    logLevel: "silent",
  });
  await writeFile(path.join(folder, "package.json"), '{ "type": "module" }\n');
  await symlink(path.join(repoRoot, "node_modules"), path.join(folder, "node_modules"), "dir");
  return outfile;
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliHarness {
  readonly configFile: string;
  readonly cwd: string;
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  run(args: readonly string[], options?: { env?: Record<string, string>; input?: string }): Promise<CliResult>;
  start(args: readonly string[], options?: { env?: Record<string, string> }): LiveCli;
  close(): Promise<void>;
}

export interface LiveCli {
  readonly process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when `predicate` holds for the output so far; rejects when the process exits first or after `timeoutMs`. */
  waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void>;
  stop(): Promise<number | null>;
}

export async function createCliHarness(base: Record<string, string>): Promise<CliHarness> {
  const cwd = await mkdtemp(path.join(tmpdir(), "payouts-cli-"));
  // Beside the scratch folder, not in it: the tests look at what the CLI writes there.
  const binFolder = await mkdtemp(path.join(tmpdir(), "payouts-cli-bin-"));
  const bundled = await bundleCli(binFolder).catch(async (error: unknown) => {
    await Promise.all([cwd, binFolder].map((folder) => rm(folder, { recursive: true, force: true })));
    throw error;
  });
  const configFile = path.join(cwd, "config", "payouts.json");
  const live: LiveCli[] = [];
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("PAYOUTS_")));
    return { ...inherited, PAYOUTS_CONFIG: configFile, NO_COLOR: "1", ...base, ...extra };
  };
  const spawnCli = (args: readonly string[], extra?: Record<string, string>) =>
    spawn(process.execPath, [bundled, ...args], { cwd, env: env(extra), stdio: "pipe" });
  return {
    configFile,
    cwd,
    env,
    run(args, options = {}) {
      return new Promise((resolve, reject) => {
        const child = spawnCli(args, options.env);
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString("utf8");
        });
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString("utf8");
        });
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(options.input ?? "");
      });
    },
    start(args, options = {}) {
      const child = spawnCli(args, options.env);
      child.stdin.end();
      let stdout = "";
      let stderr = "";
      let exited = false;
      child.stdout?.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8");
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      const exit = new Promise<number | null>((resolve) =>
        child.on("close", (code) => {
          exited = true;
          resolve(code);
        }),
      );
      const handle: LiveCli = {
        process: child,
        stdout: () => stdout,
        stderr: () => stderr,
        async waitFor(predicate, timeoutMs, what) {
          const deadline = Date.now() + timeoutMs;
          while (!predicate()) {
            if (exited) throw new Error(`the CLI exited before ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
            if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
            await new Promise((r) => setTimeout(r, 50));
          }
        },
        async stop() {
          if (!exited) child.kill("SIGTERM");
          return exit;
        },
      };
      live.push(handle);
      return handle;
    },
    async close() {
      for (const handle of live) {
        if (handle.process.exitCode === null && handle.process.signalCode === null) handle.process.kill("SIGKILL");
      }
      await rm(cwd, { recursive: true, force: true });
      await rm(binFolder, { recursive: true, force: true });
    },
  };
}
