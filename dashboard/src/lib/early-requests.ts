// A first visit's head start. The entry starts the GET requests the landing page will certainly make (the
// session check, the page's first data) while the app's JavaScript is still downloading, instead of after React
// has rendered, the session has answered and the page's chunk has arrived. The API client (api/client.ts) then
// takes such a response instead of sending the same request again.
//
// An early response is used at most once, only by a GET with the same path, query and environment, and only
// before anything could have changed what it would answer: any write through the client (sign-in, sign-out, a
// switch of Business), an environment switch or EARLY_LIFETIME_MS drop every early response not yet taken.
// A request nobody takes is simply never read.

// Long enough for a first render on a loaded machine (the page takes its answer as soon as it renders, well
// under a second on a quiet one); a write, the other way an answer goes stale, drops them anyway.
const EARLY_LIFETIME_MS = 30_000;

interface EarlyRequest {
  readonly environment: string;
  readonly startedAt: number;
  readonly response: Promise<Response>;
}

const early = new Map<string, EarlyRequest>();

/** Path and query, the query's parameters sorted (openapi-fetch and the early start may order them differently). */
function keyOf(url: URL): string {
  const query = new URLSearchParams(url.search);
  query.sort();
  const text = query.toString();
  return text === "" ? url.pathname : `${url.pathname}?${text}`;
}

/** Starts `GET path` now, with the headers the API client would send (the cookie, `X-Environment`). */
export function startEarlyRequest(path: string, environment: string): void {
  const url = new URL(path, window.location.origin);
  const response = fetch(url, { credentials: "same-origin", headers: { "x-environment": environment } });
  // A network failure is handled by whoever takes the response (it is sent again); never an unhandled rejection.
  response.catch(() => undefined);
  early.set(keyOf(url), { environment, startedAt: performance.now(), response });
}

/** Drops every early response not yet taken. */
export function dropEarlyResponses(): void {
  early.clear();
}

/**
 * The early response for `request`, once, or undefined. A write drops them all: it may change what they say
 * (sign-in turns a 401 into data).
 */
export function takeEarlyResponse(request: Request): Promise<Response> | undefined {
  if (early.size === 0) return undefined;
  if (request.method !== "GET") {
    early.clear();
    return undefined;
  }
  const key = keyOf(new URL(request.url));
  const found = early.get(key);
  if (found === undefined) return undefined;
  early.delete(key);
  if (performance.now() - found.startedAt > EARLY_LIFETIME_MS) return undefined;
  if (found.environment !== request.headers.get("x-environment")) return undefined;
  // Failed on the way: send the request itself, as if there had been no head start.
  return found.response.catch(() => fetch(request));
}
