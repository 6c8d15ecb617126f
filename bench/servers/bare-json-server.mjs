// The ceiling: a bare Fastify server answering a fixed JSON document, serialized on every request like
// any route without a response schema. No hooks, no logging, no database. Plain JavaScript so it runs
// with `node` exactly like the built service does.
//   PORT            loopback port to listen on
//   BENCH_ROUTE     the GET path to answer (e.g. /v1/api-keys)
//   BENCH_BODY_FILE a file holding the JSON document to answer with
import { readFileSync } from "node:fs";
import Fastify from "fastify";

const port = Number(process.env.PORT);
const route = process.env.BENCH_ROUTE ?? "/";
const bodyFile = process.env.BENCH_BODY_FILE;
if (!bodyFile) throw new Error("BENCH_BODY_FILE is required");
const document = JSON.parse(readFileSync(bodyFile, "utf8"));

const app = Fastify({ logger: false });
app.get("/healthz", async () => ({ status: "ok" }));
app.get(route, async () => document);

process.on("SIGTERM", () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});

await app.listen({ port, host: "127.0.0.1" });
