// Where the CLI keeps its key: a JSON file readable only by the user (0600, in a 0700 folder). PAYOUTS_API_KEY and
// PAYOUTS_BASE_URL win over the file; --api-key and --base-url win over both.
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";

export interface StoredConfig {
  api_key?: string;
  base_url?: string;
}

export const DEFAULT_BASE_URL = "http://127.0.0.1:3000";

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PAYOUTS_CONFIG) return env.PAYOUTS_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), ".config");
  return path.join(base, "payouts", "config.json");
}

export async function readConfig(file: string): Promise<StoredConfig> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as unknown;
    return typeof parsed === "object" && parsed !== null ? (parsed as StoredConfig) : {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/** Writes atomically with mode 0600 from the start, so the key is never readable by others, even briefly. */
export async function writeConfig(file: string, config: StoredConfig): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}
