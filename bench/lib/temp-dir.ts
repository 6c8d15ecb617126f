import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { registerCleanup } from "./cleanup.js";

export interface TempDir {
  readonly path: string;
  remove(): Promise<void>;
}

/** A fresh directory under the OS temp dir, removed on remove() or when the run is interrupted. */
export async function createTempDir(prefix: string): Promise<TempDir> {
  const dir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  const remove = registerCleanup(() => rm(dir, { recursive: true, force: true }));
  return { path: dir, remove };
}
