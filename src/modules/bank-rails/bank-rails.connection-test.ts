// "Test connection" of a configured rail: connect to the SFTP server with the stored credentials, check the
// pinned host key, log in and list the outbound and inbound directories, WITHOUT writing, renaming or reading
// any file. Each step is answered in words (what worked, what failed and what to do), never a library's
// message, a resolved address or a secret. Bounded: the whole test stops after `timeoutMs`, and the step it
// was at says it got no answer in time. Never called inside a database transaction.
//
// Unlike a file upload's `last_upload_error` (which says only "could not connect" whatever the cause, being
// readable by every role), the test tells a timeout from a refused connection: it is run by an admin after a
// recent confirmation, is audited, and the host is held to the same address rules (a non-public address is
// refused before any packet is sent), so it tells nothing about the service's own network.
import path from "node:path";
import SftpClient from "ssh2-sftp-client";
import { connectGuarded } from "../../platform/outbound-http/tcp-connect.js";
import { type TargetPolicy, UnsafeUrlError } from "../../platform/outbound-http/url-safety.js";
import { localFolderSegments, openSshFingerprint, type SftpSettings } from "./bank-rails.delivery.js";
import { LocalFolderError, openConfinedDirectory } from "./bank-rails.local-folders.js";

export const CONNECTION_STEPS = ["connect", "host_key", "login", "outbound_directory", "inbound_directory"] as const;
export type ConnectionStepName = (typeof CONNECTION_STEPS)[number];

export interface ConnectionStep {
  readonly step: ConnectionStepName;
  readonly status: "passed" | "failed" | "skipped";
  readonly message: string;
}

export const DEFAULT_CONNECTION_TEST_TIMEOUT_MS = 10_000;

class StepTimeout extends Error {}

/** Rejects with StepTimeout when `promise` has not settled by `deadline` (performance.now() time). */
function before<T>(promise: Promise<T>, deadline: number): Promise<T> {
  const remaining = Math.max(0, deadline - performance.now());
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepTimeout()), remaining);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s === 1 ? "1 second" : `${s} seconds`;
}

/** Steps after `from` that were not tried. */
function skippedAfter(steps: ConnectionStep[], names: readonly ConnectionStepName[]): ConnectionStep[] {
  const done = new Set(steps.map((s) => s.step));
  return [
    ...steps,
    ...names
      .filter((name) => !done.has(name))
      .map((step) => ({ step, status: "skipped" as const, message: "Not tried: an earlier step failed." })),
  ];
}

/** The SFTP test. `settings` carries the stored credentials; nothing of them is ever put in a message. */
export async function testSftpConnection(
  settings: SftpSettings,
  policy: TargetPolicy,
  timeoutMs = DEFAULT_CONNECTION_TEST_TIMEOUT_MS,
): Promise<ConnectionStep[]> {
  const steps: ConnectionStep[] = [];
  const finish = () => skippedAfter(steps, CONNECTION_STEPS);
  const where = `${settings.host} port ${settings.port}`;
  const limit = seconds(timeoutMs);
  if (settings.password === undefined && settings.privateKey === undefined) {
    steps.push({ step: "connect", status: "skipped", message: "Not tried: no credential is stored." });
    steps.push({ step: "host_key", status: "skipped", message: "Not tried: no credential is stored." });
    steps.push({
      step: "login",
      status: "failed",
      message:
        "No SFTP password or private key is stored (changing the host, port, username or host key drops them). Enter one and save the rail again.",
    });
    return finish();
  }
  const deadline = performance.now() + timeoutMs;
  let sock: Awaited<ReturnType<typeof connectGuarded>>;
  try {
    sock = await connectGuarded({ host: settings.host, port: settings.port, policy, timeoutMs });
  } catch (error) {
    const message =
      error instanceof UnsafeUrlError
        ? error.reason === "not_public"
          ? `${settings.host} resolves to an address that is not public; this service connects only to public addresses unless its operator allows private ones (BANK_RAIL_ALLOW_PRIVATE_HOSTS).`
          : `${settings.host} could not be resolved: check the host name.`
        : (error as NodeJS.ErrnoException).code === "ETIMEDOUT"
          ? `No answer from ${where} within ${limit}: check the host, the port and that the bank's firewall lets this service in.`
          : `Could not connect to ${where} (the connection was refused or the host is unreachable): check the host and the port.`;
    steps.push({ step: "connect", status: "failed", message });
    return finish();
  }
  const client = new SftpClient("bank-rail-test");
  const expected = settings.hostKeyFingerprint.replace(/=+$/, "");
  let presented: string | null = null;
  const end = () => {
    void client.end().catch(() => undefined);
    sock.destroy();
  };
  try {
    try {
      await before(
        client.connect({
          sock,
          username: settings.username,
          ...(settings.password === undefined ? {} : { password: settings.password }),
          ...(settings.privateKey === undefined ? {} : { privateKey: settings.privateKey }),
          readyTimeout: Math.max(1, deadline - performance.now()),
          retries: 0,
          hostVerifier: (key: Buffer) => {
            presented = openSshFingerprint(key);
            return presented === expected;
          },
        }),
        deadline,
      );
    } catch (error) {
      if (presented === null) {
        steps.push({
          step: "connect",
          status: "failed",
          message:
            error instanceof StepTimeout || /timed out/i.test((error as Error).message)
              ? `${where} accepted the connection but no SSH server answered within ${limit}: check the port.`
              : `${where} accepted the connection but did not speak SSH: check the port.`,
        });
        return finish();
      }
      steps.push({ step: "connect", status: "passed", message: `Reached the SSH server at ${where}.` });
      if (presented !== expected) {
        steps.push({
          step: "host_key",
          status: "failed",
          message: `The server presented host key ${presented}, not the pinned ${expected}. Nothing was sent. Ask your bank which key is right before changing the pinned one: a changed key can mean someone else is answering.`,
        });
        return finish();
      }
      steps.push({ step: "host_key", status: "passed", message: `The server presented the pinned host key ${expected}.` });
      steps.push({
        step: "login",
        status: "failed",
        message:
          error instanceof StepTimeout
            ? `The server did not complete the login within ${limit}.`
            : /authentication/i.test((error as Error).message)
              ? `The server refused the ${settings.privateKey === undefined ? "password" : "private key"} for user ${settings.username}: check the username and the credential with your bank.`
              : "The server closed the connection during the login.",
      });
      return finish();
    }
    steps.push({ step: "connect", status: "passed", message: `Reached the SSH server at ${where}.` });
    steps.push({ step: "host_key", status: "passed", message: `The server presented the pinned host key ${expected}.` });
    steps.push({
      step: "login",
      status: "passed",
      message: `Logged in as ${settings.username} with the stored ${settings.privateKey === undefined ? "password" : "private key"}.`,
    });
    for (const [step, directory] of [
      ["outbound_directory", settings.outboundDirectory],
      ["inbound_directory", settings.inboundDirectory],
    ] as const) {
      const which = step === "outbound_directory" ? "outbound" : "inbound";
      try {
        const kind = await before(client.exists(directory), deadline);
        if (kind === false) {
          steps.push({
            step,
            status: "failed",
            message: `The ${which} directory "${directory}" does not exist on the server: ask your bank for the right path, or have it created.`,
          });
          continue;
        }
        if (kind !== "d") {
          steps.push({
            step,
            status: "failed",
            message: `The ${which} path "${directory}" is a file on the server, not a directory.`,
          });
          continue;
        }
        const entries = await before(client.list(directory), deadline);
        const files = entries.filter((e) => e.type === "-" && !e.name.startsWith(".")).length;
        steps.push({
          step,
          status: "passed",
          message: `Listed the ${which} directory "${directory}": ${files === 1 ? "1 file" : `${files} files`}.`,
        });
      } catch (error) {
        if (error instanceof StepTimeout) {
          steps.push({
            step,
            status: "failed",
            message: `The server did not list the ${which} directory "${directory}" within ${limit}.`,
          });
          return finish();
        }
        steps.push({
          step,
          status: "failed",
          message: `The server refused to list the ${which} directory "${directory}": check that user ${settings.username} may read it.`,
        });
      }
    }
    return finish();
  } finally {
    end();
  }
}

/**
 * The local-directory test (only where the operator set BANK_RAIL_LOCAL_ROOT): each folder is opened without
 * following links and without creating it; a folder not there yet passes (the first file creates it).
 */
export async function testLocalFolders(
  root: string | null,
  tenant: { readonly businessId: string; readonly environment: string },
  outboundDirectory: string,
  inboundDirectory: string,
): Promise<ConnectionStep[]> {
  const steps: ConnectionStep[] = [];
  if (root === null) {
    steps.push({
      step: "outbound_directory",
      status: "failed",
      message: "Delivery to a local directory is not allowed on this service (BANK_RAIL_LOCAL_ROOT is not set): use SFTP.",
    });
    return skippedAfter(steps, ["outbound_directory", "inbound_directory"]);
  }
  for (const [step, directory] of [
    ["outbound_directory", outboundDirectory],
    ["inbound_directory", inboundDirectory],
  ] as const) {
    const which = step === "outbound_directory" ? "outbound" : "inbound";
    try {
      const dir = await openConfinedDirectory(root, localFolderSegments(tenant, directory), { create: false });
      if (dir === null) {
        steps.push({
          step,
          status: "passed",
          message: `The ${which} folder "${directory}" does not exist yet; it is created when it is first used.`,
        });
        continue;
      }
      const files = (await dir.listFiles()).filter((entry) => !entry.name.startsWith(".")).length;
      await dir.close();
      steps.push({
        step,
        status: "passed",
        message: `Listed the ${which} folder "${path.posix.normalize(directory)}": ${files === 1 ? "1 file" : `${files} files`}.`,
      });
    } catch (error) {
      steps.push({
        step,
        status: "failed",
        message:
          error instanceof LocalFolderError
            ? `The ${which} folder "${directory}": ${error.publicMessage}.`
            : `The ${which} folder "${directory}" could not be read.`,
      });
    }
  }
  return steps;
}
