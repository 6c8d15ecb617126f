// Local bank folders (BANK_RAIL_LOCAL_ROOT) opened without ever following a symbolic link.
//
// Each Business has a folder of its own under the operator's root: `<root>/<business id>/<environment>/`, and its
// configured directories are resolved below that, so no configuration can name another Business's folder.
// Below the root nothing is trusted: whoever can write there (the bank connector, another local account) could
// plant a symbolic link that sends a write (a `.part` file) or a read outside the root. So every component is
// opened one at a time with O_NOFOLLOW | O_DIRECTORY, each relative to the directory opened just before, and a
// file with O_NOFOLLOW; a symbolic link anywhere below the root is refused, not followed.
//
// "Relative to the directory opened before" is openat(2), which Node does not expose: on Linux it is reached
// through `/proc/self/fd/<fd>/<name>`, which the kernel resolves from the open directory itself (not from its
// path), so swapping a directory for a link after it was opened changes nothing. Where /proc is missing (not
// Linux), the same checks run on full paths, which leaves a window between a check and its use.
// The operator's root itself may be a link (the operator chose it).
import { constants, existsSync } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readdir, rename, unlink } from "node:fs/promises";
import path from "node:path";

/** Why a local folder operation was refused; the message shown to the Business never names the operator's paths. */
export class LocalFolderError extends Error {
  override readonly name = "LocalFolderError";
  constructor(
    /** Safe to show to the Business. */
    readonly publicMessage: string,
    /** For the server log only (paths on the operator's disk). */
    readonly detail: string,
  ) {
    super(detail);
  }
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
// A FIFO planted under a file's name would block a plain open for reading forever.
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const PROC_FD = existsSync("/proc/self/fd");

function checkSegment(segment: string): void {
  if (segment === "" || segment === "." || segment === ".." || segment.includes("/") || segment.includes("\0")) {
    throw new LocalFolderError("the bank folder's path is not valid", `invalid path segment ${JSON.stringify(segment)}`);
  }
}

function symlinkRefused(where: string): LocalFolderError {
  return new LocalFolderError(
    "a symbolic link was found in the bank folder; it is never followed, so nothing was read or written there",
    `symbolic link refused at ${where}`,
  );
}

export interface LocalFileEntry {
  readonly name: string;
  readonly size: number;
  readonly modifiedAt: Date;
}

/** An open directory below the root: the one place its entries are reached from. */
export interface ConfinedDirectory {
  /** The directory's path, for log messages only. */
  readonly displayPath: string;
  /**
   * A regular file opened for reading (O_NOFOLLOW), or null when there is none by that name; a link or anything
   * else is refused. The caller reads it (a bounded stream: `handle.createReadStream({ start, end })`) and closes it.
   */
  openFile(name: string): Promise<FileHandle | null>;
  /** A regular file's bytes, or null when there is none by that name; a link or anything else is refused. */
  readFile(name: string): Promise<Buffer | null>;
  /** The regular files in the directory with their size and modification time (links and the rest left out). */
  listFiles(): Promise<LocalFileEntry[]>;
  /**
   * Writes `content` to `temporaryName` (created new, never through a link), lets `check` read it back, then
   * renames it to `name`, unless `name` is a link or not a regular file.
   */
  writeThenRename(
    temporaryName: string,
    name: string,
    content: string,
    check: (written: Buffer) => void | Promise<void>,
  ): Promise<void>;
  close(): Promise<void>;
}

interface OpenDir {
  readonly handle: FileHandle;
  readonly displayPath: string;
}

/** The path by which an entry of an open directory is reached (see the header). */
function entryPath(dir: OpenDir, name: string): string {
  return PROC_FD ? `/proc/self/fd/${dir.handle.fd}/${name}` : path.join(dir.displayPath, name);
}

function dirPath(dir: OpenDir): string {
  return PROC_FD ? `/proc/self/fd/${dir.handle.fd}` : dir.displayPath;
}

async function openChildDirectory(parent: OpenDir, name: string, create: boolean): Promise<OpenDir> {
  checkSegment(name);
  const where = path.join(parent.displayPath, name);
  const attempt = () => open(entryPath(parent, name), constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  try {
    return { handle: await attempt(), displayPath: where };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && create) {
      // mkdir does not follow a link in its last component: a link planted meanwhile makes it fail (EEXIST),
      // and the open below refuses it.
      await mkdir(entryPath(parent, name), { mode: 0o700 }).catch((mkdirError: NodeJS.ErrnoException) => {
        if (mkdirError.code !== "EEXIST") throw mkdirError;
      });
      return openChildDirectory(parent, name, false);
    }
    if (code === "ELOOP" || code === "ENOTDIR") {
      const stats = await lstat(entryPath(parent, name)).catch(() => null);
      if (stats?.isSymbolicLink()) throw symlinkRefused(where);
      throw new LocalFolderError("the bank folder's path names something that is not a folder", `not a directory: ${where}`);
    }
    throw error;
  }
}

/**
 * Opens `<root>/<segments…>` one directory at a time without following a link below the root, creating
 * missing directories (mode 0700) when `create` is set. Null when a directory is missing and `create` is not set.
 */
export async function openConfinedDirectory(
  root: string,
  segments: readonly string[],
  options: { readonly create: boolean },
): Promise<ConfinedDirectory | null> {
  if (options.create) await mkdir(root, { recursive: true, mode: 0o700 });
  let current: OpenDir;
  try {
    current = { handle: await open(root, constants.O_RDONLY | O_DIRECTORY), displayPath: root };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    for (const segment of segments) {
      let next: OpenDir;
      try {
        next = await openChildDirectory(current, segment, options.create);
      } catch (error) {
        if (!options.create && (error as NodeJS.ErrnoException).code === "ENOENT") {
          await current.handle.close();
          return null;
        }
        throw error;
      }
      await current.handle.close();
      current = next;
    }
  } catch (error) {
    await current.handle.close().catch(() => undefined);
    throw error;
  }
  return confined(current);
}

function confined(dir: OpenDir): ConfinedDirectory {
  async function openFile(name: string): Promise<FileHandle | null> {
    checkSegment(name);
    let handle: FileHandle;
    try {
      handle = await open(entryPath(dir, name), constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return null;
      if (code === "ELOOP") throw symlinkRefused(path.join(dir.displayPath, name));
      throw error;
    }
    const regular = await handle
      .stat()
      .then((stats) => stats.isFile())
      .catch(() => false);
    if (!regular) {
      await handle.close();
      throw new LocalFolderError(
        "the bank folder holds something that is not a regular file under that name",
        `not a regular file: ${path.join(dir.displayPath, name)}`,
      );
    }
    return handle;
  }

  async function readFile(name: string): Promise<Buffer | null> {
    const handle = await openFile(name);
    if (handle === null) return null;
    try {
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /** Refuses a link or a non-regular file under `name`; absent is fine. */
  async function checkReplaceable(name: string): Promise<boolean> {
    const stats = await lstat(entryPath(dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
    if (stats === null) return false;
    if (stats.isSymbolicLink()) throw symlinkRefused(path.join(dir.displayPath, name));
    if (!stats.isFile()) {
      throw new LocalFolderError(
        "the bank folder holds something that is not a regular file under that name",
        `not a regular file: ${path.join(dir.displayPath, name)}`,
      );
    }
    return true;
  }

  return {
    displayPath: dir.displayPath,
    openFile,
    readFile,
    async listFiles() {
      // Entry types come from the directory itself, sizes from lstat (neither looks through a link): a link is
      // not a file here.
      const entries = await readdir(dirPath(dir), { withFileTypes: true });
      const files: LocalFileEntry[] = [];
      for (const entry of entries.filter((e) => e.isFile()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const stats = await lstat(entryPath(dir, entry.name)).catch(() => null);
        if (stats?.isFile()) files.push({ name: entry.name, size: stats.size, modifiedAt: stats.mtime });
      }
      return files;
    },
    async writeThenRename(temporaryName, name, content, check) {
      checkSegment(temporaryName);
      checkSegment(name);
      // A leftover temporary file of a crashed attempt is removed; a link under its name is refused.
      if (await checkReplaceable(temporaryName)) await unlink(entryPath(dir, temporaryName));
      // O_CREAT | O_EXCL never follows a link and never reuses an existing file.
      const handle = await open(
        entryPath(dir, temporaryName),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
        0o600,
      ).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "EEXIST" || error.code === "ELOOP") throw symlinkRefused(path.join(dir.displayPath, temporaryName));
        throw error;
      });
      try {
        await handle.writeFile(content, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      const written = await readFile(temporaryName);
      await check(written ?? Buffer.alloc(0));
      // rename() replaces a link under the final name rather than writing through it; a link there is refused
      // all the same (something is wrong in that folder).
      await checkReplaceable(name);
      await rename(entryPath(dir, temporaryName), entryPath(dir, name));
    },
    async close() {
      await dir.handle.close().catch(() => undefined);
    },
  };
}
