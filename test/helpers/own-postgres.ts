// A PostgreSQL server of a test's own, for tests that stop and restart the database under a running service
// (test/platform/database-restart-postgres.test.ts). Never the machine's shared server: initdb makes a new
// cluster in a temporary folder, and it listens on a loopback port outside the kernel's ephemeral range (it is
// stopped and started again on the same port) with its socket in that folder.
//
// PostgreSQL refuses to run as root. When the tests run as root, every PostgreSQL binary runs through
// `runuser -u postgres` (the account Debian's packages create), and the folder is handed to that user; as any
// other user, the binaries run as that user. Tests skip with a notice when no binaries are found, or when they
// run as root and there is no `postgres` account or no `runuser`.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { portOutsideEphemeralRange } from "./ports.js";

const run = promisify(execFile);
const RUNUSER = "/usr/sbin/runuser";
/** Deadlines for one PostgreSQL command (initdb, a start with crash recovery): generous on a loaded machine. */
const COMMAND_TIMEOUT_MS = 120_000;

/** The bin folder of the newest PostgreSQL under /usr/lib/postgresql, or null. */
export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(path.join(root, name, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : path.join(root, versions[0], "bin");
}

/** The uid and gid of the `postgres` account (from /etc/passwd), or null. */
function postgresAccount(): { uid: number; gid: number } | null {
  let passwd = "";
  try {
    passwd = readFileSync("/etc/passwd", "utf8");
  } catch {
    return null;
  }
  const line = passwd.split("\n").find((entry) => entry.startsWith("postgres:"));
  if (line === undefined) return null;
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

const asRoot = process.getuid?.() === 0;

/** Why these tests cannot start a server of their own here, or null when they can. */
export function ownPostgresUnavailable(): string | null {
  if (postgresBinDir() === null) return "no PostgreSQL binaries under /usr/lib/postgresql/*/bin";
  if (asRoot && (postgresAccount() === null || !existsSync(RUNUSER))) {
    return "running as root, and PostgreSQL refuses root: no postgres account or no runuser to run it as";
  }
  return null;
}

export interface OwnPostgres {
  readonly port: number;
  /** A connection string as the superuser `postgres` (trust authentication on loopback). */
  url(database: string): string;
  start(): Promise<void>;
  /** `pg_ctl stop -m immediate`: every backend is killed at once, no checkpoint (as in a crash); the next start recovers. */
  stopImmediately(): Promise<void>;
  /** Stops the server if it runs and removes its folder. */
  remove(): Promise<void>;
}

/** initdb a new cluster in a temporary folder; the server is not started. */
export async function createOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinDir();
  if (bin === null) throw new Error("no PostgreSQL binaries found");
  const root = await mkdtemp(path.join(tmpdir(), "own-postgres-"));
  const account = asRoot ? postgresAccount() : null;
  if (asRoot) {
    if (account === null) throw new Error("running as root without a postgres account");
    await chown(root, account.uid, account.gid);
  }
  const dataDir = path.join(root, "data");
  const logFile = path.join(root, "server.log");
  const port = await portOutsideEphemeralRange();
  const command = (name: string, args: readonly string[]) => {
    const file = path.join(bin, name);
    return asRoot
      ? run(RUNUSER, ["-u", "postgres", "--", file, ...args], { timeout: COMMAND_TIMEOUT_MS, cwd: root })
      : run(file, [...args], { timeout: COMMAND_TIMEOUT_MS, cwd: root });
  };
  await command("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
  let running = false;
  const server: OwnPostgres = {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      // -w waits until it accepts connections (or the deadline, -t), crash recovery included.
      const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${root} -c fsync=off -c max_connections=60`;
      await command("pg_ctl", ["-D", dataDir, "-l", logFile, "-o", options, "-w", "-t", "90", "start"]);
      running = true;
    },
    async stopImmediately() {
      await command("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "-t", "60", "stop"]);
      running = false;
    },
    async remove() {
      if (running) await server.stopImmediately().catch(() => {});
      await rm(root, { recursive: true, force: true });
    },
  };
  return server;
}

/** Creates a database on the server (connected to `postgres`). */
export async function createDatabaseOn(server: OwnPostgres, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.url("postgres"), connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}
