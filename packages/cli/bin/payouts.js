#!/usr/bin/env node
import { spawnSync } from "node:child_process";
// The `payouts` command. Runs the build (dist/); in a checkout that was not built yet, the TypeScript sources
// through tsx (a development dependency of the repository).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new URL("../dist/bin.js", import.meta.url);
if (existsSync(fileURLToPath(built))) {
  await import(built.href);
} else {
  const source = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
  const result = spawnSync(
    process.execPath,
    ["--conditions=source", "--import", import.meta.resolve("tsx"), source, ...process.argv.slice(2)],
    {
      stdio: "inherit",
    },
  );
  process.exit(result.status ?? 1);
}
