// The Business dashboard at /dashboard: the single-page app built by Vite into dist/dashboard (see
// dashboard/README.md). It is served from memory: the folder is read once when the app is built, so only the
// files the build wrote can ever be answered (no path from the request reaches the file system). Hashed
// assets are cached for a year; every other path under /dashboard/ is a client route and gets index.html,
// never cached, so a new build reaches people at their next navigation. The build writes a Brotli and a gzip
// copy beside each text file (dashboard/vite.config.ts): they are answered by Accept-Encoding, so nothing is
// compressed per request. The app speaks only the public /v1 API with the session cookie; its
// Content-Security-Policy allows nothing but this origin.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppInstance } from "../../platform/http/types.js";
import { FAVICON_SVG } from "./favicon.js";

/** dist/dashboard beside the compiled service (dist/pages/dashboard -> dist/dashboard; src/... -> dist/dashboard). */
export function defaultDashboardDirectory(): string {
  return fileURLToPath(new URL("../../../dist/dashboard/", import.meta.url));
}

/**
 * Scripts and styles from this origin only (Vite emits no inline script). Styles allow inline attributes:
 * Mantine sets CSS variables through `style` attributes and one <style> element; CSS cannot run script.
 * Images: this origin and data: (the two-factor QR code is an SVG turned into a data: URL).
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS = {
  "content-security-policy": DASHBOARD_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
} as const;

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

interface StaticFile {
  readonly body: Buffer;
  readonly type: string;
  /** Vite's content-hashed output (assets/…): safe to cache for good. */
  readonly immutable: boolean;
  /** The build's precompressed copies (`<file>.br`, `<file>.gz`), when it wrote them. */
  readonly br: Buffer | null;
  readonly gzip: Buffer | null;
}

function readIfPresent(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** Whether Accept-Encoding lists `coding` with a q-value above 0 (`br;q=0` refuses it). */
function acceptsEncoding(header: string | undefined, coding: string): boolean {
  if (header === undefined) return false;
  for (const part of header.split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (name !== coding) continue;
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** The body for this request: Brotli, else gzip, else the file itself; `Vary` so caches keep them apart. */
function sendFile(request: FastifyRequest, reply: FastifyReply, file: StaticFile) {
  reply.header("vary", "accept-encoding");
  const accepted = request.headers["accept-encoding"];
  if (file.br !== null && acceptsEncoding(accepted, "br"))
    return reply.header("content-encoding", "br").type(file.type).send(file.br);
  if (file.gzip !== null && acceptsEncoding(accepted, "gzip"))
    return reply.header("content-encoding", "gzip").type(file.type).send(file.gzip);
  return reply.type(file.type).send(file.body);
}

function readBuild(directory: string): Map<string, StaticFile> | null {
  const files = new Map<string, StaticFile>();
  try {
    if (!statSync(path.join(directory, "index.html")).isFile()) return null;
  } catch {
    return null;
  }
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(directory, relative), { withFileTypes: true })) {
      const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) {
        const type = TYPES[path.extname(entry.name).toLowerCase()];
        if (type === undefined) continue;
        const full = path.join(directory, child);
        files.set(child, {
          body: readFileSync(full),
          type,
          immutable: child.startsWith("assets/"),
          br: readIfPresent(`${full}.br`),
          gzip: readIfPresent(`${full}.gz`),
        });
      }
    }
  };
  walk("");
  return files;
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head><body><main><h1>The dashboard is not built</h1><p>Run <code>npm run build</code>, then start the service again.</p></main></body></html>`;

export function registerDashboard(app: AppInstance, options: { directory: string }): void {
  const files = readBuild(options.directory);
  const routeOptions = { config: { access: "public" as const, rateLimit: "none" as const }, schema: { hide: true } };

  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(SECURITY_HEADERS).header("cache-control", "no-store");
    const index = files?.get("index.html");
    if (index === undefined) return reply.code(503).type("text/html; charset=utf-8").send(NOT_BUILT);
    return sendFile(request, reply.code(200), index);
  };

  // The icon, so no page's request for it ends in a 404 (see favicon.ts).
  const sendIcon = (_request: FastifyRequest, reply: FastifyReply) =>
    reply.headers(SECURITY_HEADERS).header("cache-control", "public, max-age=86400").type("image/svg+xml").send(FAVICON_SVG);
  app.get("/favicon.ico", routeOptions, async (request, reply) => sendIcon(request, reply));
  app.get("/dashboard/favicon.svg", routeOptions, async (request, reply) => sendIcon(request, reply));

  // The router ignores trailing slashes, so "/dashboard/" arrives here too: only the bare path redirects
  // (the app's relative asset URLs and client routes live under "/dashboard/").
  app.get("/dashboard", routeOptions, async (request, reply) =>
    request.url.split("?")[0] === "/dashboard" ? reply.redirect("/dashboard/", 308) : sendIndex(request, reply),
  );
  app.get<{ Params: { "*": string } }>("/dashboard/*", routeOptions, async (request, reply) => {
    const wanted = request.params["*"];
    const file = files?.get(wanted);
    if (file !== undefined && wanted !== "index.html") {
      reply.headers(SECURITY_HEADERS);
      reply.header("cache-control", file.immutable ? "public, max-age=31536000, immutable" : "no-cache");
      return sendFile(request, reply.code(200), file);
    }
    // A missing asset is a plain 404 (a stale page asking for an old hash must not get HTML as script);
    // anything without a file extension is a route of the app.
    if (wanted.startsWith("assets/") || path.extname(wanted) !== "") {
      return reply
        .code(404)
        .headers(SECURITY_HEADERS)
        .header("cache-control", "no-store")
        .type("text/plain; charset=utf-8")
        .send("Not found");
    }
    return sendIndex(request, reply);
  });
}
