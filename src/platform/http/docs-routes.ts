// The API reference (/docs, Swagger UI over the generated OpenAPI document), the document itself at
// /v1/openapi.json, and the error reference at /docs/errors generated from the one code table (assembled from
// the platform's codes and the modules' contributions, in that order).
import { docsAnchor, type ErrorCodeTable } from "../errors.js";
import type { AppInstance } from "./types.js";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

/** Inline `code` spans in descriptions become <code>. */
function renderText(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

export function renderErrorReference(errorCodes: ErrorCodeTable): string {
  const rows = Object.entries(errorCodes)
    .map(
      ([code, info]) => `
    <section id="${docsAnchor(code)}">
      <h2><a href="#${docsAnchor(code)}"><code>${escapeHtml(code)}</code></a> <span class="status">HTTP ${info.status}</span></h2>
      <p><strong>${renderText(info.message)}</strong></p>
      <p>${renderText(info.description)}</p>
    </section>`,
    )
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Error reference · Payout Orchestration API</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1a1a1a; }
  section { border-top: 1px solid #ddd; padding: 0.5rem 0; }
  section:target { background: #fff8d6; }
  h2 { font-size: 1.1rem; margin: 0.5rem 0; }
  h2 a { color: inherit; text-decoration: none; }
  .status { color: #555; font-weight: normal; font-size: 0.9rem; margin-left: 0.5rem; }
  code { background: #f2f2f2; padding: 0 0.2rem; border-radius: 3px; }
</style>
</head>
<body>
<h1>Error reference</h1>
<p>Every error response has the shape <code>{"error": {code, message, request_id, occurred_at, actor, details?, docs_url}}</code>.
<code>docs_url</code> points at the entry below for its code. Quote <code>request_id</code> when asking for help.</p>
${rows}
</body>
</html>`;
}

export function registerDocsRoutes(app: AppInstance, errorCodes: ErrorCodeTable): void {
  const errorReference = renderErrorReference(errorCodes);
  const hidden = { hide: true } as Record<string, unknown>;
  app.get("/docs/errors", { schema: hidden }, async (_request, reply) =>
    reply.type("text/html; charset=utf-8").send(errorReference),
  );
  app.get("/v1/openapi.json", { config: { rateLimit: "none" }, schema: hidden }, async () => app.swagger());
}
