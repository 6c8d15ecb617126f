// Keeps the OpenAPI document's error declarations true across the whole suite: every error a test receives
// through inject() from an operation of the document must have a status that operation declares and a code it
// lists for that status (`x-error-codes`). buildTestApp records violations; close() fails the file with them,
// after the test that caused them has seen its response.
import FindMyWay, { type HTTPMethod } from "find-my-way";
import type { AppInstance } from "../../src/platform/http/types.js";

interface DocumentOperation {
  responses?: Record<string, { "x-error-codes"?: string[] }>;
}

export interface DeclaredErrorCheck {
  /** Checks one response; `url` may carry a query string. */
  observe(method: string, url: string, statusCode: number, body: string): void;
  readonly violations: readonly string[];
}

export function createDeclaredErrorCheck(app: AppInstance): DeclaredErrorCheck {
  let router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1> | null = null;
  const operations = new Map<string, DocumentOperation>();
  const violations: string[] = [];

  const lookup = (method: string, url: string): { template: string; op: DocumentOperation } | null => {
    if (router === null) {
      router = FindMyWay({ ignoreTrailingSlash: true });
      const doc = app.swagger() as { paths?: Record<string, Record<string, DocumentOperation>> };
      for (const [path, item] of Object.entries(doc.paths ?? {})) {
        for (const [verb, op] of Object.entries(item)) {
          const key = `${verb.toUpperCase()} ${path}`;
          operations.set(key, op);
          router.on(verb.toUpperCase() as HTTPMethod, path.replace(/\{(\w+)\}/g, ":$1"), () => {}, { key });
        }
      }
    }
    const found = router.find(method.toUpperCase() as HTTPMethod, url.split("?")[0] ?? url);
    const key = (found?.store as { key?: string } | undefined)?.key;
    const op = key === undefined ? undefined : operations.get(key);
    return key === undefined || op === undefined ? null : { template: key, op };
  };

  return {
    violations,
    observe(method, url, statusCode, body) {
      // 405: the path belongs to another operation (GET /v1/payouts/bulk is not getPayout), not to this one.
      if (statusCode < 400 || statusCode === 405) return;
      const match = lookup(method, url);
      if (match === null) return;
      let code: unknown;
      try {
        code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
      } catch {
        code = undefined;
      }
      const declared = match.op.responses?.[String(statusCode)];
      if (declared === undefined) {
        violations.push(`${match.template} answered ${statusCode} (${String(code)}), a status it does not declare`);
      } else if (!(declared["x-error-codes"] ?? []).includes(String(code))) {
        violations.push(`${match.template} answered ${statusCode} ${String(code)}, a code its x-error-codes do not list`);
      }
    },
  };
}
