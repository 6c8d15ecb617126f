// Starts the ceiling server (servers/bare-json-server.mjs) for a given route and body, so a benchmark
// can compare a real route with the fastest thing Fastify can do on the same machine and response size.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ServerProcess, startServerProcess } from "./server-process.js";
import { createTempDir } from "./temp-dir.js";

const SERVER_SCRIPT = fileURLToPath(new URL("../servers/bare-json-server.mjs", import.meta.url));

export interface CeilingServer extends ServerProcess {
  /** The body the ceiling server sends, as received over HTTP. */
  readonly sampleBody: string;
}

/** `body` must be a JSON text; the ceiling answers JSON.stringify(JSON.parse(body)), byte for byte the same for canonical JSON. */
export async function startCeilingServer(route: string, body: string): Promise<CeilingServer> {
  const dir = await createTempDir("bench-ceiling");
  const bodyFile = path.join(dir.path, "body.json");
  await writeFile(bodyFile, body);
  let server: ServerProcess;
  try {
    server = await startServerProcess({
      name: "ceiling server",
      nodeArgs: [SERVER_SCRIPT],
      env: { BENCH_ROUTE: route, BENCH_BODY_FILE: bodyFile },
      readyPath: "/healthz",
    });
  } catch (error) {
    await dir.remove();
    throw error;
  }
  const response = await fetch(`${server.baseUrl}${route}`);
  const sampleBody = await response.text();
  return {
    ...server,
    sampleBody,
    stop: async () => {
      await server.stop();
      await dir.remove();
    },
  };
}
