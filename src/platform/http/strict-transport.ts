// HTTP Strict Transport Security: when the service is published over HTTPS (PUBLIC_BASE_URL), every answer
// tells browsers to use HTTPS only for a year, whatever the route: the API, the reference at /docs, the
// dashboard's index and static files, the hosted collection pages, and errors and 404s. One hook on the app
// (installed before any route), so no page can forget it. Over plain HTTP (local development) it is never
// sent: browsers ignore it there, and a test or a developer's browser must not pin a name to HTTPS.
import type { AppInstance } from "./types.js";

export const STRICT_TRANSPORT_SECURITY = "max-age=31536000";

/** The header for a service published at `publicBaseUrl`: empty unless it is an https URL. */
export function strictTransportSecurityHeaders(publicBaseUrl: string): Record<string, string> {
  return publicBaseUrl.startsWith("https:") ? { "strict-transport-security": STRICT_TRANSPORT_SECURITY } : {};
}

export function installStrictTransportSecurity(app: AppInstance, publicBaseUrl: string): void {
  const headers = strictTransportSecurityHeaders(publicBaseUrl);
  if (Object.keys(headers).length === 0) return;
  // onRequest runs for every request that reaches routing (404s included), before any handler or error
  // handler, so the header is on the reply whatever sends it.
  app.addHook("onRequest", async (_request, reply) => {
    reply.headers(headers);
  });
}
