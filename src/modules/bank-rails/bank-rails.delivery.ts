// Where bank files go and answers come from: an SFTP server (the bank's), or, when the operator allows it,
// local folders under BANK_RAIL_LOCAL_ROOT. Never called inside a database transaction.
//
// SFTP: the server's host key must match the configured SHA-256 fingerprint (pinned, no trust on first use);
// files are written with `put` to a temporary name, read back with `get` and compared by SHA-256, then
// renamed to their final, deterministic name, so a half-written file never carries the final name and a
// crash before the rename leaves nothing the bank would process.
//
// Inbound files are listed with their size and modification time (the caller skips what it already took, and
// refuses a file over its size limit, before any download) and read with a byte range of at most the limit
// plus one byte: a file that grew, or whose listing understated it, is refused after that many bytes, never
// read whole.
//
// What the Business sees of a failure (`last_upload_error`) is a DeliveryError's message, which names nothing
// of the service's network or disk: every way a connection can fail (refused, timed out, unreachable, not an
// SSH server, an address the rules refuse) reads "could not connect to the SFTP server", so the field is no
// port scanner. The cause is in `detail`, for the server log only.
import { createHash } from "node:crypto";
import path from "node:path";
import type { Readable } from "node:stream";
import SftpClient from "ssh2-sftp-client";
import { connectGuarded } from "../../platform/outbound-http/tcp-connect.js";
import type { TargetPolicy } from "../../platform/outbound-http/url-safety.js";
import { type ConfinedDirectory, LocalFolderError, openConfinedDirectory } from "./bank-rails.local-folders.js";

/** A file of the inbound directory as the listing shows it. */
export interface InboundEntry {
  readonly name: string;
  readonly size: number;
  readonly modifiedAt: Date;
}

export interface DeliveryTarget {
  /** The SHA-256 (hex) of the file already there under `name`, or null when there is none. */
  existing(name: string): Promise<string | null>;
  /** Writes the file under `name` and checks what arrived against `content`. */
  put(name: string, content: string): Promise<void>;
  /** The files waiting in the inbound directory (regular files, not hidden), with size and modification time. */
  listInbound(): Promise<InboundEntry[]>;
  /**
   * The file's bytes, reading at most `maxBytes + 1` of them; a file longer than `maxBytes` raises
   * InboundTooLargeError after those, whatever its listing said.
   */
  readInbound(name: string, maxBytes: number): Promise<Buffer>;
  close(): Promise<void>;
}

export class DeliveryError extends Error {
  constructor(
    /** Shown to the Business (`last_upload_error`): nothing internal. */
    message: string,
    /** host_key_mismatch, unreachable, auth_failed, missing_credentials, checksum_mismatch, refused_path, io */
    readonly kind: string,
    /** For the server log only: the underlying error, addresses and paths included. */
    readonly detail: string = message,
  ) {
    super(message);
    this.name = "DeliveryError";
  }
}

/** An inbound file longer than the size limit, found while reading it (the read stopped there). */
export class InboundTooLargeError extends Error {
  constructor(
    readonly maxBytes: number,
    /** What was read before stopping: at most `maxBytes + 1`. */
    readonly bytesRead: number,
  ) {
    super(`more than ${maxBytes} bytes`);
    this.name = "InboundTooLargeError";
  }
}

/**
 * Collects a stream opened on the byte range [0, maxBytes] (so at most maxBytes + 1 bytes arrive); a byte past
 * `maxBytes` stops it (the stream is destroyed, its file closed) with InboundTooLargeError.
 */
export async function readAtMost(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw new InboundTooLargeError(maxBytes, total);
      chunks.push(chunk as Buffer);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, total);
}

export const COULD_NOT_CONNECT = "could not connect to the SFTP server";

/**
 * What a failed upload shows the Business, and what the log gets. Only a DeliveryError's own message is
 * shown; anything else (a library's error, a path on the operator's disk) becomes a generic sentence.
 */
export function describeDeliveryFailure(error: unknown): { shown: string; logged: string; kind: string } {
  if (error instanceof DeliveryError) return { shown: error.message, logged: error.detail, kind: error.kind };
  if (error instanceof LocalFolderError) return { shown: error.publicMessage, logged: error.detail, kind: "refused_path" };
  const logged = error instanceof Error ? error.message : String(error);
  return { shown: "the delivery failed (the service log has the cause)", logged, kind: "error" };
}

export function sha256Hex(content: string | Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

export interface SftpSettings {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password?: string;
  readonly privateKey?: string;
  /** `SHA256:<base64 without padding>` as ssh-keygen prints it. */
  readonly hostKeyFingerprint: string;
  readonly outboundDirectory: string;
  readonly inboundDirectory: string;
  readonly timeoutMs?: number;
}

/**
 * The SFTP settings of a stored rail configuration's delivery and its decrypted secrets: one mapping for the
 * file upload and the connection test, so both connect exactly the same way.
 */
export function sftpSettingsOf(
  delivery: {
    readonly host?: string | null | undefined;
    readonly port?: number | null | undefined;
    readonly username?: string | null | undefined;
    readonly hostKeyFingerprint?: string | null | undefined;
    readonly outboundDirectory: string;
    readonly inboundDirectory: string;
  },
  secrets: { readonly password?: string | undefined; readonly privateKey?: string | undefined } | null,
): SftpSettings {
  return {
    host: delivery.host ?? "",
    port: delivery.port ?? 22,
    username: delivery.username ?? "",
    ...(secrets?.password === undefined ? {} : { password: secrets.password }),
    ...(secrets?.privateKey === undefined ? {} : { privateKey: secrets.privateKey }),
    hostKeyFingerprint: delivery.hostKeyFingerprint ?? "",
    outboundDirectory: delivery.outboundDirectory,
    inboundDirectory: delivery.inboundDirectory,
  };
}

/** `SHA256:…` of a raw host key, the way OpenSSH prints it. */
export function openSshFingerprint(key: Buffer): string {
  return `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`;
}

/**
 * Connects, authenticates and checks the pinned host key. The host and port go through the outbound address
 * rules (`policy`: private and loopback addresses refused unless the operator allows them) on the address
 * actually connected; the SSH session runs over that checked socket.
 */
export async function openSftpTarget(settings: SftpSettings, policy: TargetPolicy): Promise<DeliveryTarget> {
  // Credentials are bound to the target they were given for: a change of host, port, user or host key drops
  // them (bank-rails.service.ts), and then nothing is sent until the Business gives them again.
  if (settings.password === undefined && settings.privateKey === undefined) {
    throw new DeliveryError(
      "no SFTP password or private key is stored for this server (changing the host, port, username or host key drops them): send one again with PUT /v1/bank-rails/{rail}",
      "missing_credentials",
    );
  }
  const timeoutMs = settings.timeoutMs ?? 15_000;
  let sock: Awaited<ReturnType<typeof connectGuarded>>;
  try {
    sock = await connectGuarded({ host: settings.host, port: settings.port, policy, timeoutMs });
  } catch (error) {
    throw new DeliveryError(
      COULD_NOT_CONNECT,
      "unreachable",
      `SFTP connection to ${settings.host}:${settings.port} failed: ${(error as Error).message}`,
    );
  }
  const client = new SftpClient("bank-rail");
  let presented: string | null = null;
  const expected = settings.hostKeyFingerprint.replace(/=+$/, "");
  try {
    await client.connect({
      sock,
      username: settings.username,
      ...(settings.password === undefined ? {} : { password: settings.password }),
      ...(settings.privateKey === undefined ? {} : { privateKey: settings.privateKey }),
      readyTimeout: timeoutMs,
      retries: 0,
      hostVerifier: (key: Buffer) => {
        presented = openSshFingerprint(key);
        return presented === expected;
      },
    });
  } catch (error) {
    await client.end().catch(() => undefined);
    sock.destroy();
    const detail = `SFTP connection to ${settings.host}:${settings.port} failed: ${(error as Error).message}`;
    // The key a server presents is public (anyone connecting gets it), and a changed key is what the
    // Business must check with its bank: it is shown.
    if (presented !== null && presented !== expected) {
      throw new DeliveryError(
        `the SFTP server presented host key ${presented}, not the pinned ${expected}`,
        "host_key_mismatch",
        detail,
      );
    }
    // Reached only past the pinned host key: the Business's own bank server refused its credentials.
    if (presented === expected && /authentication/i.test((error as Error).message)) {
      throw new DeliveryError("the SFTP server refused the credentials", "auth_failed", detail);
    }
    throw new DeliveryError(COULD_NOT_CONNECT, "unreachable", detail);
  }
  const out = (name: string) => path.posix.join(settings.outboundDirectory, name);
  const inbound = (name: string) => path.posix.join(settings.inboundDirectory, name);
  async function fetch(remote: string): Promise<Buffer> {
    const data = await client.get(remote);
    if (!Buffer.isBuffer(data)) throw new DeliveryError(`could not read ${remote}`, "io");
    return data;
  }
  /** A failed operation on the Business's own server: a fixed sentence shown, the library's words logged. */
  const failed = (what: string, error: unknown): DeliveryError =>
    error instanceof DeliveryError
      ? error
      : new DeliveryError(`the SFTP server refused to ${what}`, "io", `SFTP ${what}: ${(error as Error).message}`);
  return {
    async existing(name) {
      try {
        const found = await client.exists(out(name));
        if (found === false) return null;
        return sha256Hex(await fetch(out(name)));
      } catch (error) {
        throw failed("read the outbound directory", error);
      }
    },
    async put(name, content) {
      try {
        const temporary = out(`.${name}.part`);
        await client.put(Buffer.from(content, "utf8"), temporary);
        const back = await fetch(temporary);
        if (sha256Hex(back) !== sha256Hex(content))
          throw new DeliveryError(`${name} arrived altered (checksum mismatch)`, "checksum_mismatch");
        await client.rename(temporary, out(name));
      } catch (error) {
        throw failed("store the file in the outbound directory", error);
      }
    },
    async listInbound() {
      const entries = await client.list(settings.inboundDirectory);
      return entries
        .filter((e) => e.type === "-" && !e.name.startsWith("."))
        .map((e) => ({ name: e.name, size: e.size, modifiedAt: new Date(e.modifyTime) }));
    },
    async readInbound(name, maxBytes) {
      // `end` is inclusive: the server is asked for bytes 0..maxBytes and never for more.
      return readAtMost(client.createReadStream(inbound(name), { start: 0, end: maxBytes }), maxBytes);
    },
    async close() {
      await client.end().catch(() => undefined);
    },
  };
}

/** The folder of a Business's own under the operator's root: `<root>/<business id>/<environment>/`. */
export function localFolderSegments(
  tenant: { readonly businessId: string; readonly environment: string },
  directory: string,
): string[] {
  return [tenant.businessId, tenant.environment, ...directory.split("/")];
}

/**
 * Local folders under the operator's root (BANK_RAIL_LOCAL_ROOT), inside the Business's own folder
 * (`localFolderSegments`), opened without following any link below the root (bank-rails.local-folders.ts).
 */
export function openLocalTarget(
  root: string,
  tenant: { readonly businessId: string; readonly environment: string },
  outboundDirectory: string,
  inboundDirectory: string,
): DeliveryTarget {
  const outbound = localFolderSegments(tenant, outboundDirectory);
  const inbound = localFolderSegments(tenant, inboundDirectory);
  async function within<T>(
    segments: string[],
    create: boolean,
    use: (dir: ConfinedDirectory) => Promise<T>,
    absent: T,
  ): Promise<T> {
    const dir = await openConfinedDirectory(root, segments, { create });
    if (dir === null) return absent;
    try {
      return await use(dir);
    } finally {
      await dir.close();
    }
  }
  return {
    async existing(name) {
      return within(
        outbound,
        false,
        async (dir) => {
          const content = await dir.readFile(name);
          return content === null ? null : sha256Hex(content);
        },
        null,
      );
    },
    async put(name, content) {
      await within(
        outbound,
        true,
        (dir) =>
          dir.writeThenRename(`.${name}.part`, name, content, (written) => {
            if (sha256Hex(written) !== sha256Hex(content))
              throw new DeliveryError(`${name} was written altered`, "checksum_mismatch");
          }),
        undefined,
      );
    },
    async listInbound() {
      return within(inbound, true, async (dir) => (await dir.listFiles()).filter((entry) => !entry.name.startsWith(".")), []);
    },
    async readInbound(name, maxBytes) {
      const handle = await within(inbound, false, (dir) => dir.openFile(name), null);
      if (handle === null) throw new DeliveryError(`${name} is no longer in the inbound folder`, "io");
      try {
        // `end` is inclusive: at most maxBytes + 1 bytes are read, through the handle opened without following links.
        return await readAtMost(handle.createReadStream({ start: 0, end: maxBytes, autoClose: false }), maxBytes);
      } finally {
        await handle.close();
      }
    },
    async close() {},
  };
}
