// Vitest global setup of the browser tests: the dashboard tests drive the built single-page app, so build it
// (Vite only, a few seconds; no typecheck) when dist/dashboard is missing or older than any source file of
// dashboard/ or of the time-zone package it bundles (packages/time-zone). A fresh clone's `npm run test:browser` therefore works without `npm run build` first.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCE = path.join(ROOT, "dashboard");
/** The workspace packages' files the dashboard bundles from source (the others it uses come from the registry). */
const SHARED_SOURCE = path.join(ROOT, "packages/time-zone/src");
const CLIENT_UPLOAD_ID = path.join(ROOT, "packages/client/src/upload-id.ts");
const BUILT = path.join(ROOT, "dist/dashboard/index.html");

function newestSourceTime(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      // Generated API types only matter to the typecheck, not to the bundle.
      if (entry.name !== "generated") newest = Math.max(newest, newestSourceTime(full));
    } else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

export function dashboardBuildIsStale(): boolean {
  return (
    !existsSync(BUILT) ||
    statSync(BUILT).mtimeMs <
      Math.max(newestSourceTime(SOURCE), newestSourceTime(SHARED_SOURCE), statSync(CLIENT_UPLOAD_ID).mtimeMs)
  );
}

export default function setup(): void {
  if (!dashboardBuildIsStale()) return;
  const vite = path.join(ROOT, "node_modules/.bin/vite");
  const result = spawnSync(vite, ["build", "--config", "dashboard/vite.config.ts", "--logLevel", "warn"], {
    cwd: ROOT,
    stdio: "inherit",
    // Vitest sets NODE_ENV=test, which would bundle React's development build.
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error(`the dashboard build failed (exit ${result.status ?? result.signal})`);
}
