// A real OpenSSH server for the bank-file tests: Debian's /usr/sbin/sshd started on a free loopback port with
// a freshly generated host key and user key, SFTP only (internal-sftp, starting in a scratch directory that
// plays the bank's server). Closed by stop(). Tests that need it skip with a notice when sshd is missing,
// unless REQUIRE_SFTP=1 (CI), where a missing sshd fails them. With `sftpLog`, the SFTP side is Debian's
// sftp-server program at log level INFO instead, writing what the server did (every file opened, and the bytes
// read from it when it was closed) to a file the test reads: what the server saw, not what the client says.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { portOutsideEphemeralRange } from "./ports.js";

export const SSHD_PATH = "/usr/sbin/sshd";
/** Debian's SFTP server program (package openssh-sftp-server, a dependency of openssh-server). */
const SFTP_SERVER_PATH = "/usr/lib/openssh/sftp-server";

export function sshdAvailable(): boolean {
  return existsSync(SSHD_PATH);
}

export interface TestSshd {
  readonly port: number;
  readonly username: string;
  readonly privateKey: string;
  /** `SHA256:…` of the server's host key, as ssh-keygen prints it. */
  readonly hostKeyFingerprint: string;
  /** The directory SFTP sessions start in (the bank's side of the exchange). */
  readonly root: string;
  stop(): Promise<void>;
  /** Starts the same server again (same keys, same port), after stop(). */
  restart(): Promise<void>;
  /** Replaces the host key (a "changed host key" on the next connection); restarts the server. */
  rotateHostKey(): Promise<string>;
  /**
   * With `sftpLog`: the SFTP server's log so far, e.g. `open "in/a.xml" flags READ mode 0666` and
   * `close "in/a.xml" bytes read 1234 written 0`; "" without it.
   */
  sftpLog(): string;
  /**
   * What the server logged so far (its stderr, every run): with `logLevel: "VERBOSE"`, each connection
   * ("Connection from …") and each authentication attempt ("Failed password for …", "Accepted publickey …").
   */
  log(): string;
}

export interface TestSshdOptions {
  /** Let clients try passwords (the system's; none will match): the log then shows every password attempt. */
  readonly passwordAuthentication?: boolean;
  /** sshd's LogLevel; ERROR unless given. VERBOSE logs connections and authentication attempts. */
  readonly logLevel?: "ERROR" | "INFO" | "VERBOSE";
  /** Run Debian's sftp-server with its own log (sftpLog()): every open and the bytes read. */
  readonly sftpLog?: boolean;
}

/** Until sshd accepts connections: a condition with a generous deadline (a loaded machine starts processes slowly). */
async function waitForPort(port: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
      socket.connect(port, "127.0.0.1");
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`sshd did not listen on ${port}`);
}

function keygen(file: string): void {
  rmSync(file, { force: true });
  rmSync(`${file}.pub`, { force: true });
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "bank-test", "-f", file]);
}

function fingerprintOf(publicKeyFile: string): string {
  const line = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", publicKeyFile]).toString();
  const match = /(SHA256:[A-Za-z0-9+/]+)/.exec(line);
  if (!match?.[1]) throw new Error(`no fingerprint in ${line}`);
  return match[1];
}

export async function startTestSshd(options: TestSshdOptions = {}): Promise<TestSshd> {
  const dir = mkdtempSync(path.join(tmpdir(), "bank-sshd-"));
  const root = path.join(dir, "bank");
  const sftpLogFile = path.join(dir, "sftp.log");
  if (options.sftpLog && !existsSync(SFTP_SERVER_PATH))
    throw new Error(`sftpLog needs ${SFTP_SERVER_PATH} (openssh-sftp-server)`);
  // sshd runs the command through the user's shell, which sends the program's log (-e: to stderr) to the file.
  const sftp = options.sftpLog ? `${SFTP_SERVER_PATH} -e -l INFO -d ${root} 2>>${sftpLogFile}` : `internal-sftp -d ${root}`;
  mkdirSync(path.join(root, "out"), { recursive: true });
  mkdirSync(path.join(root, "in"), { recursive: true });
  const hostKey = path.join(dir, "host_ed25519");
  const userKey = path.join(dir, "user_ed25519");
  keygen(hostKey);
  keygen(userKey);
  writeFileSync(path.join(dir, "authorized_keys"), readFileSync(`${userKey}.pub`));
  const username = execFileSync("id", ["-un"]).toString().trim();
  // Not a listen(0) port: the server is stopped and started again on it (restart, rotateHostKey), and a port
  // of the ephemeral range could be given to another process of the run while it is down.
  const port = await portOutsideEphemeralRange();
  // sshd started by root needs its privilege-separation directory (Debian creates it at boot).
  if (process.getuid?.() === 0 && !existsSync("/run/sshd")) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const config = path.join(dir, "sshd_config");
  writeFileSync(
    config,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, "sshd.pid")}`,
      `AuthorizedKeysFile ${path.join(dir, "authorized_keys")}`,
      `PasswordAuthentication ${options.passwordAuthentication ? "yes" : "no"}`,
      "KbdInteractiveAuthentication no",
      "PubkeyAuthentication yes",
      "PermitRootLogin prohibit-password",
      "StrictModes no",
      "UsePAM no",
      "AllowTcpForwarding no",
      "X11Forwarding no",
      `Subsystem sftp ${sftp}`,
      `ForceCommand ${sftp}`,
      `LogLevel ${options.logLevel ?? "ERROR"}`,
      "",
    ].join("\n"),
  );
  let child: ChildProcess | null = null;
  let logged = "";
  const start = async () => {
    child = spawn(SSHD_PATH, ["-D", "-e", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
      logged += String(chunk);
    });
    child.once("exit", (code) => {
      if (code !== 0 && code !== null) stderr += `\nexited ${code}`;
    });
    try {
      await waitForPort(port);
    } catch (error) {
      throw new Error(`${(error as Error).message}: ${stderr}`);
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGTERM");
    });
  };
  await start();
  return {
    port,
    username,
    privateKey: readFileSync(userKey, "utf8"),
    get hostKeyFingerprint() {
      return fingerprintOf(`${hostKey}.pub`);
    },
    root,
    async stop() {
      await stop();
    },
    async restart() {
      await start();
    },
    async rotateHostKey() {
      await stop();
      keygen(hostKey);
      await start();
      return fingerprintOf(`${hostKey}.pub`);
    },
    sftpLog() {
      return existsSync(sftpLogFile) ? readFileSync(sftpLogFile, "utf8") : "";
    },
    log: () => logged,
  } satisfies TestSshd & { stop(): Promise<void> };
}

/** Removes the server's scratch directory (after stop()). */
export function removeSshdDir(sshd: TestSshd): void {
  rmSync(path.dirname(sshd.root), { recursive: true, force: true });
}
