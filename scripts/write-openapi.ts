// Writes the OpenAPI document the service serves at /v1/openapi.json to a file, built by the real buildApp on
// a throw-away embedded database: `tsx scripts/write-openapi.ts <file>`. Used by `npm run lint:openapi` and by the dashboard build (`npm run dashboard:types`: its API types).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/platform/logger.js";
import { createRuntime } from "../src/runtime.js";

const target = process.argv[2];
if (target === undefined) {
  process.stderr.write("usage: tsx scripts/write-openapi.ts <output file>\n");
  process.exit(2);
}
const dataDir = await mkdtemp(path.join(tmpdir(), "openapi-"));
try {
  // PUBLIC_BASE_URL is left at its default: the document's `servers` is relative whatever it is.
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const runtime = await createRuntime(config, { logger: createLogger("silent") });
  try {
    const app = await buildApp(runtime.deps);
    // What GET /v1/openapi.json serves (called directly, so a failure shows its stack).
    await mkdir(path.dirname(path.resolve(target)), { recursive: true });
    await writeFile(target, `${JSON.stringify(app.swagger(), null, 2)}\n`);
    await app.close();
  } finally {
    await runtime.close();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
