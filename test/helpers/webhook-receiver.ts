// A real HTTPS webhook receiver on loopback for tests: a self-signed certificate (made with openssl, once
// per test process) for localhost, 127.0.0.1 and ::1, which the test hands to the service as a trusted CA
// (RuntimeOptions.webhookTlsCa); TLS verification is never turned off. It records every request's raw body
// and headers, and answers what the test tells it to.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
}

let cached: TestCertificate | null = null;

/** A self-signed certificate for localhost / 127.0.0.1 / ::1 (it is its own CA). */
export function testCertificate(): TestCertificate {
  if (cached !== null) return cached;
  const dir = mkdtempSync(path.join(tmpdir(), "webhook-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
        "-days",
        "2",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
      ],
      { stdio: "ignore" },
    );
    cached = { cert: readFileSync(path.join(dir, "cert.pem"), "utf8"), key: readFileSync(path.join(dir, "key.pem"), "utf8") };
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body exactly as received (the bytes a signature covers). */
  readonly rawBody: Buffer;
  /** Real time of arrival (ms since epoch), for lag measurements only. */
  readonly receivedAtMs: number;
}

export interface Reply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Wait this long before answering. */
  readonly delayMs?: number;
  /** Answer only once this settles (a test releasing requests it holds open). */
  readonly until?: Promise<unknown>;
  /** Close the connection without an answer. */
  readonly destroy?: boolean;
}

export interface WebhookReceiver {
  /** `https://localhost:<port>` (or the host given). */
  readonly origin: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** Deliveries only (the service's endpoint checks at subscription time left out). */
  deliveries(): ReceivedRequest[];
  /** Decides the answer to each request (index counts deliveries from this call on; -1 for endpoint checks); default 200. */
  respondWith(decide: (request: ReceivedRequest, index: number) => Reply): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: { host?: string } = {}): Promise<WebhookReceiver> {
  const { cert, key } = testCertificate();
  const requests: ReceivedRequest[] = [];
  let decide: (request: ReceivedRequest, index: number) => Reply = () => ({ status: 200 });
  let deliveryIndex = 0;
  const server: Server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: { ...req.headers },
        rawBody: Buffer.concat(chunks),
        receivedAtMs: Date.now(),
      };
      requests.push(received);
      const isCheck = received.headers["x-service-endpoint-check"] !== undefined;
      const reply = decide(received, isCheck ? -1 : deliveryIndex++);
      const answer = () => {
        if (reply.destroy) {
          req.socket.destroy();
          return;
        }
        res.writeHead(reply.status, reply.headers ?? {});
        res.end(reply.body ?? "");
      };
      if (reply.until) void reply.until.finally(answer);
      else if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === "::1" ? "[::1]" : host;
  return {
    origin: `https://${urlHost}:${port}`,
    port,
    requests,
    deliveries: () => requests.filter((r) => r.headers["x-service-endpoint-check"] === undefined),
    respondWith(next) {
      decide = next;
      deliveryIndex = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
