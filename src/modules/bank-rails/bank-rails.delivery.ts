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
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import SftpClient from "ssh2-sftp-client";

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
    message: string,
    /** host_key_mismatch, unreachable, auth_failed, checksum_mismatch, io */
    readonly kind: string,
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

/** `SHA256:…` of a raw host key, the way OpenSSH prints it. */
export function openSshFingerprint(key: Buffer): string {
  return `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`;
}

export async function openSftpTarget(settings: SftpSettings): Promise<DeliveryTarget> {
  const client = new SftpClient("bank-rail");
  let presented: string | null = null;
  const expected = settings.hostKeyFingerprint.replace(/=+$/, "");
  try {
    await client.connect({
      host: settings.host,
      port: settings.port,
      username: settings.username,
      ...(settings.password === undefined ? {} : { password: settings.password }),
      ...(settings.privateKey === undefined ? {} : { privateKey: settings.privateKey }),
      readyTimeout: settings.timeoutMs ?? 15_000,
      retries: 0,
      hostVerifier: (key: Buffer) => {
        presented = openSshFingerprint(key);
        return presented === expected;
      },
    });
  } catch (error) {
    await client.end().catch(() => undefined);
    if (presented !== null && presented !== expected) {
      throw new DeliveryError(`the SFTP server presented host key ${presented}, not the pinned ${expected}`, "host_key_mismatch");
    }
    const message = (error as Error).message;
    const kind = /authentication/i.test(message) ? "auth_failed" : "unreachable";
    throw new DeliveryError(`SFTP connection to ${settings.host}:${settings.port} failed: ${message}`, kind);
  }
  const out = (name: string) => path.posix.join(settings.outboundDirectory, name);
  const inbound = (name: string) => path.posix.join(settings.inboundDirectory, name);
  async function fetch(remote: string): Promise<Buffer> {
    const data = await client.get(remote);
    if (!Buffer.isBuffer(data)) throw new DeliveryError(`could not read ${remote}`, "io");
    return data;
  }
  return {
    async existing(name) {
      const found = await client.exists(out(name));
      if (found === false) return null;
      return sha256Hex(await fetch(out(name)));
    },
    async put(name, content) {
      const temporary = out(`.${name}.part`);
      await client.put(Buffer.from(content, "utf8"), temporary);
      const back = await fetch(temporary);
      if (sha256Hex(back) !== sha256Hex(content))
        throw new DeliveryError(`${name} arrived altered (checksum mismatch)`, "checksum_mismatch");
      await client.rename(temporary, out(name));
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

/** Local folders under the operator's root (BANK_RAIL_LOCAL_ROOT); paths were checked to stay inside it. */
export function openLocalTarget(root: string, outboundDirectory: string, inboundDirectory: string): DeliveryTarget {
  const outDir = path.resolve(root, outboundDirectory);
  const inDir = path.resolve(root, inboundDirectory);
  for (const dir of [outDir, inDir]) {
    if (!dir.startsWith(`${path.resolve(root)}${path.sep}`))
      throw new DeliveryError("directory outside BANK_RAIL_LOCAL_ROOT", "io");
  }
  return {
    async existing(name) {
      try {
        return sha256Hex(await readFile(path.join(outDir, name)));
      } catch {
        return null;
      }
    },
    async put(name, content) {
      await mkdir(outDir, { recursive: true, mode: 0o700 });
      const temporary = path.join(outDir, `.${name}.part`);
      await writeFile(temporary, content, { mode: 0o600 });
      if (sha256Hex(await readFile(temporary)) !== sha256Hex(content))
        throw new DeliveryError(`${name} was written altered`, "checksum_mismatch");
      await rename(temporary, path.join(outDir, name));
    },
    async listInbound() {
      await mkdir(inDir, { recursive: true, mode: 0o700 });
      const names = await readdir(inDir);
      const files: InboundEntry[] = [];
      for (const name of names.sort()) {
        if (name.startsWith(".")) continue;
        const found = await stat(path.join(inDir, name));
        if (found.isFile()) files.push({ name, size: found.size, modifiedAt: found.mtime });
      }
      return files;
    },
    async readInbound(name, maxBytes) {
      return readAtMost(createReadStream(path.join(inDir, name), { start: 0, end: maxBytes }), maxBytes);
    },
    async close() {},
  };
}
