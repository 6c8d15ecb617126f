// An example webhook receiver built on the receiver kit (src/receiver-kit). Run it with
//
//   WEBHOOK_SECRET=whsec_sandbox_… PORT=8443 TLS_CERT=cert.pem TLS_KEY=key.pem npx tsx examples/webhook-receiver.ts
//
// (without TLS_CERT/TLS_KEY it listens on plain HTTP, for use behind a TLS-terminating proxy: the service
// only sends to https:// URLs). It verifies every request over its raw bytes, answers 400 to anything that
// does not verify, applies each event at most once and in per-subject order, and acknowledges with 204.
// Keep the work inside the 10-second window small: store the event and process it asynchronously if it is slow.
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { pathToFileURL } from "node:url";
import { createEventApplier, SIGNATURE_HEADER, verifyWebhook, type WebhookEvent } from "../src/receiver-kit/index.js";

const MAX_BODY_BYTES = 1024 * 1024;

export interface ReceiverOptions {
  readonly secret: string;
  /** Your business logic; called once per event id, never for an event older than one already applied. */
  readonly onEvent: (event: WebhookEvent) => Promise<void>;
  /** Unix seconds now (tests pass their clock). */
  readonly nowSeconds?: () => number;
}

function readRawBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export function createWebhookRequestListener(options: ReceiverOptions): RequestListener {
  // In production, give createEventApplier a store backed by your database (see ApplierStore).
  const applier = createEventApplier();
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      if (req.method !== "POST") {
        res.writeHead(405, { allow: "POST" }).end();
        return;
      }
      const rawBody = await readRawBody(req);
      if (rawBody === null) {
        res.writeHead(413).end();
        return;
      }
      const result = verifyWebhook({
        rawBody,
        header: req.headers[SIGNATURE_HEADER],
        secret: options.secret,
        ...(options.nowSeconds === undefined ? {} : { nowSeconds: options.nowSeconds() }),
      });
      if (!result.ok) {
        res.writeHead(400, { "content-type": "text/plain" }).end(result.reason);
        return;
      }
      // "applied", "duplicate" or "stale": all are acknowledged, or the service would retry them.
      const outcome = await applier.handle(result.event, options.onEvent);
      res.writeHead(204, { "x-outcome": outcome }).end();
    })().catch(() => {
      // A failure of your own (database down…): answer 500 and the service retries later.
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error("set WEBHOOK_SECRET to the secret returned by POST /v1/webhook-subscriptions");
  const listener = createWebhookRequestListener({
    secret,
    onEvent: async (event) => {
      process.stdout.write(`${event.type} ${event.id} ${JSON.stringify(event.data)}\n`);
    },
  });
  const port = Number(process.env.PORT ?? 8443);
  const server =
    process.env.TLS_CERT && process.env.TLS_KEY
      ? createHttpsServer({ cert: readFileSync(process.env.TLS_CERT), key: readFileSync(process.env.TLS_KEY) }, listener)
      : createHttpServer(listener);
  server.listen(port, () => process.stdout.write(`webhook receiver listening on ${port}\n`));
}
