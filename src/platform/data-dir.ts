// DATA_DIR holds what only the service may read: the embedded database (Beneficiary names and e-mail
// addresses are in its tables and WAL), the generated encryption key, and e-mail written as .eml files.
// Everything in it is private to the service user: folders 0700, files without group or other bits (0600).
//
// PGlite writes the files of a new database with mode 0666 and its folders with the process umask, whatever
// PostgreSQL asks for (measured with @electric-sql/pglite 0.5: about 1,000 files), and a DATA_DIR copied or
// restored by hand can carry any mode. So the start-up makes the tree private rather than trusting how each
// file was created: before the database opens (what an earlier run or a restore left) and again after the
// embedded database opened (what PGlite created on a first start). main.ts also sets the umask to 077, so
// what PostgreSQL and the service create later is private from the start.
import { chmod, lstat, mkdir, readdir, stat } from "node:fs/promises";
import path from "node:path";

/** Group and other permission bits: none may be set on anything under DATA_DIR. */
const GROUP_AND_OTHER = 0o077;

export class DataDirPermissionError extends Error {
  override readonly name = "DataDirPermissionError";
}

export interface PrivacyOutcome {
  /** Whether DATA_DIR exists (after creating it when asked). */
  readonly exists: boolean;
  /** Folders and files whose group/other bits were removed. */
  readonly correctedDirectories: number;
  readonly correctedFiles: number;
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string }).code;
}

/**
 * Makes `dataDir` and everything under it private to the current user: group and other bits are removed
 * (0666 -> 0600, 0755 -> 0700); the owner's bits are kept. Symbolic links inside are not followed (what
 * they point to is not ours to change); DATA_DIR itself may be a link to the real folder. Creates DATA_DIR
 * with mode 0700 when `create` is set; otherwise a missing DATA_DIR is left alone. An entry that cannot be
 * made private (owned by another user) stops the start with DataDirPermissionError, as PostgreSQL refuses a
 * data directory with wrong ownership.
 */
export async function makeDataDirPrivate(dataDir: string, options: { readonly create: boolean }): Promise<PrivacyOutcome> {
  if (options.create) await mkdir(dataDir, { recursive: true, mode: 0o700 });
  let root: Awaited<ReturnType<typeof stat>>;
  try {
    root = await stat(dataDir);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { exists: false, correctedDirectories: 0, correctedFiles: 0 };
    throw error;
  }
  if (!root.isDirectory()) throw new DataDirPermissionError(`DATA_DIR ${dataDir} is not a directory`);

  let correctedDirectories = 0;
  let correctedFiles = 0;
  const makePrivate = async (target: string, mode: number): Promise<boolean> => {
    if ((mode & GROUP_AND_OTHER) === 0) return false;
    try {
      await chmod(target, mode & 0o7700);
    } catch (error) {
      if (errorCode(error) === "ENOENT") return false;
      const where = path.relative(dataDir, target) || ".";
      throw new DataDirPermissionError(
        `DATA_DIR ${dataDir}: cannot make "${where}" private (${errorCode(error) ?? "error"}); the service user must own DATA_DIR and everything in it (chown -R)`,
      );
    }
    return true;
  };

  if (await makePrivate(dataDir, root.mode)) correctedDirectories += 1;
  const pending = [dataDir];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      // A folder removed while we walk (PostgreSQL drops temporary ones) has nothing left to protect.
      if (errorCode(error) === "ENOENT") continue;
      throw error;
    }
    for (const name of names) {
      const entry = path.join(dir, name);
      let info: Awaited<ReturnType<typeof lstat>>;
      try {
        info = await lstat(entry);
      } catch (error) {
        if (errorCode(error) === "ENOENT") continue;
        throw error;
      }
      if (info.isDirectory()) {
        if (await makePrivate(entry, info.mode)) correctedDirectories += 1;
        pending.push(entry);
      } else if (info.isFile()) {
        if (await makePrivate(entry, info.mode)) correctedFiles += 1;
      }
    }
  }
  return { exists: true, correctedDirectories, correctedFiles };
}
