// DATA_DIR is private to the service user: makeDataDirPrivate() on its own, and createRuntime()'s start on a
// fresh embedded DATA_DIR in this process (whose umask the service does not set: only main.ts does).
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { makeDataDirPrivate } from "../../src/platform/data-dir.js";
import { createLogger } from "../../src/platform/logger.js";
import { createRuntime } from "../../src/runtime.js";

const tempDirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "data-dir-test-"));
  tempDirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const modeOf = async (target: string) => (await lstat(target)).mode & 0o777;

async function widerThanPrivate(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (target: string): Promise<void> => {
    const info = await lstat(target);
    if (info.isSymbolicLink()) return;
    if ((info.mode & 0o077) !== 0) found.push(`${path.relative(root, target) || "."} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) for (const name of await readdir(target)) await visit(path.join(target, name));
  };
  await visit(root);
  return found;
}

describe("makeDataDirPrivate", () => {
  it("creates a missing DATA_DIR as 0700 when asked, and leaves it missing otherwise", async () => {
    const parent = await tempDir();
    const absent = path.join(parent, "absent");
    expect(await makeDataDirPrivate(absent, { create: false })).toEqual({
      exists: false,
      correctedDirectories: 0,
      correctedFiles: 0,
    });
    await expect(stat(absent)).rejects.toMatchObject({ code: "ENOENT" });

    const created = path.join(parent, "nested", "data");
    expect(await makeDataDirPrivate(created, { create: true })).toMatchObject({ exists: true });
    expect(await modeOf(created)).toBe(0o700);
  });

  it("removes group and other bits everywhere, keeps the owner's, and counts what it changed", async () => {
    const root = await tempDir();
    await chmod(root, 0o755);
    await mkdir(path.join(root, "pgdata", "pg_wal"), { recursive: true });
    await chmod(path.join(root, "pgdata"), 0o777);
    await chmod(path.join(root, "pgdata", "pg_wal"), 0o750);
    await writeFile(path.join(root, "pgdata", "pg_wal", "000000010000000000000001"), "wal");
    await chmod(path.join(root, "pgdata", "pg_wal", "000000010000000000000001"), 0o666);
    await writeFile(path.join(root, "encryption.key"), "key", { mode: 0o600 });
    await writeFile(path.join(root, "read-only"), "r");
    await chmod(path.join(root, "read-only"), 0o444);
    await writeFile(path.join(root, "script"), "x");
    await chmod(path.join(root, "script"), 0o755);

    expect(await makeDataDirPrivate(root, { create: false })).toEqual({
      exists: true,
      correctedDirectories: 3,
      correctedFiles: 3,
    });
    expect(await modeOf(root)).toBe(0o700);
    expect(await modeOf(path.join(root, "pgdata"))).toBe(0o700);
    expect(await modeOf(path.join(root, "pgdata", "pg_wal"))).toBe(0o700);
    expect(await modeOf(path.join(root, "pgdata", "pg_wal", "000000010000000000000001"))).toBe(0o600);
    expect(await modeOf(path.join(root, "encryption.key"))).toBe(0o600);
    expect(await modeOf(path.join(root, "read-only"))).toBe(0o400);
    expect(await modeOf(path.join(root, "script"))).toBe(0o700);

    // Nothing left to do the second time.
    expect(await makeDataDirPrivate(root, { create: false })).toEqual({
      exists: true,
      correctedDirectories: 0,
      correctedFiles: 0,
    });
  });

  it("does not follow links inside DATA_DIR, but secures DATA_DIR itself when it is a link", async () => {
    const outside = await tempDir();
    const shared = path.join(outside, "shared.txt");
    await writeFile(shared, "not ours");
    await chmod(shared, 0o644);
    const realData = path.join(outside, "real-data");
    await mkdir(realData, { mode: 0o755 });
    await chmod(realData, 0o755);
    await symlink(shared, path.join(realData, "link-to-shared"));
    const linkedDataDir = path.join(outside, "data-link");
    await symlink(realData, linkedDataDir);

    expect(await makeDataDirPrivate(linkedDataDir, { create: false })).toEqual({
      exists: true,
      correctedDirectories: 1,
      correctedFiles: 0,
    });
    expect(await modeOf(realData)).toBe(0o700);
    expect(await modeOf(shared)).toBe(0o644);
  });
});

describe("createRuntime on a fresh embedded DATA_DIR", () => {
  it("leaves nothing readable by group or others after the database is created and written", async () => {
    const dataDir = path.join(await tempDir(), "data");
    const logLines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        logLines.push(String(chunk));
        callback();
      },
    });
    const runtime = await createRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "debug" }), {
      logger: createLogger("debug", sink),
    });
    try {
      // Writes after the start: new relation files and WAL are created with the private folder's mode.
      await runtime.deps.database.db.execute(sql`create table private_probe (x text)`);
      await runtime.deps.database.db.execute(
        sql`insert into private_probe select repeat('x', 900) from generate_series(1, 20000)`,
      );
      await runtime.deps.database.db.execute(sql`checkpoint`);
      expect(await widerThanPrivate(dataDir)).toEqual([]);
    } finally {
      await runtime.close();
    }
    expect(await widerThanPrivate(dataDir)).toEqual([]);
    expect((await readdir(dataDir)).sort()).toEqual(["encryption.key", "pgdata"]);
    // PGlite's first start creates its files readable by everyone; the start made them private (debug log).
    const made = logLines.find((line) => line.includes("embedded database files made private"));
    expect(JSON.parse(made ?? "{}").files).toBeGreaterThan(500);
    // Nothing existed before, so nothing was reported as corrected.
    expect(logLines.join("")).not.toContain("readable by other users");
  }, 120_000);
});
