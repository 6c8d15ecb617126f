// A server under test in its own process on a real loopback port, so that the load generator (in the
// bench process) and the server do not share an event loop or a CPU time slice.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { registerCleanup } from "./cleanup.js";

export interface ServerProcess {
  readonly name: string;
  readonly baseUrl: string;
  readonly pid: number;
  /** SIGTERM, then SIGKILL if the process has not exited within the grace period. */
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** For messages only. */
  readonly name: string;
  /** Arguments to `node` (script and its arguments). */
  readonly nodeArgs: readonly string[];
  /** Added to a minimal inherited environment (PATH, HOME, TMPDIR); PORT is set by this helper. */
  readonly env: Readonly<Record<string, string>>;
  /** A path answering 200 once the server can take load. */
  readonly readyPath: string;
  readonly startTimeoutMs?: number;
  /** The port to listen on (e.g. the one a stopped predecessor used); a free one when absent. */
  readonly port?: number;
}

/** Asks the OS for a free loopback port. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error("no port assigned"))));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export async function startServerProcess(options: StartServerOptions): Promise<ServerProcess> {
  const port = options.port ?? (await findFreePort());
  const child = spawn(process.execPath, [...options.nodeArgs], {
    env: { ...inheritedEnv(), NODE_ENV: "production", ...options.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The last few kilobytes of output, to explain a crash; nothing is echoed while the server runs.
  let tail = "";
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-8000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });

  const stop = registerCleanup(async () => {
    if (exited) return;
    child.kill("SIGTERM");
    if (!(await waitForExit(child, 10_000))) {
      child.kill("SIGKILL");
      await waitForExit(child, 5_000);
    }
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`${options.name} exited before it was ready (code ${child.exitCode}):\n${tail}`);
    }
    try {
      const response = await fetch(`${baseUrl}${options.readyPath}`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.name} was not ready within the start timeout:\n${tail}`);
    }
    await sleep(100);
  }
  if (child.pid === undefined) throw new Error(`${options.name} has no pid`);
  return { name: options.name, baseUrl, pid: child.pid, stop };
}
